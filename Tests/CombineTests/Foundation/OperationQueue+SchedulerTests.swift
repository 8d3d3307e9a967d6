import Combine
import Foundation
import TestSupport
import Testing

@Suite("OperationQueue+Scheduler")
struct OperationQueueSchedulerTests {
    typealias Stride = OperationQueue.SchedulerTimeType.Stride

    @Test func timeTypeHasTheRunLoopShape() throws {
        let time = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 10))
        #expect(time.advanced(by: .milliseconds(500)).date == Date(timeIntervalSinceReferenceDate: 10.5))
        #expect(time.distance(to: time.advanced(by: 2)) == .seconds(2))
        let data = try JSONEncoder().encode(time)
        #expect(try JSONDecoder().decode(OperationQueue.SchedulerTimeType.self, from: data) == time)
        let stride: Stride = 1.5
        #expect(stride.timeInterval == 1.5)
        #expect(Stride.microseconds(1).magnitude == 0.000_001)
    }

    /// Kodeco ch. 17, OperationQueue: `(1...10).publisher.receive(on: queue)` on a default
    /// `OperationQueue` delivers every value, possibly out of order and on many threads, because
    /// the queue runs operations concurrently. Only the set of values is stable.
    @Test func bookExampleConcurrentQueueDeliversEveryValueInSomeOrder() {
        // The completion is an operation too and may overtake values, so the test records every
        // event rather than using `sink` (which stops listening at the completion).
        let queue = OperationQueue()
        let subscriber = TrackingSubscriber<Int, Never>()
        (1...10).publisher.receive(on: queue).subscribe(subscriber)
        queue.waitUntilAllOperationsAreFinished()
        #expect(Set(subscriber.values.map { "Received \($0)" }) == Set((1...10).map { "Received \($0)" }))
        #expect(subscriber.values.count == 10)
        #expect(subscriber.completions == [.finished])
    }

    /// With `maxConcurrentOperationCount = 1` the queue is serial and the output is in order:
    /// "Received 1" … "Received 10".
    @Test func bookExampleSerialQueueKeepsOrder() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let lines = Locked<[String]>([])
        let cancellable = (1...10).publisher
            .receive(on: queue)
            .sink { lines.append("Received \($0)") }
        queue.waitUntilAllOperationsAreFinished()
        #expect(lines.current == (1...10).map { "Received \($0)" })
        cancellable.cancel()
    }

    @Test func delayedAndRepeatingWork() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let start = Date()
        let elapsed = await withCheckedContinuation { (continuation: CheckedContinuation<TimeInterval, Never>) in
            queue.schedule(after: queue.now.advanced(by: .milliseconds(80))) {
                continuation.resume(returning: Date().timeIntervalSince(start))
            }
        }
        #expect(elapsed >= 0.07)

        let counter = Locked(0)
        let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(20)) { counter.increment() }
        try await Task.sleep(for: .milliseconds(150))
        cancellable.cancel()
        try await Task.sleep(for: .milliseconds(30))
        let atCancel = counter.current
        #expect(atCancel >= 2)
        try await Task.sleep(for: .milliseconds(100))
        #expect(counter.current == atCancel)
    }
}

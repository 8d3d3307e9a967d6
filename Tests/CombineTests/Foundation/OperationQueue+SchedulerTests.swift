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

    /// Spec §25: `schedule(options:_:)` adds one `BlockOperation` through `addOperation(_:)`;
    /// running its `main()` again runs the action again.
    @Test func scheduleAddsOneBlockOperation() throws {
        let queue = RecordingOperationQueue()
        let runs = Locked(0)
        queue.schedule { runs.increment() }
        #expect(queue.calls == ["addOperation(BlockOperation)"])
        let operation = try #require(queue.operationsAdded.first)
        operation.main()
        operation.main()
        #expect(runs.current == 2)
    }

    /// Spec §25: `schedule(after:)` adds, at once, exactly one operation through
    /// `addOperation(_:)`: not a `BlockOperation`, not `Cancellable`, not ready. Its `main()`
    /// waits for the date, then runs the action; running it again does nothing.
    @Test func delayedScheduleAddsOneOperationThatWaits() throws {
        let queue = RecordingOperationQueue()
        let runs = Locked(0)
        let start = Date()
        // Far enough ahead that a loaded machine cannot reach the date before `isReady` is read.
        queue.schedule(after: queue.now.advanced(by: .milliseconds(400))) { runs.increment() }
        #expect(queue.calls.count == 1)
        #expect(queue.calls.first?.hasPrefix("addOperation(") == true)
        let operation = try #require(queue.operationsAdded.first)
        #expect(!(operation is BlockOperation))
        #expect(!(operation is any Cancellable))
        #expect(!operation.isReady)
        #expect(runs.current == 0)
        operation.main()
        #expect(Date().timeIntervalSince(start) >= 0.39)
        #expect(runs.current == 1)
        operation.main()
        #expect(runs.current == 1)
        #expect(queue.calls.count == 1)
    }

    /// Spec §25: the repeating form adds one such operation too, whose `main()` runs the action
    /// every interval until the returned value is cancelled; run again, it does nothing.
    @Test func repeatingScheduleAddsOneOperationThatRepeats() async throws {
        let queue = RecordingOperationQueue()
        let runs = Locked(0)
        // The first date is far enough ahead that a loaded machine cannot reach it before
        // `isReady` is read; the repeats then come every 10 ms.
        let cancellable = queue.schedule(after: queue.now.advanced(by: .milliseconds(400)), interval: .milliseconds(10)) {
            runs.increment()
        }
        #expect(queue.calls.count == 1)
        let operation = try #require(queue.operationsAdded.first)
        #expect(!(operation is BlockOperation))
        #expect(!(operation is any Cancellable))
        #expect(!operation.isReady)
        let box = UncheckedBox(operation)
        let mainReturned = Locked(false)
        Thread.detachNewThread {
            box.value.main()
            mainReturned.withLock { $0 = true }
        }
        #expect(await eventually { runs.current >= 3 })
        #expect(!mainReturned.current)
        cancellable.cancel()
        #expect(await eventually { mainReturned.current })
        let atCancel = runs.current
        operation.main()
        try await Task.sleep(for: .milliseconds(40))
        #expect(runs.current == atCancel)
        #expect(queue.calls.count == 1)
    }

    /// On a real queue the waiting operation runs once its date has come, and does not hold up
    /// the work added after it meanwhile, even on a serial queue.
    @Test func aDelayedOperationDoesNotHoldUpASerialQueue() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = Locked<[String]>([])
        queue.schedule(after: queue.now.advanced(by: .milliseconds(500))) { order.append("later") }
        queue.schedule { order.append("now") }
        #expect(await eventually { order.current == ["now", "later"] })
    }
}

extension OperationQueueSchedulerTests {
    /// A negative interval is taken as no interval at all: nothing traps, the action runs.
    @Test func negativeIntervalsDoNotTrap() async {
        let queue = OperationQueue()
        let runs = Locked(0)
        let cancellable = queue.schedule(after: queue.now, interval: .seconds(-1)) { runs.increment() }
        queue.schedule(after: queue.now.advanced(by: .seconds(-1))) { runs.increment() }
        #expect(await eventually { runs.current >= 2 })
        cancellable.cancel()
        let subject = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        let debounced = subject.debounce(for: .seconds(-1), scheduler: queue).sink { received.append($0) }
        subject.send(1)
        #expect(await eventually { received.current == [1] })
        debounced.cancel()
    }
}

/// An `OperationQueue` that records every way an operation is added to it, and keeps those
/// operations without running them, so that a test can look at them and run them by hand.
private final class RecordingOperationQueue: OperationQueue, @unchecked Sendable {
    private let record = Locked<(calls: [String], operations: [Operation])>(([], []))

    var calls: [String] { record.current.calls }
    var operationsAdded: [Operation] { record.current.operations }

    override func addOperation(_ op: Operation) {
        record.withLock {
            $0.calls.append("addOperation(\(op is BlockOperation ? "BlockOperation" : "\(type(of: op))"))")
            $0.operations.append(op)
        }
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        record.withLock { $0.calls.append("addOperation(block)") }
    }

    override func addOperations(_ ops: [Operation], waitUntilFinished wait: Bool) {
        record.withLock { $0.calls.append("addOperations(\(ops.count))") }
    }

    override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        record.withLock { $0.calls.append("addBarrierBlock") }
    }
}

import Combine
import CombineTesting
import Foundation
import Testing
import Tributary

@Suite("VirtualTimeScheduler+Foundation")
struct VirtualTimeSchedulerFoundationTests {
    @Test func dispatchQueueTimeType() {
        let scheduler = VirtualTimeScheduler.dispatchQueue()
        let erased: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions> =
            scheduler.eraseToAnyScheduler()
        let start = erased.now
        nonisolated(unsafe) var fired: [Int] = []
        erased.schedule(after: start.advanced(by: .milliseconds(300)), tolerance: .zero, options: .init(qos: .userInitiated)) {
            fired.append(Int(start.distance(to: erased.now).magnitude))
        }
        let token = erased.schedule(after: start.advanced(by: .milliseconds(100)), interval: .milliseconds(250)) {
            fired.append(-Int(start.distance(to: erased.now).magnitude))
        }
        scheduler.advance(by: .milliseconds(299))
        #expect(fired == [-100_000_000])
        scheduler.advance(by: .milliseconds(1))
        #expect(fired == [-100_000_000, 300_000_000])
        scheduler.advance(by: .milliseconds(300))
        #expect(fired == [-100_000_000, 300_000_000, -350_000_000, -600_000_000])
        token.cancel()
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func runLoopAndOperationQueueTimeTypes() {
        let runLoop = VirtualTimeScheduler.runLoop()
        let queue = VirtualTimeScheduler.operationQueue()
        nonisolated(unsafe) var fired: [String] = []
        runLoop.schedule(after: runLoop.now.advanced(by: .seconds(2))) { fired.append("runLoop") }
        queue.schedule(after: queue.now.advanced(by: .seconds(1))) { fired.append("queue") }
        runLoop.advance(by: .seconds(2))
        queue.advance(by: .seconds(1))
        #expect(fired == ["runLoop", "queue"])
        #expect(runLoop.now.date == Date(timeIntervalSinceReferenceDate: 2))
    }

    @Test func debounceOnADispatchQueueTimeType() {
        let scheduler = VirtualTimeScheduler.dispatchQueue()
        let subject = PassthroughSubject<String, Never>()
        nonisolated(unsafe) var results: [String] = []
        let cancellable = subject
            .debounce(for: .milliseconds(300), scheduler: scheduler.eraseToAnyScheduler())
            .sink { results.append($0) }
        subject.send("co")
        scheduler.advance(by: .milliseconds(100))
        subject.send("combine")
        scheduler.advance(by: .milliseconds(299))
        #expect(results == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(results == ["combine"])
        cancellable.cancel()
    }
}

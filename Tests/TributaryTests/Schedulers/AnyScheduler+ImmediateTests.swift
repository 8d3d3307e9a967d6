import Combine
import Foundation
import Testing
import Tributary

@Suite("AnyScheduler.immediate")
struct AnySchedulerImmediateTests {
    @Test func dispatchQueueImmediateRunsOnTheSpotAndReportsUptime() {
        let scheduler = AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>.immediate
        let before = DispatchTime.now()
        nonisolated(unsafe) var fired: [String] = []
        scheduler.schedule(options: .init(qos: .background)) { fired.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(60))) { fired.append("later") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(60)), interval: .seconds(1)) {
            fired.append("repeating")
        }.cancel()
        #expect(fired == ["now", "later", "repeating"])
        #expect(scheduler.now.dispatchTime >= before)
        #expect(scheduler.minimumTolerance == .zero)
    }

    @Test func runLoopAndOperationQueueImmediates() {
        let runLoop = AnyScheduler<RunLoop.SchedulerTimeType, RunLoop.SchedulerOptions>.immediate
        let queue = AnyScheduler<OperationQueue.SchedulerTimeType, OperationQueue.SchedulerOptions>.immediate
        let before = Date()
        nonisolated(unsafe) var fired = 0
        runLoop.schedule(after: runLoop.now.advanced(by: 10)) { fired += 1 }
        queue.schedule(after: queue.now.advanced(by: 10)) { fired += 1 }
        #expect(fired == 2)
        #expect(runLoop.now.date >= before)
        #expect(queue.now.date >= before)
    }

    @Test func immediateSchedulerErased() {
        let scheduler = AnyScheduler<ImmediateScheduler.SchedulerTimeType, ImmediateScheduler.SchedulerOptions>.immediate
        nonisolated(unsafe) var fired = 0
        scheduler.schedule { fired += 1 }
        scheduler.schedule(after: scheduler.now.advanced(by: 5)) { fired += 1 }
        #expect(fired == 2)
    }

    @Test func receiveOnAnErasedImmediateSchedulerDeliversSynchronously() {
        let subject = PassthroughSubject<Int, Never>()
        nonisolated(unsafe) var received: [Int] = []
        let cancellable = subject
            .receive(on: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>.immediate)
            .sink { received.append($0) }
        subject.send(1)
        subject.send(2)
        #expect(received == [1, 2])
        cancellable.cancel()
    }
}

import Combine
import CombineTesting
import Foundation
import TestSupport
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
    typealias Time = TestScheduler.SchedulerTimeType
    typealias Stride = Time.Stride

    @Test func strideUnits() {
        #expect(Stride.seconds(2).ticks == 2_000_000_000)
        #expect(Stride.seconds(0.5).ticks == 500_000_000)
        #expect(Stride.milliseconds(3).ticks == 3_000_000)
        #expect(Stride.microseconds(4).ticks == 4_000)
        #expect(Stride.nanoseconds(5) == .ticks(5))
        #expect(Stride.seconds(Int.max).ticks == Int.max)
        #expect(Stride.seconds(-Double.infinity).ticks == Int.min)
        #expect(Stride.seconds(Double.nan) == 0)
        let literal: Stride = 7
        #expect(literal == .ticks(7))
        #expect(-Stride.ticks(3) == .ticks(-3))
        #expect(Stride.ticks(-3).magnitude == .ticks(3))
        #expect(Stride.ticks(2) * 3 == .ticks(6))
        #expect(Time(ticks: 2).advanced(by: 3) == 5)
        #expect(Time(ticks: 2).distance(to: 7) == 5)
        #expect(Time(ticks: 4).description == "t=4")
        #expect(Stride.ticks(4).description == "4 ticks")
    }

    @Test func nothingRunsUntilTheClockMoves() {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        scheduler.schedule { log.append(scheduler.now.ticks) }
        scheduler.schedule(after: 3) { log.append(scheduler.now.ticks) }
        #expect(log.current.isEmpty)
        #expect(scheduler.pendingActionCount == 2)
        #expect(scheduler.nextActionDate == 0)
        scheduler.advance()
        #expect(log.current == [0])
        scheduler.advance(by: 2)
        #expect(log.current == [0])
        #expect(scheduler.now == 2)
        scheduler.advance(by: 1)
        #expect(log.current == [0, 3])
        #expect(scheduler.pendingActionCount == 0)
        #expect(scheduler.nextActionDate == nil)
    }

    @Test func actionsSeeTheirDueTimeAndTheClockEndsAtTheTarget() {
        let scheduler = TestScheduler(now: 10)
        let log = Locked<[Int]>([])
        for due in [15, 12, 30] {
            scheduler.schedule(after: Time(ticks: due)) { log.append(scheduler.now.ticks) }
        }
        scheduler.advance(to: 20)
        #expect(log.current == [12, 15])
        #expect(scheduler.now == 20)
        scheduler.advance(to: 5)  // never backwards
        #expect(scheduler.now == 20)
        scheduler.run()
        #expect(log.current == [12, 15, 30])
        #expect(scheduler.now == 30)
    }

    @Test func sameInstantIsFIFOIncludingWorkScheduledByActions() {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        scheduler.schedule(after: 5) {
            log.append("a")
            scheduler.schedule { log.append("a.now") }
            scheduler.schedule(after: 5) { log.append("a.5") }
            scheduler.schedule(after: 1) { log.append("a.past") }
            scheduler.schedule(after: 6) { log.append("a.6") }
        }
        scheduler.schedule(after: 5) { log.append("b") }
        scheduler.schedule(after: 6) { log.append("c") }
        scheduler.schedule(after: 5) { log.append("d") }
        scheduler.advance(by: 5)
        #expect(log.current == ["a", "b", "d", "a.now", "a.5", "a.past"])
        scheduler.advance(by: 1)
        #expect(log.current == ["a", "b", "d", "a.now", "a.5", "a.past", "c", "a.6"])
    }

    @Test func pastDatesRunAtTheCurrentInstantInOrder() {
        let scheduler = TestScheduler(now: 100)
        let log = Locked<[Int]>([])
        scheduler.schedule { log.append(1) }
        scheduler.schedule(after: 3) { log.append(2) }
        scheduler.advance()
        #expect(log.current == [1, 2])
        #expect(scheduler.now == 100)
    }

    @Test func repeatingActions() {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        let token = scheduler.schedule(after: 2, interval: 3) { log.append(scheduler.now.ticks) }
        scheduler.advance(by: 1)
        #expect(log.current.isEmpty)
        scheduler.advance(by: 10)
        #expect(log.current == [2, 5, 8, 11])
        #expect(scheduler.pendingActionCount == 1)
        token.cancel()
        #expect(scheduler.pendingActionCount == 0)
        scheduler.advance(by: 10)
        #expect(log.current == [2, 5, 8, 11])
        token.cancel()  // idempotent
    }

    @Test func repeatingActionInterleavesWithOneShotsFIFO() {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let token = scheduler.schedule(after: 1, interval: 2) { log.append("r\(scheduler.now.ticks)") }
        scheduler.schedule(after: 3) { log.append("o3") }
        scheduler.advance(to: 5)
        // At tick 3 the one-shot was queued before the repetition was re-armed, so it runs first.
        #expect(log.current == ["r1", "o3", "r3", "r5"])
        token.cancel()
    }

    @Test func repeatingActionCancelledFromInsideItself() {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        nonisolated(unsafe) var token: (any Cancellable)?
        token = scheduler.schedule(after: 0, interval: 1) {
            log.append(scheduler.now.ticks)
            if scheduler.now == 2 { token?.cancel() }
        }
        scheduler.run()
        #expect(log.current == [0, 1, 2])
        #expect(scheduler.now == 2)
    }

    @Test func cancelAllDropsEverything() {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        scheduler.schedule(after: 1) { log.append(1) }
        let token = scheduler.schedule(after: 1, interval: 1) { log.append(2) }
        scheduler.cancelAllScheduledActions()
        scheduler.advance(by: 5)
        #expect(log.current.isEmpty)
        token.cancel()
    }

    @Test func cancellingDoesNotKeepTheSchedulerAlive() {
        weak var weakScheduler: TestScheduler?
        var token: (any Cancellable)?
        do {
            let scheduler = TestScheduler()
            weakScheduler = scheduler
            token = scheduler.schedule(after: 1, interval: 1) {}
        }
        #expect(weakScheduler == nil)
        token?.cancel()
    }

    @Test func toleranceIsIgnoredAndMinimumIsZero() {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        #expect(scheduler.minimumTolerance == 0)
        scheduler.schedule(after: 4, tolerance: .seconds(10)) { log.append(scheduler.now.ticks) }
        scheduler.advance(by: 4)
        #expect(log.current == [4])
    }

    @Test func asyncAdvanceRunsEverythingBeforeReturning() async {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        for tick in 1...50 {
            scheduler.schedule(after: Time(ticks: tick)) {
                log.append(tick)
                scheduler.schedule { log.append(-tick) }
            }
        }
        await scheduler.advance(by: 25)
        #expect(log.current.count == 50)
        #expect(log.current.prefix(4) == [1, -1, 2, -2])
        await scheduler.advance(to: 30)
        #expect(log.current.count == 60)
        await scheduler.run()
        #expect(log.current.count == 100)
        #expect(scheduler.now == 50)
    }

    @Test func asyncAdvanceRunsActionsOnTheCallingTask() async {
        let scheduler = TestScheduler()
        let caller = withUnsafeCurrentTask { $0 }
        let seen = Locked<[UnsafeCurrentTask?]>([])
        scheduler.schedule(after: 1) { seen.append(withUnsafeCurrentTask { $0 }) }
        scheduler.schedule(after: 2) { seen.append(withUnsafeCurrentTask { $0 }) }
        await scheduler.advance(by: 2)
        #expect(caller != nil)
        #expect(seen.current == [caller, caller])
    }

    @MainActor
    @Test func asyncAdvanceKeepsTheCallersActorIsolation() async {
        let scheduler = TestScheduler()
        nonisolated(unsafe) var isolated: [Bool] = []
        scheduler.schedule(after: 1) {
            // Traps if the action were run off the main actor.
            MainActor.preconditionIsolated()
            isolated.append(true)
        }
        await scheduler.advance(by: 1)
        #expect(isolated == [true])
    }

    @Test(.tags(.concurrency)) func schedulingFromManyThreadsLosesNothing() async {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        scheduler.schedule(after: Time(ticks: index % 7)) { log.append(worker * 1000 + index) }
                    }
                }
            }
        }
        await scheduler.advance(by: 10)
        #expect(log.current.count == 1600)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test(.tags(.concurrency)) func advancingWhileOtherThreadsScheduleAndCancel() async {
        let scheduler = TestScheduler()
        let log = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<500 { await scheduler.advance(by: 1) }
            }
            for worker in 0..<4 {
                group.addTask {
                    for _ in 0..<200 {
                        scheduler.schedule(after: scheduler.now.advanced(by: 2)) { log.append(worker) }
                        let token = scheduler.schedule(after: scheduler.now, interval: 1) { log.append(-1) }
                        token.cancel()
                    }
                }
            }
        }
        await scheduler.run()
        #expect(log.current.filter { $0 >= 0 }.count == 800)
        #expect(scheduler.pendingActionCount == 0)
    }
}

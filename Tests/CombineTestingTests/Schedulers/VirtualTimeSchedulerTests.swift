import Combine
import CombineTesting
import Testing

@Suite("VirtualTimeScheduler")
struct VirtualTimeSchedulerTests {
    @Test func worksOnAForeignTimeType() {
        // Any Strideable time type with a SchedulerTimeIntervalConvertible stride will do; reuse
        // the test time type with a different options type to exercise the generic path.
        let scheduler = VirtualTimeScheduler<TestScheduler.SchedulerTimeType, Int>(
            now: 0, minimumTolerance: .ticks(2)
        )
        #expect(scheduler.minimumTolerance == 2)
        nonisolated(unsafe) var fired: [Int] = []
        scheduler.schedule(options: 1) { fired.append(scheduler.now.ticks) }
        scheduler.schedule(after: .init(ticks: 3), tolerance: 0, options: nil) { fired.append(scheduler.now.ticks) }
        let token = scheduler.schedule(after: .init(ticks: 4), interval: .ticks(4), tolerance: 0, options: nil) {
            fired.append(-scheduler.now.ticks)
        }
        scheduler.advance(by: .ticks(12))
        #expect(fired == [0, 3, -4, -8, -12])
        token.cancel()
        #expect(scheduler.pendingActionCount == 0)
    }
}

import Combine
import Tributary

extension AnyScheduler where SchedulerTimeType == TestScheduler.SchedulerTimeType, SchedulerOptions == Never {
    /// An immediate scheduler on ``TestScheduler``'s time type whose `now` is always tick 0.
    ///
    /// Runs every action on the spot, as described in `AnyScheduler.immediate(now:)`; use it where
    /// code under test takes an `AnyScheduler` on test time but the test only cares about the work
    /// happening synchronously.
    public static var immediate: Self {
        .immediate(now: { TestScheduler.SchedulerTimeType(ticks: 0) })
    }
}

import Combine

#if canImport(Dispatch)
import Dispatch

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// An immediate scheduler with `DispatchQueue`'s types: runs every action on the spot and reports
    /// `DispatchTime.now()` as its time, for tests of code that takes a dispatch-based `AnyScheduler`
    /// but where timing does not matter. Behaves as described in ``AnyScheduler/immediate(now:)``.
    public static var immediate: Self {
        .immediate(now: { DispatchQueue.SchedulerTimeType(.now()) })
    }
}
#endif

#if canImport(Foundation)
import Foundation

extension AnyScheduler where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
    /// An immediate scheduler with `RunLoop`'s types: runs every action on the spot and reports the
    /// current `Date` as its time. Behaves as described in ``AnyScheduler/immediate(now:)``.
    public static var immediate: Self {
        .immediate(now: { RunLoop.SchedulerTimeType(Date()) })
    }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
    /// An immediate scheduler with `OperationQueue`'s types: runs every action on the spot and
    /// reports the current `Date` as its time. Behaves as described in ``AnyScheduler/immediate(now:)``.
    public static var immediate: Self {
        .immediate(now: { OperationQueue.SchedulerTimeType(Date()) })
    }
}
#endif

extension AnyScheduler
where SchedulerTimeType == ImmediateScheduler.SchedulerTimeType, SchedulerOptions == ImmediateScheduler.SchedulerOptions {
    /// Combine's `ImmediateScheduler`, erased, for code that takes an `AnyScheduler` on its time type.
    public static var immediate: Self {
        ImmediateScheduler.shared.eraseToAnyScheduler()
    }
}

import Combine

#if canImport(Dispatch)
import Dispatch

extension VirtualTimeScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// A virtual-time stand-in for a `DispatchQueue`, starting at an arbitrary fixed instant
    /// (one nanosecond of uptime), for code that takes an
    /// `AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>`.
    public static func dispatchQueue() -> VirtualTimeScheduler {
        VirtualTimeScheduler(now: .init(.init(uptimeNanoseconds: 1)))
    }
}
#endif

#if canImport(Foundation)
import Foundation

extension VirtualTimeScheduler where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
    /// A virtual-time stand-in for a `RunLoop`, starting at the reference date, for code that takes
    /// an `AnyScheduler<RunLoop.SchedulerTimeType, RunLoop.SchedulerOptions>`.
    public static func runLoop() -> VirtualTimeScheduler {
        VirtualTimeScheduler(now: .init(Date(timeIntervalSinceReferenceDate: 0)))
    }
}

extension VirtualTimeScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
    /// A virtual-time stand-in for an `OperationQueue`, starting at the reference date.
    public static func operationQueue() -> VirtualTimeScheduler {
        VirtualTimeScheduler(now: .init(Date(timeIntervalSinceReferenceDate: 0)))
    }
}
#endif

import Combine
import Foundation

/// A virtual-time scheduler that borrows another scheduler's time and option types.
///
/// ``TestScheduler`` has its own tick-based time type, which is what marble tests want. Code
/// that takes a concrete scheduler type, or an
/// `AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>`, needs a test
/// double with *that* time type instead; this generic scheduler is that double:
///
/// ```swift
/// let scheduler = VirtualTimeScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
///     now: .init(.init(uptimeNanoseconds: 1))
/// )
/// let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
/// scheduler.advance(by: .milliseconds(300))
/// ```
///
/// It behaves exactly like ``TestScheduler`` (ordering, threads, cancellation, the deterministic
/// `async` variants): see that type for the rules. Options passed to `schedule` are ignored.
public final class VirtualTimeScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler,
    @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    let queue: VirtualTimeQueue<SchedulerTimeType>
    private let tolerance: SchedulerTimeType.Stride

    /// Creates a scheduler whose virtual clock starts at `now`.
    /// - Parameters:
    ///   - now: the instant the virtual clock starts at.
    ///   - minimumTolerance: what ``minimumTolerance`` reports (zero by default); it has no
    ///     effect on when actions run.
    public init(now: SchedulerTimeType, minimumTolerance: SchedulerTimeType.Stride = .zero) {
        queue = VirtualTimeQueue(now: now)
        tolerance = minimumTolerance
    }

    /// The current virtual time; it changes only when the clock is advanced.
    public var now: SchedulerTimeType { queue.now }

    /// The tolerance given at creation; virtual time is exact whatever it says.
    public var minimumTolerance: SchedulerTimeType.Stride { tolerance }

    /// Enqueues `action` for the current instant; it runs on the next advance of the clock.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        queue.enqueue(due: nil, interval: nil, action)
    }

    /// Enqueues `action` for `date` (or the current instant, if `date` has passed).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        queue.enqueue(due: date, interval: nil, action)
    }

    /// Enqueues `action` for `date` and then every `interval`, until cancelled.
    /// - Precondition: `interval` is positive.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        queue.enqueueRepeating(due: date, interval: interval, caller: "VirtualTimeScheduler.schedule(after:interval:…)", action)
    }

    /// The number of actions waiting to run (a repeating action counts once).
    public var pendingActionCount: Int { queue.pendingCount }

    /// When the next waiting action is due, or `nil` when nothing is scheduled.
    public var nextActionDate: SchedulerTimeType? { queue.nextDue }

    /// Drops every waiting action, one-shot and repeating, without running it.
    public func cancelAllScheduledActions() {
        queue.cancelAll()
    }

    /// Moves the clock forward by `stride`, running every action due up to the new instant.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        queue.run(until: queue.now.advanced(by: stride), caller: "VirtualTimeScheduler.advance(by:)")
    }

    /// Moves the clock to `instant` (never backwards), running every action due up to it.
    public func advance(to instant: SchedulerTimeType) {
        queue.run(until: instant, caller: "VirtualTimeScheduler.advance(to:)")
    }

    /// Runs every scheduled action until nothing is left; traps after a million actions.
    public func run() {
        queue.run(until: nil, caller: "VirtualTimeScheduler.run()")
    }

    /// The `async` form of ``advance(by:)``: never suspends; actions run synchronously on the
    /// calling task, isolated to the caller's actor, exactly as ``TestScheduler/advance(by:isolation:)``.
    public func advance(
        by stride: SchedulerTimeType.Stride = .zero,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        queue.run(until: queue.now.advanced(by: stride), caller: "VirtualTimeScheduler.advance(by:)")
    }

    /// The `async` form of ``advance(to:)``, deterministic like ``advance(by:isolation:)``.
    public func advance(
        to instant: SchedulerTimeType,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        queue.run(until: instant, caller: "VirtualTimeScheduler.advance(to:)")
    }

    /// The `async` form of ``run()``, deterministic like ``advance(by:isolation:)``.
    public func run(isolation: isolated (any Actor)? = #isolation) async {
        queue.run(until: nil, caller: "VirtualTimeScheduler.run()")
    }
}

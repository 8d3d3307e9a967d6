import Combine

/// A scheduler with its concrete type hidden behind its time and option types.
///
/// Combine's `Scheduler` protocol has associated types, so code that stores a scheduler has to be
/// generic over it or pick one concrete type. Picking `DispatchQueue` makes the code untestable
/// without real waiting; making every model generic is noisy. `AnyScheduler` is the middle road:
/// production code stores an
/// `AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>`, the app passes
/// `DispatchQueue.main.eraseToAnyScheduler()`, and a test passes a virtual-time scheduler with
/// the same time type, erased the same way.
///
/// ```swift
/// final class SearchModel {
///     let scheduler: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
///     init(scheduler: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>) {
///         self.scheduler = scheduler
///     }
/// }
/// ```
///
/// Every requirement is forwarded unchanged to the wrapped scheduler: `now` and
/// `minimumTolerance` are read from it on each access, and each `schedule` variant calls the
/// same variant on it with the same arguments.
///
/// It is `Sendable` because schedulers are shared across threads by design: Combine's operators
/// call into them from whatever thread an event arrives on. Wrap only schedulers that are safe to
/// use that way (every scheduler Combine provides is).
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private let nowBody: () -> SchedulerTimeType
    private let minimumToleranceBody: () -> SchedulerTimeType.Stride
    private let scheduleBody: (SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleAfterBody:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleRepeatingBody:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping () -> Void) -> any Cancellable

    /// Wraps `scheduler`, forwarding every requirement to it.
    public init<S: Scheduler>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        nowBody = { scheduler.now }
        minimumToleranceBody = { scheduler.minimumTolerance }
        scheduleBody = { options, action in scheduler.schedule(options: options, action) }
        scheduleAfterBody = { date, tolerance, options, action in
            scheduler.schedule(after: date, tolerance: tolerance, options: options, action)
        }
        scheduleRepeatingBody = { date, interval, tolerance, options, action in
            scheduler.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        }
    }

    /// Builds a scheduler from closures, for behaviour no existing scheduler has (see
    /// ``immediate(now:)`` for an example). Each closure receives exactly what the matching
    /// `Scheduler` requirement receives.
    public init(
        now: @escaping () -> SchedulerTimeType,
        minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
        scheduleImmediately: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
        scheduleAfter: @escaping (
            SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void
        ) -> Void,
        scheduleRepeating: @escaping (
            SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping () -> Void
        ) -> any Cancellable
    ) {
        nowBody = now
        minimumToleranceBody = minimumTolerance
        scheduleBody = scheduleImmediately
        scheduleAfterBody = scheduleAfter
        scheduleRepeatingBody = scheduleRepeating
    }

    /// The wrapped scheduler's current time, read on every access.
    public var now: SchedulerTimeType { nowBody() }

    /// The wrapped scheduler's minimum tolerance, read on every access.
    public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

    /// Forwards to the wrapped scheduler's `schedule(options:_:)`.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduleBody(options, action)
    }

    /// Forwards to the wrapped scheduler's `schedule(after:tolerance:options:_:)`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduleAfterBody(date, tolerance, options, action)
    }

    /// Forwards to the wrapped scheduler's `schedule(after:interval:tolerance:options:_:)` and
    /// returns its `Cancellable`.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        scheduleRepeatingBody(date, interval, tolerance, options, action)
    }
}

extension Scheduler {
    /// Hides the scheduler's concrete type, so code can store "some scheduler with this time type"
    /// without being generic over it.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

extension AnyScheduler {
    /// A scheduler that runs every action on the spot, on the calling thread, whatever date it is
    /// given, while reporting the time that `now` returns.
    ///
    /// Use it in tests of code that takes an `AnyScheduler` when the test does not care about
    /// time, only about the work being done synchronously:
    /// `AnyScheduler.immediate(now: { .init(.now()) })`. For the common time types there are
    /// ready-made `immediate` properties. It behaves like Combine's `ImmediateScheduler`:
    /// - `schedule(options:_:)` and `schedule(after:…)` run the action before returning;
    /// - `schedule(after:interval:…)` runs the action **once**, before returning, and returns a
    ///   `Cancellable` that does nothing (an immediate scheduler cannot wait for the repetitions);
    /// - `minimumTolerance` is zero; options are ignored.
    public static func immediate(now: @escaping () -> SchedulerTimeType) -> Self {
        AnyScheduler(
            now: now,
            minimumTolerance: { .zero },
            scheduleImmediately: { _, action in action() },
            scheduleAfter: { _, _, _, action in action() },
            scheduleRepeating: { _, _, _, _, action in
                action()
                return ImmediateCancellable()
            }
        )
    }
}

/// The do-nothing `Cancellable` that ``AnyScheduler/immediate(now:)`` returns for repeating work.
private struct ImmediateCancellable: Cancellable {
    func cancel() {}
}

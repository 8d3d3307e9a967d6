/// A type that runs work now or at a later time: a queue, a run loop, or a virtual clock.
///
/// Time-based operators (`debounce`, `delay`, `receive(on:)`…) take a scheduler so that the same
/// pipeline can run on a `DispatchQueue`, a `RunLoop`, or a test scheduler with virtual time.
public protocol Scheduler<SchedulerTimeType> {
    /// The scheduler's notion of a point in time. Its `Stride` is the distance between two points.
    associatedtype SchedulerTimeType: Strideable where Self.SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// Scheduler-specific options for each scheduled action (`Never` when there are none).
    associatedtype SchedulerOptions

    /// The scheduler's current time.
    var now: Self.SchedulerTimeType { get }

    /// The smallest tolerance the scheduler allows for timed actions.
    var minimumTolerance: Self.SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as possible.
    func schedule(options: Self.SchedulerOptions?, _ action: @escaping () -> Void)

    /// Runs `action` once, no earlier than `date`.
    func schedule(
        after date: Self.SchedulerTimeType,
        tolerance: Self.SchedulerTimeType.Stride,
        options: Self.SchedulerOptions?,
        _ action: @escaping () -> Void
    )

    /// Runs `action` at `date`, then every `interval`, until the returned value is cancelled.
    func schedule(
        after date: Self.SchedulerTimeType,
        interval: Self.SchedulerTimeType.Stride,
        tolerance: Self.SchedulerTimeType.Stride,
        options: Self.SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable
}

extension Scheduler {
    /// Runs `action` once, no earlier than `date`, with the scheduler's minimum tolerance.
    @inlinable
    public func schedule(after date: Self.SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, action)
    }

    /// Runs `action` as soon as possible, with no options.
    @inlinable
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once, no earlier than `date`, with no options.
    @inlinable
    public func schedule(
        after date: Self.SchedulerTimeType,
        tolerance: Self.SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` at `date`, then every `interval`, with no options, until cancelled.
    @inlinable
    public func schedule(
        after date: Self.SchedulerTimeType,
        interval: Self.SchedulerTimeType.Stride,
        tolerance: Self.SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` at `date`, then every `interval`, with the minimum tolerance, until cancelled.
    @inlinable
    public func schedule(
        after date: Self.SchedulerTimeType,
        interval: Self.SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, action)
    }
}

/// A stride type that can be made from common units of time, so operators read
/// `debounce(for: .milliseconds(300), scheduler: …)` whatever the scheduler.
public protocol SchedulerTimeIntervalConvertible {
    /// A stride of `s` seconds.
    static func seconds(_ s: Int) -> Self
    /// A stride of `s` seconds, fractional.
    static func seconds(_ s: Double) -> Self
    /// A stride of `ms` milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// A stride of `us` microseconds.
    static func microseconds(_ us: Int) -> Self
    /// A stride of `ns` nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}

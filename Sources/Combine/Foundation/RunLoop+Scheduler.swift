import TributaryLocks

#if canImport(Foundation)
import Foundation

// `RunLoop` and `Timer` take `@Sendable` blocks on Linux; the scheduler's closure is run on the run
// loop's own thread, which is what the caller asked for, so it is moved across unchanged.
private struct RunLoopSchedulerAction: @unchecked Sendable {
    let run: () -> Void
}

/// A `Cancellable` that invalidates a repeating run-loop timer and drops its action, so whatever
/// the action captured is released even if Foundation keeps the timer object around.
private final class RunLoopTimerCancellable: Cancellable, @unchecked Sendable {
    private let timer: Timer
    private let action: LockedState<(() -> Void)?>
    init(_ timer: Timer, action: LockedState<(() -> Void)?>) {
        self.timer = timer
        self.action = action
    }
    func cancel() {
        timer.invalidate()
        action.withLock { $0 = nil }
    }
}

/// `RunLoop` as a Combine scheduler.
///
/// Work runs on the thread that drives the run loop, in the `.default` mode, the next time that
/// thread runs it (`RunLoop.main.run()`, `run(until:)`, or a UI event loop). A run loop nobody runs
/// never executes anything: schedule onto `RunLoop.main` only if the main thread runs it, or onto
/// the run loop of a `Thread` you started and keep running. Do not use `RunLoop.current` from code
/// running on a dispatch queue: those threads come and go and do not run their run loops.
///
/// Immediate work is queued with `perform(_:)` (first in, first out, so `receive(on:)` keeps the
/// order of values) and the run loop is then woken by a no-op timer that is already due: a
/// performed block alone would wait for some unrelated event. Timed work uses `Timer`s.
extension RunLoop: Scheduler {
    /// Options for run-loop scheduling; there are none, the type only fills the protocol's slot.
    public struct SchedulerOptions: Sendable {}

    /// A point in time for a run loop: a wall-clock `Date`, as run-loop timers use.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable, DateSchedulerTime {
        /// The date this value stands for.
        public var date: Date

        /// Wraps `date`, e.g. `.init(Date(timeIntervalSinceNow: 3))`.
        public init(_ date: Date) {
            self.date = date
        }

        /// A distance between two run-loop times, in seconds (`TimeInterval`).
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable, Hashable,
            SchedulerTimeIntervalConvertible, Sendable, DateSchedulerStride
        {
            /// Floating-point literals are seconds.
            public typealias FloatLiteralType = TimeInterval
            /// Integer literals are seconds too, kept as a `TimeInterval`.
            public typealias IntegerLiteralType = TimeInterval
            /// The magnitude is a number of seconds.
            public typealias Magnitude = TimeInterval

            /// The length of this stride in seconds.
            public var magnitude: TimeInterval

            /// The length of this stride in seconds; the same value as `magnitude`.
            public var timeInterval: TimeInterval {
                magnitude
            }

            /// A stride of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }
        }
    }

    /// The current wall-clock time.
    public var now: SchedulerTimeType {
        SchedulerTimeType(Date())
    }

    /// Run-loop timers may always fire exactly on time, so no tolerance is required.
    public var minimumTolerance: SchedulerTimeType.Stride {
        0.0
    }

    /// Runs `action` on this run loop's thread the next time the loop runs in the default mode.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = RunLoopSchedulerAction(run: action)
        perform { work.run() }
        // Wake the loop so it notices the block even if it is asleep waiting for input.
        add(Timer(fire: .distantPast, interval: 0, repeats: false) { _ in }, forMode: .default)
    }

    /// Runs `action` on this run loop's thread at `date`, within `tolerance`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        addOneShotTimer(fireDate: date.date, tolerance: tolerance.timeInterval, action)
    }

    /// Runs `action` at `date` and then every `interval` with a repeating `Timer`; cancelling the
    /// returned value invalidates the timer, so the action stops for good.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = LockedState<(() -> Void)?>(action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in
            work.withLock { $0 }?()
        }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        return AnyCancellable(RunLoopTimerCancellable(timer, action: work))
    }

    private func addOneShotTimer(fireDate: Date, tolerance: TimeInterval, _ action: @escaping () -> Void) {
        let work = RunLoopSchedulerAction(run: action)
        let timer = Timer(fire: fireDate, interval: 0, repeats: false) { _ in work.run() }
        timer.tolerance = tolerance
        add(timer, forMode: .default)
    }
}
#endif

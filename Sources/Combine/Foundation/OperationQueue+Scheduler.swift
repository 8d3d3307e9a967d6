#if canImport(Foundation)
import Foundation
import TributaryLocks

// `OperationQueue` takes `@Sendable` blocks on Linux; the scheduler's closure is handed over as-is,
// since running it on the queue is exactly what the caller asked for.
private struct OperationQueueSchedulerAction: @unchecked Sendable {
    let run: () -> Void
}

/// `OperationQueue` as a Combine scheduler.
///
/// Each action becomes one operation added to the queue. As with Apple's Combine, the queue's
/// concurrency is respected, not corrected: with the default `maxConcurrentOperationCount`
/// operations run in parallel, so `receive(on: queue)` may deliver values **out of order and
/// concurrently**. Set `maxConcurrentOperationCount = 1` to get serial, in-order delivery.
///
/// A delayed or repeating action is one operation, added to the queue at once, as on Apple's
/// platforms: once started, it waits for the date, then runs the action (again at each interval
/// for the repeating form).
extension OperationQueue: Scheduler {
    /// Options for operation-queue scheduling; there are none.
    public struct SchedulerOptions: Sendable {}

    /// A point in time for an operation queue: a wall-clock `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable, DateSchedulerTime {
        /// The date this value stands for.
        public var date: Date

        /// Wraps `date`, e.g. `.init(Date(timeIntervalSinceNow: 3))`.
        public init(_ date: Date) {
            self.date = date
        }

        /// A distance between two operation-queue times, in seconds (`TimeInterval`).
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

    /// Operations may start exactly on time, so no tolerance is required.
    public var minimumTolerance: SchedulerTimeType.Stride {
        0.0
    }

    /// Adds `action` to the queue as one `BlockOperation`, through `addOperation(_:)`, as Apple
    /// does (the block form counts as a second addition in some Foundations).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = OperationQueueSchedulerAction(run: action)
        addOperation(BlockOperation { work.run() })
    }

    /// Adds `action` to the queue, at once, as one operation that becomes ready at `date` and
    /// then runs it, as Apple's scheduler does. Until then the operation takes no place among the
    /// queue's running operations.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let operation = OperationQueueTimedOperation(date: date.date, interval: nil, action: action)
        addOperation(operation)
        operation.armReadiness()
    }

    /// Adds one operation, at once, that becomes ready at `date` and then runs `action` every
    /// `interval` until the returned value is cancelled, as Apple's scheduler does: the operation
    /// keeps running between the repeats, so on a queue that runs one operation at a time nothing
    /// else runs until it is cancelled. A negative `interval` counts as none.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let operation = OperationQueueTimedOperation(
            date: date.date, interval: max(interval.timeInterval, 0), action: action)
        addOperation(operation)
        operation.armReadiness()
        return AnyCancellable { operation.cancel() }
    }
}

/// The operation the delayed and repeating `schedule` methods of `OperationQueue` add, shaped as
/// Apple's: a plain `Operation` (not a `BlockOperation`, not `Cancellable`) that is not ready
/// until its date, so the queue starts it only then. Its `main()` waits until the date (it is
/// already there when the queue starts it; a caller that runs it early waits), runs the action,
/// and for the repeating form goes on waiting and running it every interval until cancelled.
/// Running it a second time does nothing. A cancel wakes a waiting `main()` and releases the
/// action.
///
/// `@unchecked Sendable`: `Operation` is a class shared with the queue's threads; every mutable
/// field of this subclass is inside `state`, under its lock.
final class OperationQueueTimedOperation: Operation, @unchecked Sendable {
    struct State {
        /// Released when the operation is done or cancelled.
        var action: (() -> Void)?
        var ready = false
        var started = false
        var cancelled = false
    }

    private let state: LockedState<State>
    private let wakeUp = LockCondition()
    private let date: Date
    /// `nil` for the one-shot form.
    private let interval: TimeInterval?

    init(date: Date, interval: TimeInterval?, action: @escaping () -> Void) {
        self.date = date
        self.interval = interval
        state = LockedState(State(action: action))
    }

    /// Ready once its date has come, or once cancelled (so that the queue lets go of it).
    override var isReady: Bool {
        state.withLock { $0.ready } || isCancelled
    }

    /// Starts the wait for readiness; after the operation has been added, so that the queue
    /// finds it not ready.
    func armReadiness() {
        let delay = max(0, date.timeIntervalSinceNow)
        let weakOperation = WeakOperation(self)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            weakOperation.operation?.becomeReady()
        }
    }

    private func becomeReady() {
        willChangeValue(forKey: "isReady")
        state.withLock { $0.ready = true }
        didChangeValue(forKey: "isReady")
    }

    override func main() {
        guard let action = state.withLock({ state -> (() -> Void)? in
            guard !state.started else { return nil }
            state.started = true
            return state.action
        }) else { return }
        var due = date
        while waitUntil(due) {
            action()
            guard let interval else { break }
            // A repeat that fell behind runs at once rather than catching up in a burst; a
            // zero interval still leaves the thread a microsecond between runs.
            due = max(due.addingTimeInterval(max(interval, 0.000_001)), Date())
        }
        state.withLock { $0.action = nil }
    }

    /// Sleeps until `due` or a cancel; `false` when cancelled.
    private func waitUntil(_ due: Date) -> Bool {
        while true {
            let outcome = state.wait(
                on: wakeUp, until: { $0.cancelled || Date() >= due },
                orUntilWallClock: due.timeIntervalSince1970
            ) { state -> Bool? in
                if state.cancelled { return false }
                // Woken before the date (the wall clock moved): wait again.
                return Date() >= due ? true : nil
            }
            if let outcome { return outcome }
        }
    }

    override func cancel() {
        let released = state.withLock { state -> (() -> Void)? in
            state.cancelled = true
            wakeUp.broadcast()
            guard !state.started else { return nil }
            defer { state.action = nil }
            return state.action
        }
        super.cancel()
        withExtendedLifetime(released) {}
    }
}

/// A weak reference to the operation for the readiness timer, which may outlive it.
private struct WeakOperation: @unchecked Sendable {
    weak var operation: OperationQueueTimedOperation?
    init(_ operation: OperationQueueTimedOperation) { self.operation = operation }
}
#endif

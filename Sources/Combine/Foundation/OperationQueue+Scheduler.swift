#if canImport(Foundation)
import Foundation

// `OperationQueue` takes `@Sendable` blocks on Linux; the scheduler's closure is handed over as-is,
// since running it on the queue is exactly what the caller asked for.
private struct OperationQueueSchedulerAction: @unchecked Sendable {
    let run: () -> Void
}

private struct OperationQueueReference: @unchecked Sendable {
    let queue: OperationQueue
}

/// `OperationQueue` as a Combine scheduler.
///
/// Each action becomes one operation added to the queue. As with Apple's Combine, the queue's
/// concurrency is respected, not corrected: with the default `maxConcurrentOperationCount`
/// operations run in parallel, so `receive(on: queue)` may deliver values **out of order and
/// concurrently**. Set `maxConcurrentOperationCount = 1` to get serial, in-order delivery.
///
/// Delayed and repeating actions are timed by Dispatch and enqueued as operations when due.
extension OperationQueue: Scheduler {
    /// Options for operation-queue scheduling; there are none.
    public struct SchedulerOptions: Sendable {}

    /// A point in time for an operation queue: a wall-clock `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date this value stands for.
        public var date: Date

        /// Wraps `date`, e.g. `.init(Date(timeIntervalSinceNow: 3))`.
        public init(_ date: Date) {
            self.date = date
        }

        /// The time `n` seconds later (earlier for a negative stride).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        /// The signed distance in seconds from this time to `other`.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        /// A distance between two operation-queue times, in seconds (`TimeInterval`).
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable, Hashable,
            SchedulerTimeIntervalConvertible, Sendable
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

            /// A stride from an integer literal, in seconds.
            public init(integerLiteral value: TimeInterval) {
                magnitude = value
            }

            /// A stride from a floating-point literal, in seconds.
            public init(floatLiteral value: TimeInterval) {
                magnitude = value
            }

            /// A stride of `source` seconds, or `nil` if it cannot be represented exactly.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = TimeInterval(exactly: source) else { return nil }
                magnitude = value
            }

            /// Orders by position on the time line (or by length, for strides).
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

            /// A stride of `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
            /// A stride of `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            /// A stride of `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
            /// A stride of `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
            /// A stride of `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
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

    /// Adds `action` to the queue as an operation once `date` has come.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = OperationQueueSchedulerAction(run: action)
        let queue = OperationQueueReference(queue: self)
        DispatchQueue.global().asyncAfter(
            deadline: .now() + max(0, date.date.timeIntervalSinceNow)
        ) {
            queue.queue.addOperation { work.run() }
        }
    }

    /// Adds `action` as an operation at `date` and then every `interval`, until the returned value
    /// is cancelled; after that no further operation is added.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = OperationQueueSchedulerAction(run: action)
        let queue = OperationQueueReference(queue: self)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {
            queue.queue.addOperation { work.run() }
        }
        timer.schedule(
            deadline: .now() + max(0, date.date.timeIntervalSinceNow),
            repeating: max(interval.timeInterval, 0.000_001),
            leeway: .nanoseconds(Int(max(0, tolerance.timeInterval) * 1_000_000_000)))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
#endif

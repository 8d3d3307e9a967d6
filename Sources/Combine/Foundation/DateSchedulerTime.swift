#if canImport(Foundation)
import Foundation

// `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` are distinct types in Apple's
// API, each with its own `Stride`, but they behave identically: a `Date`, and a distance in
// seconds. The public types declare what Apple's declare beyond the protocols they conform to
// (their stored value, `init(_:)`, `timeInterval`, the literal types); the two protocols below
// supply the rest once for both.

/// A scheduler time that is a wall-clock `Date`.
protocol DateSchedulerTime: Strideable where Stride: DateSchedulerStride {
    /// The date this time stands for.
    var date: Date { get }

    init(_ date: Date)
}

extension DateSchedulerTime {
    /// The time `n` seconds later (earlier for a negative stride).
    public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.magnitude))
    }

    /// The signed distance in seconds from this time to `other`.
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSince(date))
    }
}

/// A distance between two `Date`-based scheduler times, a number of seconds.
protocol DateSchedulerStride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, SchedulerTimeIntervalConvertible
where FloatLiteralType == TimeInterval, IntegerLiteralType == TimeInterval, Magnitude == TimeInterval {
    /// The length of the stride in seconds.
    var magnitude: TimeInterval { get set }

    init(_ timeInterval: TimeInterval)
}

extension DateSchedulerStride {
    /// A stride from an integer literal, in seconds.
    public init(integerLiteral value: TimeInterval) {
        self.init(value)
    }

    /// A stride from a floating-point literal, in seconds.
    public init(floatLiteral value: TimeInterval) {
        self.init(value)
    }

    /// A stride of `source` seconds, or `nil` if it cannot be represented exactly.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        self.init(value)
    }

    /// Orders by length.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }

    /// Arithmetic on the number of seconds, as `SignedNumeric` requires.
    public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }

    /// Arithmetic on the number of seconds, as `SignedNumeric` requires.
    public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }

    /// Arithmetic on the number of seconds, as `SignedNumeric` requires.
    public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }

    /// Arithmetic on the number of seconds, as `SignedNumeric` requires.
    public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }

    /// Arithmetic on the number of seconds, as `SignedNumeric` requires.
    public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

    /// Arithmetic on the number of seconds, as `SignedNumeric` requires.
    public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }

    /// A stride of `s` seconds.
    public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
    /// A stride of `s` seconds.
    public static func seconds(_ s: Double) -> Self { Self(s) }
    /// A stride of `ms` milliseconds.
    public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }
    /// A stride of `us` microseconds.
    public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }
    /// A stride of `ns` nanoseconds.
    public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }
}
#endif

/// A scheduler that runs every action on the spot, on the calling thread.
///
/// It is what a pipeline does when no scheduler is involved, packaged as a `Scheduler` so that an
/// API which insists on one (`receive(on:)`, `debounce`…) can be told "don't hop anywhere". Time
/// does not pass for it: every "later" action runs now, which makes it handy in synchronous tests
/// but meaningless for real delays.
public struct ImmediateScheduler: Scheduler {
    /// The immediate scheduler's notion of time. Every instant is the same instant; the type only
    /// exists so that code generic over `Scheduler` type-checks.
    public struct SchedulerTimeType: Strideable {
        /// A distance between two (equal) immediate-scheduler times; kept as a plain count so that
        /// the usual literals and unit constructors compile.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible
        {
            /// Integer literals count abstract units.
            public typealias IntegerLiteralType = Int
            /// Floating-point literals are truncated to whole units.
            public typealias FloatLiteralType = Double
            /// The magnitude is the unit count itself.
            public typealias Magnitude = Int

            /// The number of units this stride spans.
            public var magnitude: Int

            /// A stride of `value` units.
            public init(_ value: Int) { magnitude = value }

            /// A stride from an integer literal.
            public init(integerLiteral value: Int) { self.init(value) }

            /// A stride from a floating-point literal, truncated toward zero.
            public init(floatLiteral value: Double) { self.init(Int(value)) }

            /// A stride from any integer, or `nil` when it does not fit in an `Int`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self.init(value)
            }

            /// Orders by position on the time line (or by length, for strides).
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires; an overflow traps
            /// naming the type and the operation.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                let (product, overflow) = lhs.magnitude.multipliedReportingOverflow(by: rhs.magnitude)
                if overflow { APIViolation.strideOverflow(typeName, "*", lhs.magnitude, rhs.magnitude) }
                return Stride(product)
            }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires; an overflow traps
            /// naming the type and the operation.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
                if overflow { APIViolation.strideOverflow(typeName, "+", lhs.magnitude, rhs.magnitude) }
                return Stride(sum)
            }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires; an overflow traps
            /// naming the type and the operation.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
                if overflow { APIViolation.strideOverflow(typeName, "-", lhs.magnitude, rhs.magnitude) }
                return Stride(difference)
            }

            /// The name the overflow traps give.
            private static var typeName: String { "ImmediateScheduler.SchedulerTimeType.Stride" }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// Arithmetic on the underlying count, as `SignedNumeric` requires.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

            // Time is meaningless here, so the unit constructors keep the count as given rather
            // than pretending to convert between units.

            /// A stride of `s` units.
            public static func seconds(_ s: Int) -> Stride { Stride(s) }
            /// A stride of `s` units, truncated.
            public static func seconds(_ s: Double) -> Stride { Stride(Int(s)) }
            /// A stride of `ms` units.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(ms) }
            /// A stride of `us` units.
            public static func microseconds(_ us: Int) -> Stride { Stride(us) }
            /// A stride of `ns` units.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(ns) }
        }

        /// Advancing an immediate time changes nothing: there is only "now".
        public func advanced(by n: Stride) -> SchedulerTimeType { self }

        /// Every immediate time is the same time, so the distance is always zero.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }
    }

    /// The immediate scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The one immediate scheduler; it has no state, so one value serves everybody.
    ///
    /// Computed rather than stored (Apple's is a stored `let`; reading it is the same in source):
    /// there is nothing to store, and a computed constant costs the caller no call into this
    /// module for a global's address.
    @inlinable
    public static var shared: ImmediateScheduler { ImmediateScheduler() }

    /// Makes the stateless scheduler; use ``shared``.
    @usableFromInline
    init() {}

    /// "Now" for a scheduler on which no time ever passes.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// Tolerance is irrelevant when everything runs at once.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` right away on the calling thread.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` right away; the date is ignored.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs `action` once, right away, and returns a cancellable with nothing left to stop: a
    /// scheduler on which time never advances cannot repeat anything.
    @discardableResult
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        // Apple hands back the empty subscription (described "Empty"): there is nothing to cancel.
        return Subscriptions.empty
    }
}

extension ImmediateScheduler: Sendable {}
extension ImmediateScheduler.SchedulerTimeType: Sendable {}
extension ImmediateScheduler.SchedulerTimeType.Stride: Hashable, Sendable {}

import Combine

extension TestScheduler {
    /// A point on a ``TestScheduler``'s virtual clock, counted in whole ticks.
    ///
    /// A tick is the smallest step the virtual clock can take, and it is defined to be exactly one
    /// nanosecond, so the same clock serves two kinds of test:
    /// - marble tests, which think in ticks (`"-a--b-"` is one character per tick), write
    ///   `.ticks(2)` or the integer literal `2` wherever a stride is expected;
    /// - tests of production code written with real units (`.milliseconds(300)`) keep those units,
    ///   and the marble helpers accept a frame duration (for example one character per 100 ms).
    ///
    /// Integer literals stand for ticks: `scheduler.advance(to: 5)` moves the clock to tick 5.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable, Codable, ExpressibleByIntegerLiteral,
        CustomStringConvertible
    {
        /// The number of ticks (nanoseconds) since the virtual clock's origin.
        public var ticks: Int

        /// Makes the instant `ticks` ticks after the virtual clock's origin.
        public init(ticks: Int) {
            self.ticks = ticks
        }

        /// Lets tests write instants as plain tick numbers: `scheduler.advance(to: 5)`.
        public init(integerLiteral value: Int) {
            self.ticks = value
        }

        /// The signed number of ticks from `self` to `other`.
        public func distance(to other: Self) -> Stride {
            Stride(ticks: other.ticks - ticks)
        }

        /// The instant `n` after `self`.
        public func advanced(by n: Stride) -> Self {
            Self(ticks: ticks + n.ticks)
        }

        /// Written as the tick number, e.g. `t=5`, so failure messages stay short.
        public var description: String { "t=\(ticks)" }

        /// A distance on the virtual clock, in ticks (one tick is one nanosecond).
        ///
        /// The unit constructors of `SchedulerTimeIntervalConvertible` convert to ticks
        /// (`.milliseconds(2)` is 2 000 000 ticks) and saturate instead of overflowing;
        /// ``ticks(_:)`` and integer literals count ticks directly.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Sendable,
            Codable, ExpressibleByIntegerLiteral, CustomStringConvertible
        {
            /// The length of the stride in ticks (nanoseconds); negative strides point backwards.
            public var ticks: Int

            /// Makes a stride of `ticks` ticks.
            public init(ticks: Int) {
                self.ticks = ticks
            }

            /// Lets tests write strides as plain tick counts: `advance(by: 3)`, `debounce(for: 2, …)`.
            public init(integerLiteral value: Int) {
                self.ticks = value
            }

            /// Required by `Numeric`; succeeds when `source` fits in an `Int` number of ticks.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let ticks = Int(exactly: source) else { return nil }
                self.ticks = ticks
            }

            /// A stride of `n` ticks: the natural unit of marble diagrams.
            public static func ticks(_ n: Int) -> Self { Self(ticks: n) }

            /// `s` seconds, that is `s × 10⁹` ticks (saturating).
            public static func seconds(_ s: Int) -> Self { Self(ticks: saturatingMultiply(s, 1_000_000_000)) }

            /// `s` seconds rounded to the nearest tick (saturating; NaN is zero).
            public static func seconds(_ s: Double) -> Self {
                let nanoseconds = (s * 1_000_000_000).rounded()
                if nanoseconds.isNaN { return Self(ticks: 0) }
                if nanoseconds >= Double(Int.max) { return Self(ticks: .max) }
                if nanoseconds <= Double(Int.min) { return Self(ticks: .min) }
                return Self(ticks: Int(nanoseconds))
            }

            /// `ms` milliseconds, that is `ms × 10⁶` ticks (saturating).
            public static func milliseconds(_ ms: Int) -> Self { Self(ticks: saturatingMultiply(ms, 1_000_000)) }

            /// `us` microseconds, that is `us × 10³` ticks (saturating).
            public static func microseconds(_ us: Int) -> Self { Self(ticks: saturatingMultiply(us, 1_000)) }

            /// `ns` nanoseconds, which is exactly `ns` ticks.
            public static func nanoseconds(_ ns: Int) -> Self { Self(ticks: ns) }

            private static func saturatingMultiply(_ value: Int, _ factor: Int) -> Int {
                let (result, overflow) = value.multipliedReportingOverflow(by: factor)
                if !overflow { return result }
                return value < 0 ? .min : .max
            }

            /// The absolute length of the stride.
            public var magnitude: Self { Self(ticks: ticks.magnitude > UInt(Int.max) ? .max : abs(ticks)) }

            /// Orders strides by length in ticks.
            public static func < (lhs: Self, rhs: Self) -> Bool { lhs.ticks < rhs.ticks }

            /// Adds two strides.
            public static func + (lhs: Self, rhs: Self) -> Self { Self(ticks: lhs.ticks + rhs.ticks) }

            /// Adds `rhs` to `lhs`.
            public static func += (lhs: inout Self, rhs: Self) { lhs.ticks += rhs.ticks }

            /// Subtracts `rhs` from `lhs`.
            public static func - (lhs: Self, rhs: Self) -> Self { Self(ticks: lhs.ticks - rhs.ticks) }

            /// Subtracts `rhs` from `lhs` in place.
            public static func -= (lhs: inout Self, rhs: Self) { lhs.ticks -= rhs.ticks }

            /// Scales a stride (`interval * 3`).
            public static func * (lhs: Self, rhs: Self) -> Self { Self(ticks: lhs.ticks * rhs.ticks) }

            /// Scales a stride in place.
            public static func *= (lhs: inout Self, rhs: Self) { lhs.ticks *= rhs.ticks }

            /// Written as a tick count, e.g. `3 ticks`.
            public var description: String { ticks == 1 || ticks == -1 ? "\(ticks) tick" : "\(ticks) ticks" }
        }
    }
}

extension Subscribers {
    /// How many values a subscriber asks for, sent through a ``Subscription``.
    ///
    /// Either a finite count, ``max(_:)``, or ``unlimited``. Arithmetic never produces a negative
    /// demand: subtraction saturates at `.max(0)`, and additions or multiplications that overflow
    /// become ``unlimited``. Anything combined with ``unlimited`` stays ``unlimited`` (subtracting
    /// from it included). Making a negative demand with ``max(_:)`` is a programming error and
    /// traps, as it does on Apple's platforms.
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// The count, or `Demand.unlimitedRawValue` for unlimited. Finite counts stay below it.
        @usableFromInline
        internal let rawValue: UInt

        @usableFromInline
        internal static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

        @inlinable
        internal init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// A request for as many values as the publisher can produce.
        ///
        /// A computed constant rather than Apple's stored `let`: reading it is the same in source,
        /// but the value is known where it is used, so comparisons with it compile to a compare with
        /// an immediate instead of a call into this module for the stored global.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

        /// A request for no values: `.max(0)`. Computed, like ``unlimited``, for the same reason.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// A request for at most `value` values.
        ///
        /// - Precondition: `value` is not negative; a negative value traps, also in release builds.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            if value < 0 { APIViolation.negativeDemand(value) }
            return Demand(rawValue: UInt(value))
        }

        /// The requested count, or `nil` when the demand is ``unlimited``.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
        }

        /// `"unlimited"`, or `"max(N)"` for a finite demand.
        public var description: String {
            if let count = max { return "max(\(count))" }
            return "unlimited"
        }

        // MARK: Addition

        /// The sum of two demands; ``unlimited`` when either is, or when the sum overflows.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.max, let right = rhs.max else { return .unlimited }
            let (sum, overflow) = left.addingReportingOverflow(right)
            return overflow ? .unlimited : Demand(rawValue: UInt(sum))
        }

        /// Adds `rhs` to `lhs`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Adds a count to a demand; ``unlimited`` stays ``unlimited``, overflow gives
        /// ``unlimited``. A result below zero is a programming error and traps, like ``max(_:)``.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            let (sum, overflow) = left.addingReportingOverflow(rhs)
            if overflow { return rhs < 0 ? .none : .unlimited }
            return .max(sum)
        }

        /// Adds a count to `lhs`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        // MARK: Multiplication

        /// A demand multiplied by a count; ``unlimited`` stays ``unlimited``, overflow gives
        /// ``unlimited``. A negative result traps, like ``max(_:)``.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            let (product, overflow) = left.multipliedReportingOverflow(by: rhs)
            if overflow { return .unlimited }
            return .max(product)
        }

        /// Multiplies `lhs` by a count.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        // MARK: Subtraction

        /// The difference of two demands.
        ///
        /// Anything subtracted from ``unlimited`` leaves ``unlimited``; ``unlimited`` subtracted
        /// from a finite demand gives `.max(0)`; a result below zero is clamped to `.max(0)`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            guard let right = rhs.max else { return .none }
            return left <= right ? .none : Demand(rawValue: UInt(left - right))
        }

        /// Subtracts `rhs` from `lhs`, with the rules of `-` between two demands.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        /// A demand less a count; ``unlimited`` stays ``unlimited`` and a result below zero is
        /// clamped to `.max(0)`.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            let (difference, overflow) = left.subtractingReportingOverflow(rhs)
            if overflow { return rhs < 0 ? .unlimited : .none }
            return difference < 0 ? .none : Demand(rawValue: UInt(difference))
        }

        /// Subtracts a count from `lhs`, with the rules of `-`.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        // MARK: Comparison with counts (unlimited is greater than every count)

        /// Whether the demand is greater than a count; ``unlimited`` is greater than every count.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            guard let left = lhs.max else { return true }
            return left > rhs
        }

        /// Whether the demand is greater than or equal to a count.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool {
            guard let left = lhs.max else { return true }
            return left >= rhs
        }

        /// Whether a count is greater than the demand; never for ``unlimited``.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool {
            guard let right = rhs.max else { return false }
            return lhs > right
        }

        /// Whether a count is greater than or equal to the demand; never for ``unlimited``.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool {
            guard let right = rhs.max else { return false }
            return lhs >= right
        }

        /// Whether the demand is less than a count; never for ``unlimited``.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            guard let left = lhs.max else { return false }
            return left < rhs
        }

        /// Whether a count is less than the demand; always for ``unlimited``.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool {
            guard let right = rhs.max else { return true }
            return lhs < right
        }

        /// Whether the demand is less than or equal to a count; never for ``unlimited``.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool {
            guard let left = lhs.max else { return false }
            return left <= rhs
        }

        /// Whether a count is less than or equal to the demand; always for ``unlimited``.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool {
            guard let right = rhs.max else { return true }
            return lhs <= right
        }

        /// Whether two demands are ordered; ``unlimited`` is the largest demand.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// Whether two demands are ordered or equal.
        @inlinable
        public static func <= (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue <= rhs.rawValue
        }

        /// Whether the left demand is at least the right one.
        @inlinable
        public static func >= (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue >= rhs.rawValue
        }

        /// Whether the left demand exceeds the right one.
        @inlinable
        public static func > (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue > rhs.rawValue
        }

        // MARK: Equality

        /// Whether two demands are equal.
        @inlinable
        public static func == (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue == rhs.rawValue
        }

        /// Whether the demand equals a count; ``unlimited`` equals no count.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            guard let left = lhs.max else { return false }
            return left == rhs
        }

        /// Whether the demand differs from a count; ``unlimited`` differs from every count.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool {
            !(lhs == rhs)
        }

        /// Whether a count equals the demand.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool {
            rhs == lhs
        }

        /// Whether a count differs from the demand.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool {
            !(rhs == lhs)
        }

        // MARK: Codable

        /// Decodes a demand stored as its single unsigned raw count (unlimited as `2^63`).
        ///
        /// Any count above `Int.max` decodes as ``unlimited``, as in Apple's Combine; a negative
        /// number is not an unsigned integer and fails to decode.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let raw = try container.decode(UInt.self)
            self.init(rawValue: Swift.min(raw, Demand.unlimitedRawValue))
        }

        /// Encodes the demand as its single unsigned raw count (unlimited as `2^63`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}

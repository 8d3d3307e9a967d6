extension Publishers {
    /// The publisher `output(at:)`, `output(in:)` and `prefix(_:)` return: only the values whose
    /// zero-based position falls in `range` are passed on; after the last one the upstream is
    /// cancelled and the stream finishes. Values before the range are replaced by requests for
    /// one more each.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream's value type; only the values whose index lies in `range` are published.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are selected by position.
        public let upstream: Upstream

        /// The zero-based positions to publish.
        public let range: CountableRange<Int>

        /// Wraps `upstream`; prefer `output(at:)`, `output(in:)` or `prefix(_:)`.
        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            if range.lowerBound < 0 || range.upperBound < 0 {
                APIViolation.invalidOperatorArgument("Publishers.Output needs a non-negative range, got \(range)")
            }
            self.upstream = upstream
            self.range = range
        }

        /// Connects `subscriber` through a stage that counts positions.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.receive(subscriber: FilteringStage(downstream: subscriber, strategy: Strategy(range: range)))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output {
    @usableFromInline
    struct Strategy: FilteringStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let range: CountableRange<Int>
        @usableFromInline var index = 0

        @inlinable init(range: CountableRange<Int>) { self.range = range }

        @usableFromInline static var operatorName: String { "Output" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            let position = index
            if position >= range.upperBound { return .finish }
            index += 1
            if position < range.lowerBound { return .demand(.max(1)) }
            let demand = downstream.receive(input)
            return position == range.upperBound - 1 ? .finish : .demand(demand)
        }
    }
}

extension Publisher {
    /// Passes on at most the first `maxLength` values, then finishes.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        if maxLength < 0 { APIViolation.invalidOperatorArgument("prefix(_:) needs maxLength >= 0, got \(maxLength)") }
        return Publishers.Output(upstream: self, range: 0..<maxLength)
    }

    /// Publishes only the value at the zero-based position `index`, then finishes.
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> {
        if index < 0 || index == .max { APIViolation.invalidOperatorArgument("output(at:) needs 0 <= index < Int.max, got \(index)") }
        return Publishers.Output(upstream: self, range: index..<(index + 1))
    }

    /// Publishes only the values whose zero-based positions are in `range`, then finishes.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }
}

// Sendable when everything it stores is.
extension Publishers.Output: Sendable where Upstream: Sendable {}

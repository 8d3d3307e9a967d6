import TributaryLocks

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
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output {
    /// The stage of `output(in:)`, `output(at:)` and `prefix(_:)`. As Apple's, it counts every value
    /// it is given, ahead of its subscription and after a completion or a cancel too; values in
    /// range are delivered. The last one in range returns the subscriber's answer, then the
    /// upstream is cancelled and `finished` sent. Completions after a completion or a cancel, or
    /// ahead of the subscription, are dropped, and a cancel ahead of it does nothing.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, ForwardsToHeldSubscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let range: CountableRange<Int>
        /// How many values have arrived. Only the upstream's serialized calls touch it.
        @usableFromInline var index = 0
        @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)

        @inlinable
        init(downstream: Downstream, range: CountableRange<Int>) {
            self.downstream = downstream
            self.range = range
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let position = index
            if position >= range.upperBound {
                // An empty range (`prefix(0)`) finishes on the first value.
                finish()
                return .none
            }
            index += 1
            if position < range.lowerBound { return .max(1) }
            let more = downstream.receive(input)
            if position == range.upperBound - 1 { finish() }
            return more
        }

        /// The last value in range went out: cancel the upstream and finish.
        @usableFromInline
        func finish() {
            let upstream = status.withLock { $0.terminateIfSubscribed() }
            // Ahead of the subscription, or after a completion or a cancel, nothing is sent.
            guard let upstream else { return }
            upstream.cancel()
            downstream.receive(completion: .finished)
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if status.withLock({ $0.endIfSubscribed() }) { downstream.receive(completion: completion) }
        }

        @usableFromInline var description: String { "Output" }
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

extension Publishers {
    /// The publisher `dropFirst(_:)` returns: the first `count` values are swallowed.
    ///
    /// The values it will swallow are requested together with the downstream's first request
    /// (asking for `.max(5)` below `dropFirst(2)` requests `.max(7)` upstream), as Apple does.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's value type; the first `count` values are skipped.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are dropped.
        public let upstream: Upstream

        /// How many values to drop.
        public let count: Int

        /// Wraps `upstream`; prefer `upstream.dropFirst(count)`.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            // A negative count is accepted here, as in Apple's Combine; it traps when the upstream's
            // subscription arrives (see `NegativeCountTrap`).
            self.upstream = upstream
            self.count = count
        }

        /// Connects `subscriber` through a stage that counts off the dropped values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            guard count >= 0 else {
                return upstream.receive(subscriber: NegativeCountTrap(count: count))
            }
            upstream.receive(subscriber: FilteringStage(downstream: subscriber, strategy: Strategy(remaining: count)))
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop {
    @usableFromInline
    struct Strategy: FilteringStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline var remaining: Int
        @usableFromInline let extraInitialDemand: Int

        @inlinable init(remaining: Int) {
            self.remaining = remaining
            self.extraInitialDemand = remaining
        }

        @usableFromInline static var operatorName: String { "Drop" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            if remaining > 0 {
                remaining -= 1
                return .demand(.none)
            }
            return .demand(downstream.receive(input))
        }
    }
}

extension Publishers.Drop {
    /// Stands in for the operator when `count` is negative: Apple's Combine builds such a
    /// `dropFirst` without complaint and traps only once the upstream's subscription arrives
    /// (inside `subscribe` for a synchronous upstream), so this does the same.
    @usableFromInline
    final class NegativeCountTrap: Subscriber {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let count: Int

        @inlinable init(count: Int) { self.count = count }

        @usableFromInline
        func receive(subscription: any Subscription) {
            APIViolation.invalidOperatorArgument(
                "dropFirst(_:) received its upstream subscription with count \(count); the count must be >= 0")
        }

        @usableFromInline
        func receive(_ input: Input) -> Subscribers.Demand { .none }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Failure>) {}
    }
}

extension Publisher {
    /// Skips the first `count` values (one by default) and passes on the rest.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

// Sendable when everything it stores is.
extension Publishers.Drop: Sendable where Upstream: Sendable {}

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
            if count < 0 { APIViolation.invalidOperatorArgument("dropFirst(_:) needs a count >= 0, got \(count)") }
            self.upstream = upstream
            self.count = count
        }

        /// Connects `subscriber` through a stage that counts off the dropped values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(remaining: count)))
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

extension Publisher {
    /// Skips the first `count` values (one by default) and passes on the rest.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

// Sendable when everything it stores is.
extension Publishers.Drop: Sendable where Upstream: Sendable {}

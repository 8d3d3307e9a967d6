extension Publishers {
    /// The publisher `count()` returns: when the upstream finishes it publishes how many values it
    /// received. A failure is passed on instead.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The number of values received.
        public typealias Output = Int
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are counted.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer `upstream.count()`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy()))
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publishers.Count {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Int
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline var count = 0

        @inlinable init() {}

        @usableFromInline var reflectedResult: Any? { count }

        @usableFromInline static var operatorName: String { "Count" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            count += 1
            return .continue
        }

        @inlinable
        mutating func finalValue() -> Int? { count }
    }
}

extension Publisher {
    /// Publishes the number of values the upstream produced, once it finishes.
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

// Sendable when everything it stores is.
extension Publishers.Count: Sendable where Upstream: Sendable {}

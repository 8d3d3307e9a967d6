extension Publishers {
    /// The publisher `contains(where:)` returns: `true` as soon as a value satisfies the predicate
    /// (the upstream is then cancelled), or `false` if the upstream finishes without one.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a matching value was seen.
        public typealias Output = Bool
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher searched.
        public let upstream: Upstream

        /// Recognises the value searched for.
        public let predicate: (Upstream.Output) -> Bool

        /// Wraps `upstream`; prefer `upstream.contains(where:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(
                downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }

    /// The publisher `tryContains(where:)` returns: like ``Publishers/ContainsWhere`` but the
    /// predicate may throw, which ends the stream with that error and no value.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a matching value was seen.
        public typealias Output = Bool
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher searched.
        public let upstream: Upstream

        /// Recognises the value searched for, or throws to stop.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Wraps `upstream`; prefer `upstream.tryContains(where:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == any Error {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }
}

extension Publishers.ContainsWhere {
    @usableFromInline typealias Strategy = VerdictStrategy<Upstream, SomeValueMatches>
}

extension Publishers.TryContainsWhere {
    @usableFromInline typealias Strategy = TryVerdictStrategy<Upstream, SomeValueMatches>
}

extension Publisher {
    /// Publishes `true` and finishes as soon as a value satisfies `predicate`, or `false` when the
    /// upstream finishes without one.
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Like `contains(where:)`, but the predicate may throw; an error ends the stream.
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

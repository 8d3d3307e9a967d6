extension Publishers {
    /// The publisher `allSatisfy(_:)` returns: `false` as soon as a value fails the predicate (the
    /// upstream is then cancelled), or `true` when the upstream finishes with every value passing.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every value passed.
        public typealias Output = Bool
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher checked.
        public let upstream: Upstream

        /// The test every value must pass.
        public let predicate: (Upstream.Output) -> Bool

        /// Wraps `upstream`; prefer `upstream.allSatisfy(_:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }

    /// The publisher `tryAllSatisfy(_:)` returns: like ``Publishers/AllSatisfy`` but the predicate
    /// may throw, which ends the stream with that error and no value.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every value passed.
        public typealias Output = Bool
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher checked.
        public let upstream: Upstream

        /// The test every value must pass, or throws to stop.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Wraps `upstream`; prefer `upstream.tryAllSatisfy(_:)`.
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

extension Publishers.AllSatisfy {
    @usableFromInline typealias Strategy = VerdictStrategy<Upstream, EveryValuePasses>
}

extension Publishers.TryAllSatisfy {
    @usableFromInline typealias Strategy = TryVerdictStrategy<Upstream, EveryValuePasses>
}

extension Publisher {
    /// Publishes whether every value satisfies `predicate`: `false` (and finishes) at the first
    /// value that does not, `true` when the upstream finishes.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Like `allSatisfy`, but the predicate may throw; an error ends the stream with no value.
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

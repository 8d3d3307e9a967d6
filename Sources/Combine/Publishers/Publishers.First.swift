extension Publishers {
    /// The publisher `first()` returns: the first value, after which the upstream is cancelled
    /// and the stream finishes. An empty upstream just finishes.
    public struct First<Upstream: Publisher>: Publisher {
        /// The selected value.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher a value is selected from.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer the `Publisher` operator method.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy()))
        }
    }

    /// The publisher `first(where:)` returns: the first value satisfying the predicate, after
    /// which the upstream is cancelled and the stream finishes.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The selected value.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher a value is selected from.
        public let upstream: Upstream

        /// Recognises the values that qualify.
        public let predicate: (Output) -> Bool

        /// Wraps `upstream`; prefer the `Publisher` operator method.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }

    /// The publisher `tryFirst(where:)` returns: like ``Publishers/FirstWhere`` but the predicate
    /// may throw, which ends the stream with that error.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The selected value.
        public typealias Output = Upstream.Output
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher a value is selected from.
        public let upstream: Upstream

        /// Recognises the values that qualify.
        public let predicate: (Output) throws -> Bool

        /// Wraps `upstream`; prefer the `Publisher` operator method.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publishers.First {
    @usableFromInline typealias Strategy = SelectAny<Upstream, FirstMatch>
}

extension Publishers.FirstWhere {
    @usableFromInline typealias Strategy = SelectWhere<Upstream, FirstMatch>
}

extension Publishers.TryFirstWhere {
    @usableFromInline typealias Strategy = TrySelectWhere<Upstream, FirstMatch>
}

extension Publisher {
    /// Publishes the first value and finishes, cancelling the upstream.
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Publishes the first value satisfying `predicate` and finishes, cancelling the upstream.
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Like `first(where:)`, but the predicate may throw; an error ends the stream.
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

// Sendable when everything it stores is.
extension Publishers.First: Sendable where Upstream: Sendable {}

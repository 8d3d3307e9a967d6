extension Publishers {
    /// The publisher `last()` returns: once the upstream finishes, its final value (if any).
    public struct Last<Upstream: Publisher>: Publisher {
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

    /// The publisher `last(where:)` returns: once the upstream finishes, the last value that
    /// satisfied the predicate (if any).
    public struct LastWhere<Upstream: Publisher>: Publisher {
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

    /// The publisher `tryLast(where:)` returns: like ``Publishers/LastWhere`` but the predicate
    /// may throw, which ends the stream with that error and no value.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
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

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publishers.Last {
    @usableFromInline typealias Strategy = SelectAny<Upstream, LastMatch>
}

extension Publishers.LastWhere {
    @usableFromInline typealias Strategy = SelectWhere<Upstream, LastMatch>
}

extension Publishers.TryLastWhere {
    @usableFromInline typealias Strategy = TrySelectWhere<Upstream, LastMatch>
}

extension Publisher {
    /// Publishes the upstream's final value once it finishes.
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Publishes the last value satisfying `predicate` once the upstream finishes.
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Like `last(where:)`, but the predicate may throw; an error ends the stream with no value.
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

// Sendable when everything it stores is.
extension Publishers.Last: Sendable where Upstream: Sendable {}

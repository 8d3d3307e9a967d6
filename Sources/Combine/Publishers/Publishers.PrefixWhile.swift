extension Publishers {
    /// The publisher `prefix(while:)` returns: values pass while the predicate holds; the first
    /// value it rejects is swallowed, the upstream is cancelled and the stream finishes.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's value type; values are published until the predicate first rejects one.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose leading values are kept.
        public let upstream: Upstream

        /// Keeps passing values while it returns `true`.
        public let predicate: (Output) -> Bool

        /// Wraps `upstream`; prefer `upstream.prefix(while:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber` through a stage that stops at the first rejected value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }

    /// The publisher `tryPrefix(while:)` returns: like ``Publishers/PrefixWhile`` but the predicate
    /// may throw, which ends the stream with that error.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's value type; values are published until the throwing predicate first rejects one.
        public typealias Output = Upstream.Output
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose leading values are kept.
        public let upstream: Upstream

        /// Keeps passing values while it returns `true`, or throws to stop.
        public let predicate: (Output) throws -> Bool

        /// Wraps `upstream`; prefer `upstream.tryPrefix(while:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber` through a stage that stops at the first rejected value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }
}

extension Publishers.PrefixWhile {
    @usableFromInline
    struct Strategy: FilterLikeStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let predicate: (Output) -> Bool

        @inlinable init(predicate: @escaping (Output) -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "PrefixWhile" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            predicate(input) ? .demand(downstream.receive(input)) : .finish
        }
    }
}

extension Publishers.TryPrefixWhile {
    @usableFromInline
    struct Strategy: FilterLikeStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline let predicate: (Output) throws -> Bool

        @inlinable init(predicate: @escaping (Output) throws -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "TryPrefixWhile" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            do {
                return try predicate(input) ? .demand(downstream.receive(input)) : .finish
            } catch {
                thrown = error
                return .failure
            }
        }

        @usableFromInline var thrown: (any Error)?
    }
}

extension Publisher {
    /// Passes values on while `predicate` holds and finishes at the first one it rejects.
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Like `prefix(while:)`, but the predicate may throw; an error ends the stream.
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

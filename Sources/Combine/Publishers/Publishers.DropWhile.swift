extension Publishers {
    /// The publisher `drop(while:)` returns: values are swallowed while the predicate holds; the
    /// first value it rejects opens the gate for good (this is not a filter).
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's value type; leading values are skipped while the predicate holds.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose leading values are dropped.
        public let upstream: Upstream

        /// Keeps dropping while it returns `true`.
        public let predicate: (Output) -> Bool

        /// Wraps `upstream`; prefer `upstream.drop(while:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber` through a stage that drops the leading values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }

    /// The publisher `tryDrop(while:)` returns: like ``Publishers/DropWhile`` but the predicate may
    /// throw, which ends the stream with that error.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's value type; leading values are skipped while the throwing predicate holds.
        public typealias Output = Upstream.Output
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose leading values are dropped.
        public let upstream: Upstream

        /// Keeps dropping while it returns `true`, or throws to stop.
        public let predicate: (Output) throws -> Bool

        /// Wraps `upstream`; prefer `upstream.tryDrop(while:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber` through a stage that drops the leading values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }
}

/// The strategy of `drop(while:)` and `tryDrop(while:)`. As Apple's, a value before the
/// subscription is not shown to the predicate, and a completion or a cancel before it changes
/// nothing (spec §6, §8).
@usableFromInline
protocol DropWhileStrategy: FilteringStrategy {}

extension DropWhileStrategy {
    @inlinable static var ignoresEventsBeforeSubscription: Bool { true }
    @inlinable static var ignoresCancelBeforeSubscription: Bool { true }
}

extension Publishers.DropWhile {
    @usableFromInline
    struct Strategy: DropWhileStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let predicate: (Output) -> Bool
        @usableFromInline var dropping = true

        @inlinable init(predicate: @escaping (Output) -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "DropWhile" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            if dropping {
                if predicate(input) { return .demand(.max(1)) }
                dropping = false
            }
            return .demand(downstream.receive(input))
        }
    }
}

extension Publishers.TryDropWhile {
    @usableFromInline
    struct Strategy: DropWhileStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline let predicate: (Output) throws -> Bool
        @usableFromInline var dropping = true

        @inlinable init(predicate: @escaping (Output) throws -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "TryDropWhile" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            if dropping {
                do {
                    if try predicate(input) { return .demand(.max(1)) }
                } catch {
                    thrown = error
                    return .failure
                }
                dropping = false
            }
            return .demand(downstream.receive(input))
        }

        @usableFromInline var thrown: (any Error)?
    }
}

extension Publisher {
    /// Skips values until `predicate` first returns `false`, then passes on everything.
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Like `drop(while:)`, but the predicate may throw; an error ends the stream.
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

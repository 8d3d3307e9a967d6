extension Publishers {
    /// The publisher `removeDuplicates()` / `removeDuplicates(by:)` returns: a value equal to the
    /// last one published is dropped (and one more is requested in its place).
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's value type; a value the predicate finds equal to the last published one is skipped.
        public typealias Output = Upstream.Output
        /// Comparing cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose repeats are removed.
        public let upstream: Upstream

        /// Returns `true` when the new value (second) repeats the last published one (first).
        public let predicate: (Output, Output) -> Bool

        /// Wraps `upstream`; prefer `upstream.removeDuplicates(by:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber` through a stage that remembers the last published value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }

    /// The publisher `tryRemoveDuplicates(by:)` returns: like ``Publishers/RemoveDuplicates`` but
    /// the comparison may throw, which ends the stream with that error (no value is sent for it).
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's value type; a value the throwing predicate finds equal to the last
        /// published one is skipped.
        public typealias Output = Upstream.Output
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose repeats are removed.
        public let upstream: Upstream

        /// Returns `true` for a repeat, or throws to stop.
        public let predicate: (Output, Output) throws -> Bool

        /// Wraps `upstream`; prefer `upstream.tryRemoveDuplicates(by:)`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber` through a stage that remembers the last published value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }
}

extension Publishers.RemoveDuplicates {
    @usableFromInline
    struct Strategy: FilterLikeStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let predicate: (Output, Output) -> Bool
        @usableFromInline var last: Output?

        @inlinable init(predicate: @escaping (Output, Output) -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "RemoveDuplicates" }

        @usableFromInline
        func mirrorChildren(downstream: Any, status: Any) -> [(label: String?, value: Any)] {
            [("downstream", downstream), ("last", last as Any)]
        }

        @inlinable
        @inline(__always)
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            if let last, predicate(last, input) { return .demand(.max(1)) }
            last = input
            return .demand(downstream.receive(input))
        }
    }
}

extension Publishers.TryRemoveDuplicates {
    @usableFromInline
    struct Strategy: FilterLikeStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline let predicate: (Output, Output) throws -> Bool
        @usableFromInline var last: Output?

        @inlinable init(predicate: @escaping (Output, Output) throws -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "TryRemoveDuplicates" }

        @usableFromInline
        func mirrorChildren(downstream: Any, status: Any) -> [(label: String?, value: Any)] {
            [("downstream", downstream), ("last", last as Any)]
        }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            do {
                if let last, try predicate(last, input) { return .demand(.max(1)) }
            } catch {
                thrown = error
                return .failure
            }
            last = input
            return .demand(downstream.receive(input))
        }

        @usableFromInline var thrown: (any Error)?
    }
}

extension Publisher where Output: Equatable {
    /// Drops a value when it equals the one published just before it (consecutive repeats only).
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Drops a value when `predicate(previous, current)` says it repeats the last published one.
    @inlinable
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Like `removeDuplicates(by:)`, but the predicate may throw; an error ends the stream.
    @inlinable
    public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

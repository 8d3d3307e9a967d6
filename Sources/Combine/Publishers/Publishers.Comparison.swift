extension Publishers {
    /// The publisher `min()`, `max()`, `min(by:)` and `max(by:)` return: when the upstream
    /// finishes it publishes the greatest value under `areInIncreasingOrder` (`min` passes the
    /// ordering reversed). Among equal values the first one seen wins. An empty upstream just
    /// finishes.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The winning value.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are compared.
        public let upstream: Upstream

        /// Returns `true` when its first argument should come before its second.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Wraps `upstream`; prefer `min`/`max`.
        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy(ordering: areInIncreasingOrder)))
        }
    }

    /// The publisher `tryMin(by:)` and `tryMax(by:)` return: like ``Publishers/Comparison`` but
    /// the ordering may throw, which ends the stream with that error and no value.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The winning value.
        public typealias Output = Upstream.Output
        /// Anything the upstream or the closure throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose values are compared.
        public let upstream: Upstream

        /// Returns `true` when its first argument should come before its second, or throws.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Wraps `upstream`; prefer `tryMin(by:)`/`tryMax(by:)`.
        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy(ordering: areInIncreasingOrder)))
        }
    }
}

extension Publishers.Comparison {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let ordering: (Output, Output) -> Bool
        @usableFromInline var best: Output?
        @usableFromInline var reflectedResult: Any? { best }

        @inlinable init(ordering: @escaping (Output, Output) -> Bool) { self.ordering = ordering }

        @usableFromInline static var operatorName: String { "Comparison" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            if let current = best {
                if ordering(current, input) { best = input }
            } else {
                best = input
            }
            return .continue
        }

        @inlinable
        mutating func finalValue() -> Output? { best }
    }
}

extension Publishers.TryComparison {
    @usableFromInline
    struct Strategy: ReducingStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline let ordering: (Output, Output) throws -> Bool
        @usableFromInline var best: Output?
        @usableFromInline var reflectedResult: Any? { best }

        @inlinable init(ordering: @escaping (Output, Output) throws -> Bool) { self.ordering = ordering }

        @usableFromInline static var operatorName: String { "TryComparison" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            if let current = best {
                do {
                    if try ordering(current, input) { best = input }
                } catch {
                    thrown = error
                    return .failure
                }
            } else {
                best = input
            }
            return .continue
        }

        @usableFromInline var thrown: (any Error)?

        @inlinable
        mutating func finalValue() -> Output? { best }
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the smallest value once the upstream finishes.
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: >)
    }

    /// Publishes the largest value once the upstream finishes.
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: <)
    }
}

extension Publisher {
    /// Publishes the smallest value under `areInIncreasingOrder` once the upstream finishes.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Like `min(by:)`, but the ordering may throw; an error ends the stream with no value.
    @inlinable
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the largest value under `areInIncreasingOrder` once the upstream finishes.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Like `max(by:)`, but the ordering may throw; an error ends the stream with no value.
    @inlinable
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

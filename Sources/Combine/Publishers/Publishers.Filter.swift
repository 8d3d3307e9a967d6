extension Publishers {
    /// The publisher `filter(_:)` returns: only values the predicate accepts go downstream; for
    /// each rejected value one more is requested upstream, so the downstream's demand is honoured.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's value type; only the values `isIncluded` accepts are published.
        public typealias Output = Upstream.Output
        /// Filtering cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream

        /// Decides whether a value goes downstream.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Wraps `upstream`; prefer `upstream.filter(isIncluded)`.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Connects `subscriber` through a stateless stage that drops rejected values and hands
        /// the upstream's own subscription downstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
        }
    }

    /// The publisher `tryFilter(_:)` returns: like ``Publishers/Filter`` but the predicate may throw,
    /// which ends the stream with that error.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream's value type; only the values the throwing predicate accepts are published.
        public typealias Output = Upstream.Output
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose values are filtered.
        public let upstream: Upstream

        /// Decides whether a value goes downstream, or throws to stop.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Wraps `upstream`; prefer `upstream.tryFilter(isIncluded)`.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Connects `subscriber` through a stage that drops rejected values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(isIncluded: isIncluded)))
        }
    }
}

extension Publishers.Filter {
    /// The stage `filter` attaches upstream. Like Apple's, it keeps no state: the upstream's
    /// subscription goes downstream untouched (every time one arrives), so `request` and `cancel`
    /// reach the upstream directly, and every value and completion is passed on in arrival order.
    /// A rejected value asks the upstream for one more in its place.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let isIncluded: (Upstream.Output) -> Bool
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.downstream = downstream
            self.isIncluded = isIncluded
        }

        @inlinable @inline(__always)
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            isIncluded(input) ? downstream.receive(input) : .max(1)
        }

        @usableFromInline var description: String { "Filter" }
    }

    /// Fuses two filters into one stage: a value must pass both.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }

    /// Fuses this filter with a throwing one into a single `TryFilter` stage.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    @usableFromInline
    struct Strategy: FilterLikeStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline let isIncluded: (Upstream.Output) throws -> Bool

        @inlinable init(isIncluded: @escaping (Upstream.Output) throws -> Bool) { self.isIncluded = isIncluded }

        @usableFromInline static var operatorName: String { "TryFilter" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            do {
                return try isIncluded(input) ? .demand(downstream.receive(input)) : .demand(.max(1))
            } catch {
                thrown = error
                return .failure
            }
        }

        @usableFromInline var thrown: (any Error)?
    }

    /// Fuses a plain filter onto this throwing one, keeping a single stage.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses two throwing filters into a single stage.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publisher {
    /// Passes on only the values `isIncluded` accepts.
    ///
    /// ```swift
    /// [1, 2, 3, 4].publisher.filter { $0 % 2 == 0 }   // 2, 4
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }

    /// Like `filter`, but the predicate may throw; an error ends the stream as its failure.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

/// The stage hands the upstream's subscription straight down and keeps no reference to it, so it
/// lets go of it exactly when its downstream does (see `Publishers.Map.Inner`).
extension Publishers.Filter.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

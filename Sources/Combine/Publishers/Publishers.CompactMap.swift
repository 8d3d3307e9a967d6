extension Publishers {
    /// The publisher `compactMap(_:)` returns: each value is transformed and only non-`nil` results
    /// go downstream; a `nil` result is replaced by a request for one more upstream value.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// Transforming cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// Produces the downstream value, or `nil` to skip this one.
        public let transform: (Upstream.Output) -> Output?

        /// Wraps `upstream`; prefer `upstream.compactMap(transform)`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Connects `subscriber` through a stateless stage that skips `nil` results and hands the
        /// upstream's own subscription downstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }

    /// The publisher `tryCompactMap(_:)` returns: like ``Publishers/CompactMap`` but the transform
    /// may throw, which ends the stream with that error.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Anything the upstream or the closure throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// Produces the downstream value, `nil` to skip it, or throws to stop.
        public let transform: (Upstream.Output) throws -> Output?

        /// Wraps `upstream`; prefer `upstream.tryCompactMap(transform)`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Connects `subscriber` through a stage that skips `nil` results.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilteringStage(downstream: subscriber, strategy: Strategy(transform: transform)))
        }
    }
}

extension Publishers.CompactMap {
    /// The stage `compactMap` attaches upstream. Like Apple's, it keeps no state: the upstream's
    /// subscription goes downstream untouched (every time one arrives), and every value and
    /// completion is passed on in arrival order. A `nil` result asks the upstream for one more.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output?
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable @inline(__always)
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if let output = transform(input) { return downstream.receive(output) }
            return .max(1)
        }

        @usableFromInline var description: String { "CompactMap" }
    }

    /// Fuses two compact maps into one stage.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fuses a map onto this compact map, keeping a single stage.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}

extension Publishers.TryCompactMap {
    @usableFromInline
    struct Strategy: FilterLikeStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline let transform: (Upstream.Output) throws -> Output?

        @inlinable init(transform: @escaping (Upstream.Output) throws -> Output?) { self.transform = transform }

        @usableFromInline static var operatorName: String { "TryCompactMap" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            do {
                if let output = try transform(input) { return .demand(downstream.receive(output)) }
                return .demand(.max(1))
            } catch {
                thrown = error
                return .failure
            }
        }

        @usableFromInline var thrown: (any Error)?
    }

    /// Fuses two throwing compact maps into one stage.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}

extension Publisher {
    /// Transforms each value and passes on only the non-`nil` results; with `{ $0 }` it unwraps a
    /// stream of optionals.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }

    /// Like `compactMap`, but the closure may throw; an error ends the stream as its failure.
    @inlinable
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

/// The stage hands the upstream's subscription straight down and keeps no reference to it, so it
/// lets go of it exactly when its downstream does (see `Publishers.Map.Inner`).
extension Publishers.CompactMap.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

extension Publishers {
    /// The publisher `scan(_:_:)` returns: it folds each value into an accumulator and publishes
    /// every intermediate result (`reduce` publishes only the last).
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// Folding cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are folded.
        public let upstream: Upstream

        /// The accumulator's starting value (not itself published).
        public let initialResult: Output

        /// Combines the accumulator with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Wraps `upstream`; prefer `upstream.scan(initialResult, nextPartialResult)`.
        @inlinable
        public init(upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Connects `subscriber`; each subscription starts from `initialResult` again, and the
        /// upstream's own subscription is handed downstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, initial: initialResult, next: nextPartialResult))
        }
    }

    /// The publisher `tryScan(_:_:)` returns: like ``Publishers/Scan`` but the closure may throw,
    /// which ends the stream with that error.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Anything the upstream or the closure throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose values are folded.
        public let upstream: Upstream

        /// The accumulator's starting value (not itself published).
        public let initialResult: Output

        /// Combines the accumulator with the next value, or throws to stop.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Wraps `upstream`; prefer `upstream.tryScan(initialResult, nextPartialResult)`.
        @inlinable
        public init(upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Connects `subscriber`; each subscription starts from `initialResult` again.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilteringStage(
                downstream: subscriber,
                strategy: Strategy(accumulator: initialResult, next: nextPartialResult)))
        }
    }
}

extension Publishers.Scan {
    /// The stage `scan` attaches upstream. Like Apple's, it keeps nothing but the running result:
    /// the upstream's subscription goes downstream untouched (every time one arrives), and every
    /// value and completion is passed on in arrival order. A class only because the result
    /// changes; upstream deliveries are serialised, so it needs no lock.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let next: (Output, Upstream.Output) -> Output
        /// Only touched from upstream deliveries, which Combine serialises.
        @exclusivity(unchecked) @usableFromInline var result: Output

        @inlinable
        init(downstream: Downstream, initial: Output, next: @escaping (Output, Upstream.Output) -> Output) {
            self.downstream = downstream
            self.result = initial
            self.next = next
        }

        @inlinable @inline(__always)
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            result = next(result, input)
            return downstream.receive(result)
        }

        @usableFromInline var description: String { "Scan" }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { ["downstream": downstream, "result": result] }
    }
}

extension Publishers.TryScan {
    @usableFromInline
    struct Strategy: FilteringStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline var accumulator: Output
        @usableFromInline let next: (Output, Upstream.Output) throws -> Output

        @inlinable
        init(accumulator: Output, next: @escaping (Output, Upstream.Output) throws -> Output) {
            self.accumulator = accumulator
            self.next = next
        }

        @usableFromInline static var operatorName: String { "TryScan" }

        /// Apple's `tryScan` keeps folding values that arrive after an upstream completion or a
        /// cancel, and passes them on.
        @inlinable static var gatesValuesAfterEnd: Bool { false }

        /// Nor do upstream completions end it: each is passed on and the upstream's subscription
        /// stays in use; a cancel before the subscription changes nothing (spec §6, §12).
        @inlinable static var forwardsEveryCompletion: Bool { true }
        @inlinable static var ignoresCancelBeforeSubscription: Bool { true }

        @usableFromInline
        func mirrorChildren(downstream: Any, status: Any) -> [(label: String?, value: Any)] {
            // Apple's children.
            [("downstream", downstream), ("status", status), ("result", accumulator)]
        }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            do {
                accumulator = try next(accumulator, input)
            } catch {
                thrown = error
                return .failure
            }
            return .demand(downstream.receive(accumulator))
        }

        @usableFromInline var thrown: (any Error)?
    }
}

extension Publisher {
    /// Publishes a running total: every value is folded into an accumulator and the new
    /// accumulator is published. `(0...5).publisher.scan(0, +)` gives 0, 1, 3, 6, 10, 15.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Like `scan`, but the closure may throw; an error ends the stream as its failure.
    @inlinable
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

/// The stage hands the upstream's subscription straight down and keeps no reference to it, so it
/// lets go of it exactly when its downstream does (see `Publishers.Map.Inner`).
extension Publishers.Scan.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

import TributaryLocks

extension Publishers {
    /// The publisher `map(_:)` returns: each upstream value goes through `transform` and comes out
    /// as exactly one downstream value, so demand and completion pass through untouched.
    ///
    /// Because nothing about the flow changes, the upstream's own subscription is handed straight to
    /// the downstream (as on Apple's platforms, `print` below a `map` shows the upstream's name).
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// A map never introduces errors of its own.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// Applied to every value on its way downstream.
        public let transform: (Upstream.Output) -> Output

        /// Wraps `upstream` so its values come out transformed; prefer `upstream.map(transform)`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Connects `subscriber` through a lightweight stage that applies `transform`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }

    /// The publisher `tryMap(_:)` returns: like ``Publishers/Map`` but the transform may throw,
    /// which cancels the upstream and fails the downstream with the thrown error.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Anything the upstream or the closure throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// Applied to every value; throwing ends the stream with that error.
        public let transform: (Upstream.Output) throws -> Output

        /// Wraps `upstream` so its values come out transformed; prefer `upstream.tryMap(transform)`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Connects `subscriber` through a stage that can stop the stream when `transform` throws.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Hands values downstream after transforming them; it keeps no state, so it is a struct and
    /// lets the upstream subscription through untouched.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable @inline(__always)
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(transform(input))
        }

        @usableFromInline var description: String { "Map" }
    }

    /// Fuses two maps into one stage, the way Apple's Combine does.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }

    /// Fuses this map with a throwing one into a single `TryMap` stage.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

/// A map stage keeps no reference to the subscription it passes down: it lets go of it exactly
/// when its downstream does.
extension Publishers.Map.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

extension Publishers.TryMap {
    /// A plain map after a throwing one joins it: the result is still one `TryMap` over the same
    /// upstream, as on Apple's platforms, so the chain keeps a single stage (and a single
    /// subscription object) however many maps follow.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Two throwing maps join into one `TryMap`: whichever closure throws first ends the stream
    /// with its error, exactly as the two stages in a row would.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}

extension Publishers.TryMap {
    /// The `tryMap` stage. As Apple's, it does not gate values: they are transformed and passed
    /// on whatever came before (a cancel, a completion, or ahead of the subscription), except
    /// after its own failure, when the transform threw. A cancel before the subscription arrives does nothing.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, ForwardsToHeldSubscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == any Error {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) throws -> Output
        @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)
        /// Set once the transform threw. Only the upstream's serialized calls read and write it.
        @usableFromInline var failed = false

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if failed { return .none }
            let output: Output
            do {
                output = try transform(input)
            } catch {
                failed = true
                let upstream = status.withLock { $0.terminate() }
                upstream?.cancel()
                // The upstream subscription is let go of once the subscriber has heard.
                withExtendedLifetime(upstream) { downstream.receive(completion: .failure(error)) }
                return .none
            }
            return downstream.receive(output)
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if failed { return }
            // Only a completion while subscribed goes on, as Apple's stage does: one ahead of the
            // subscription, or after a completion or a cancel, is dropped.
            if status.withLock({ $0.endIfSubscribed() }) { downstream.receive(completion: completion.eraseError) }
        }

        @usableFromInline var description: String { "TryMap" }
    }
}

extension Publisher {
    /// Turns every value into another one, possibly of another type, leaving errors alone.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.map { $0 * 10 }   // 10, 20, 30
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Like `map`, but the closure may throw; the first error ends the stream as its failure and
    /// cancels the upstream. The failure type becomes `Error`.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }

    /// Substitutes `output` for every `nil` value, the stream counterpart of `??`.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}

import Synchronization

extension Publishers {
    /// The publisher `collect(_:)` returns: values are gathered into arrays of `count` elements,
    /// each published as soon as it is full; when the upstream finishes, a partial last array is
    /// published too. A failure is passed on and the partial array dropped.
    ///
    /// Demand is counted in arrays: a downstream request for `n` becomes `n * count` upstream.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// A batch of up to `count` values.
        public typealias Output = [Upstream.Output]
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are batched.
        public let upstream: Upstream

        /// The size of a full batch.
        public let count: Int

        /// Wraps `upstream`; prefer `upstream.collect(count)`.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            if count <= 0 { APIViolation.invalidOperatorArgument("collect(_:) needs a count > 0, got \(count)") }
            self.upstream = upstream
            self.count = count
        }

        /// Connects `subscriber` through a batching stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == [Upstream.Output], Upstream.Failure == S.Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount {
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let count: Int
        /// Only touched from upstream deliveries, which Combine serialises.
        @exclusivity(unchecked) @usableFromInline var buffer: [Upstream.Output] = []
        @usableFromInline let status = LockedState<SubscriptionStatus>(.awaitingSubscription)
        @usableFromInline let done = Atomic<Bool>(false)

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            let accepted: Bool = status.withLock { status in
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                return true
            }
            guard accepted else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if done.load(ordering: .acquiring) { return .none }
            if buffer.isEmpty { buffer.reserveCapacity(count) }
            buffer.append(input)
            guard buffer.count == count else { return .none }
            let batch = buffer
            buffer = []
            return downstream.receive(batch) * count
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if done.exchange(true, ordering: .acquiringAndReleasing) { return }
            status.withLock { $0 = .terminal }
            let rest = buffer
            buffer = []
            if case .finished = completion, !rest.isEmpty { _ = downstream.receive(rest) }
            downstream.receive(completion: completion)
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:)")
            status.withLock { $0.subscription }?.request(demand * count)
        }

        @usableFromInline
        func cancel() {
            done.store(true, ordering: .releasing)
            status.withLock { $0.terminate() }?.cancel()
        }

        @usableFromInline var description: String { "CollectByCount" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Gathers values into arrays of `count`, publishing each full array, and any remainder when
    /// the upstream finishes.
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

// Sendable when everything it stores is.
extension Publishers.CollectByCount: Sendable where Upstream: Sendable {}

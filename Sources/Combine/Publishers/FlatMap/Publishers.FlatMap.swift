extension Publishers {
    /// Turns every upstream value into a publisher and republishes the values of all those
    /// publishers, interleaved as they arrive.
    ///
    /// `maxPublishers` bounds how many inner publishers are subscribed at once: the upstream is
    /// asked for that many values, and for one more each time an inner publisher finishes, so
    /// `.max(1)` runs the inner publishers one after another. Inner values reach the subscriber
    /// only as its demand allows. An inner publisher finishing does not finish the flat map; it
    /// finishes once the upstream and every inner publisher have finished. Any failure, upstream
    /// or inner, fails it at once and cancels the rest.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The values of the inner publishers.
        public typealias Output = NewPublisher.Output

        /// The failure shared by the upstream and the inner publishers.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed into publishers.
        public let upstream: Upstream

        /// How many inner publishers may be subscribed at the same time.
        public let maxPublishers: Subscribers.Demand

        /// Makes the inner publisher for an upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Flat-maps `upstream` with `transform`, keeping at most `maxPublishers` inner
        /// publishers subscribed at once.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Hands the subscriber its subscription first, then subscribes to the upstream with that
        /// same object, as Apple's operator does.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapSubscription<Upstream.Output, NewPublisher, S>(
                downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscription.start()
            upstream.subscribe(subscription)
        }
    }
}

extension Publisher {
    /// Turns every value into a publisher and republishes the values of all of them, keeping at
    /// most `maxPublishers` subscribed at once.
    ///
    /// Typical use: start asynchronous work per value, for example a request per identifier. The
    /// inner publishers' completions are absorbed; the result finishes when this publisher and
    /// every inner publisher have finished. With `.max(1)` the inner publishers run one at a time,
    /// in order:
    ///
    ///     ids.flatMap(maxPublishers: .max(1)) { id in fetch(id) }
    @inlinable
    public func flatMap<T, P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Self.Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P: Publisher, Self.Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Self.Failure == Never {
    /// Flat-maps a publisher that cannot fail into publishers that can: the upstream is given the
    /// inner publishers' failure type (`setFailureType`) so the two agree.
    @inlinable
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Self.Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> where P: Publisher {
        Publishers.FlatMap(
            upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Flat-maps when neither side can fail; chosen over the `setFailureType` form so the result
    /// keeps this publisher as its upstream.
    @inlinable
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Self.Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P: Publisher, P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Flat-maps into publishers that cannot fail while this one can: each inner publisher is
    /// given this publisher's failure type (`setFailureType`).
    @inlinable
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Self.Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Self.Failure>, Self> where P: Publisher, P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) { transform($0).setFailureType(to: Self.Failure.self) }
    }
}

extension Publishers {
    /// Flattens a publisher of publishers by republishing only the most recent inner publisher.
    ///
    /// Each new inner publisher cancels the previous one, so stale work (a search request for an
    /// outdated query, say) stops as soon as it is superseded. Demand the subscriber has not yet
    /// spent carries over to the new inner publisher. The result finishes once the upstream and
    /// the latest inner publisher have finished, and fails as soon as either fails.
    public struct SwitchToLatest<P, Upstream>: Publisher
    where P: Publisher, P == Upstream.Output, Upstream: Publisher, P.Failure == Upstream.Failure {
        /// The values of the inner publishers.
        public typealias Output = P.Output

        /// The failure shared by the upstream and the inner publishers.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Switches among the publishers `upstream` publishes, keeping only the latest.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Hands the subscriber its subscription first, then subscribes to the upstream with that
        /// same object, as Apple's operator does.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscription.start()
            upstream.subscribe(subscription)
        }
    }
}

extension Publisher where Self.Output: Publisher, Self.Failure == Self.Output.Failure {
    /// Republishes the values of the most recent publisher this publisher has sent, cancelling
    /// the previous one on each switch: the search-as-you-type pattern.
    ///
    ///     query.map { text in search(text) }.switchToLatest()
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Self.Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Self.Failure == Never, Self.Output: Publisher {
    /// Switches among inner publishers that can fail while this publisher cannot: it is given the
    /// inner publishers' failure type (`setFailureType`).
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Self.Output, Publishers.SetFailureType<Self, Self.Output.Failure>> {
        Publishers.SwitchToLatest(upstream: setFailureType(to: Self.Output.Failure.self))
    }
}

extension Publisher where Self.Failure == Never, Self.Output: Publisher, Self.Output.Failure == Never {
    /// Switches when neither side can fail; chosen over the `setFailureType` forms so the result
    /// keeps this publisher as its upstream.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Self.Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Self.Output: Publisher, Self.Output.Failure == Never {
    /// Switches among inner publishers that cannot fail while this one can: each inner publisher
    /// is given this publisher's failure type (`setFailureType`) through a `map`.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<
        Publishers.SetFailureType<Self.Output, Self.Failure>,
        Publishers.Map<Self, Publishers.SetFailureType<Self.Output, Self.Failure>>
    > {
        Publishers.SwitchToLatest(upstream: map { $0.setFailureType(to: Self.Failure.self) })
    }
}

// Sendable when everything it stores is.
extension Publishers.SwitchToLatest: Sendable where Upstream: Sendable {}

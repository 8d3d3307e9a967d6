extension Publishers {
    /// Interleaves the values of any number of publishers of one type, in the order they arrive.
    ///
    /// The variadic and sequence forms exist because the fixed merges stop at eight; a
    /// `MergeMany` of zero publishers finishes as soon as it is subscribed. Demand, ordering and
    /// completion follow ``Publishers/Merge``: each upstream is asked for no more than the
    /// subscriber's outstanding demand, the merge finishes once all have finished and fails as
    /// soon as one fails.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The values are those of the upstreams.
        public typealias Output = Upstream.Output

        /// The failure is the upstreams' failure.
        public typealias Failure = Upstream.Failure

        /// The merged publishers, in subscription order.
        public let publishers: [Upstream]

        /// Merges the given publishers, subscribed in the order given.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Merges the publishers of a sequence, subscribed in its order.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Subscribes to every upstream, in order, behind one subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = MergeSubscription(downstream: subscriber, upstreamCount: publishers.count)
            subscription.start(subscriber)
            for (index, publisher) in publishers.enumerated() {
                publisher.subscribe(subscription.side(index))
            }
            subscription.didSubscribeAll()
        }

        /// Adds one more publisher of the same type, keeping a single flat `MergeMany`.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {
    /// Two merges are equal when they merge equal publishers in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.publishers == rhs.publishers
    }
}

// Sendable when everything it stores is.
extension Publishers.MergeMany: Sendable where Upstream: Sendable {}

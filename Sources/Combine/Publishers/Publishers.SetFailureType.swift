extension Publishers {
    /// The publisher `setFailureType(to:)` returns: the same values from a publisher that cannot
    /// fail, re-typed so it can be combined with publishers that can. No failure is ever sent.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The upstream's values, untouched; only the declared failure type changes.
        public typealias Output = Upstream.Output

        /// The publisher that cannot fail.
        public let upstream: Upstream

        /// Re-types `upstream`; prefer `upstream.setFailureType(to:)`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Connects `subscriber`; the upstream subscription is passed straight through.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(Inner(downstream: subscriber))
        }

        /// Changes the declared failure type again without adding a stage.
        @inlinable
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType<Upstream, E>(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publishers.SetFailureType {
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Upstream.Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable init(downstream: Downstream) { self.downstream = downstream }

        @inlinable
        func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: .finished) }

        @usableFromInline var description: String { "SetFailureType" }
    }
}

extension Publisher where Failure == Never {
    /// Declares a failure type for a publisher that cannot fail, so it type-checks alongside
    /// publishers that can (for example to feed `flatMap` or `combineLatest`). Nothing is ever
    /// failed at run time.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

// Sendable when everything it stores is.
extension Publishers.SetFailureType: Sendable where Upstream: Sendable {}

/// The stage hands the upstream's subscription straight down and keeps no reference to it, so it
/// lets go of it exactly when its downstream does (see `Publishers.Map.Inner`).
extension Publishers.SetFailureType.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

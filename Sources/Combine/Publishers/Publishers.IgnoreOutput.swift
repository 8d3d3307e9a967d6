extension Publishers {
    /// The publisher `ignoreOutput()` returns: it swallows every value and passes on only how the
    /// upstream ends.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No value is ever published.
        public typealias Output = Never
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are ignored.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer `upstream.ignoreOutput()`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Connects `subscriber`; the upstream's subscription is handed downstream and then asked
        /// for everything.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publishers.IgnoreOutput {
    /// The stage `ignoreOutput` attaches upstream. Like Apple's, it keeps no state: each
    /// subscription that arrives goes downstream first and is then asked for everything, the
    /// downstream's own requests reach the upstream unchanged, and every completion is passed on.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream) { self.downstream = downstream }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand { .none }

        @usableFromInline var description: String { "IgnoreOutput" }
    }
}

extension Publisher {
    /// Discards every value, keeping only the completion: useful when only "it finished" matters.
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

// Sendable when everything it stores is.
extension Publishers.IgnoreOutput: Sendable where Upstream: Sendable {}

/// The stage hands the upstream's subscription straight down and keeps no reference to it, so it
/// lets go of it exactly when its downstream does (see `Publishers.Map.Inner`).
extension Publishers.IgnoreOutput.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

import TributaryLocks

extension Publishers {
    /// The publisher `drop(untilOutputFrom:)` returns: upstream values are swallowed until `other`
    /// publishes its first value; from then on they all pass. If `other` completes before
    /// publishing, the stream ends with that completion; a failure of the upstream always ends it.
    ///
    /// As on Apple's platforms, `other` is asked for a single value, and swallowed values use up
    /// the downstream's demand (no replacement is requested).
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream's values, published once `other` has produced its first value.
        public typealias Output = Upstream.Output
        /// The failure type both publishers share.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are gated.
        public let upstream: Upstream

        /// The publisher whose first value opens the gate.
        public let other: Other

        /// Wraps `upstream`; prefer `upstream.drop(untilOutputFrom:)`.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Connects `subscriber`, then subscribes to `other` and finally to `upstream`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Other.Failure == S.Failure {
            let inner = Inner(downstream: subscriber)
            subscriber.receive(subscription: inner)
            other.subscribe(OutputSignalSubscriber<Inner<S>, Other>(watcher: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.DropUntilOutput {
    @usableFromInline
    struct InnerState {
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        @usableFromInline var trigger: SubscriptionStatus = .awaitingSubscription
        @usableFromInline var triggered = false
        @usableFromInline var finished = false
        @usableFromInline var pendingDemand: Subscribers.Demand = .none
        /// Whether an upstream subscription has ever arrived.
        @usableFromInline var everSubscribed = false
        /// The subscriber's demand as Apple's operator counts it: every request and every answer
        /// of the subscriber adds to it, and each value it swallows uses one up (a value it
        /// passes on does not).
        @usableFromInline var demand: Subscribers.Demand = .none
        /// Trigger subscriptions whose value has arrived. Apple's operator lets go of each
        /// without a cancel, which leaves a subject used as the trigger holding the whole chain
        /// until the subject ends; ours are kept and cancelled when the stream ends.
        @usableFromInline var spentTriggers: [any Subscription] = []

        @inlinable init() {}

        /// Lets go of the trigger's current subscription, returning it (for a cancel, or just to
        /// be released, outside the lock). Unless the trigger completed, a subscription it sends
        /// later is accepted and asked for one value, as Apple's operator does after a cancel, an
        /// upstream completion or the trigger's value (spec §12).
        @inlinable
        mutating func letGoOfTrigger() -> (any Subscription)? {
            guard case .subscribed(let held) = trigger else { return nil }
            trigger = .awaitingSubscription
            return held
        }

        /// The stream ends: every trigger subscription still held, to cancel outside the lock.
        @inlinable
        mutating func takeTriggers() -> [any Subscription] {
            var held = spentTriggers
            spentTriggers = []
            if let current = letGoOfTrigger() { held.append(current) }
            return held
        }
    }

    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, OutputSignalWatcher, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let state = LockedState(InnerState())

        @inlinable init(downstream: Downstream) { self.downstream = downstream }

        // MARK: upstream

        @usableFromInline
        func receive(subscription: any Subscription) {
            let pending: Subscribers.Demand? = state.withLock { state in
                guard case .awaitingSubscription = state.upstream, !state.finished else { return nil }
                state.upstream = .subscribed(subscription)
                state.everSubscribed = true
                defer { state.pendingDemand = .none }
                return state.pendingDemand
            }
            guard let pending else { return subscription.cancel() }
            if pending > 0 { subscription.request(pending) }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let pass: Bool = state.withLock { state in
                if !state.finished && state.triggered { return true }
                // A value swallowed (before the trigger, or after a cancel or a completion) is
                // still counted against the demand, and traps beyond it, as on Apple's platforms.
                guard state.demand > 0 else {
                    APIViolation.upstreamContract(
                        "drop(untilOutputFrom:)",
                        state.everSubscribed
                            ? "received a value beyond the outstanding demand"
                            : "received a value before its subscription")
                }
                state.demand -= 1
                return false
            }
            guard pass else { return .none }
            let more = downstream.receive(input)
            if more > 0 { state.withLock { $0.demand += more } }
            return more
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let triggers: [any Subscription]? = state.withLock { state in
                guard !state.finished else { return nil }
                state.finished = true
                state.upstream = .terminal
                return state.takeTriggers()
            }
            guard let triggers else { return }
            for trigger in triggers { trigger.cancel() }
            downstream.receive(completion: completion)
        }

        // MARK: trigger

        @usableFromInline
        func signalSubscribed(_ subscription: any Subscription) {
            let accepted: Bool = state.withLock { state in
                guard case .awaitingSubscription = state.trigger else { return false }
                state.trigger = .subscribed(subscription)
                return true
            }
            if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
        }

        @usableFromInline
        func signalFired() {
            // As Apple's, the trigger's subscription is done with here: a later subscription of
            // the trigger is asked for one value again (spec §12). Apple lets go of it without a
            // cancel; while the stream runs ours is kept, to be cancelled when the stream ends.
            let released = state.withLock { state -> (any Subscription)? in
                guard !state.finished else { return state.letGoOfTrigger() }
                state.triggered = true
                if let spent = state.letGoOfTrigger() { state.spentTriggers.append(spent) }
                return nil
            }
            withExtendedLifetime(released) {}
        }

        @usableFromInline
        func signalCompleted(_ completion: Subscribers.Completion<Upstream.Failure>) {
            var released: [any Subscription] = []
            let upstream: (any Subscription)?? = state.withLock { state in
                // Once the trigger has fired, its completion only lets go of its subscriptions
                // (it has ended; there is nothing left to cancel): a later subscription of the
                // trigger is still asked for one value, as on Apple's platforms.
                guard !state.triggered else {
                    released = state.takeTriggers()
                    return nil
                }
                state.trigger = .terminal
                guard !state.finished else { return nil }
                state.finished = true
                return .some(state.upstream.terminate())
            }
            withExtendedLifetime(released) {}
            guard let upstream else { return }
            upstream?.cancel()
            downstream.receive(completion: completion)
        }

        // MARK: downstream

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
            let upstream: (any Subscription)? = state.withLock { state in
                state.demand += demand
                if case .awaitingSubscription = state.upstream { state.pendingDemand += demand }
                return state.upstream.subscription
            }
            upstream?.request(demand)
        }

        @usableFromInline
        func cancel() {
            let (upstream, triggers) = state.withLock { state in
                state.finished = true
                return (state.upstream.terminate(), state.takeTriggers())
            }
            upstream?.cancel()
            for trigger in triggers { trigger.cancel() }
        }

        @usableFromInline var description: String { "DropUntilOutput" }
    }
}

extension Publisher {
    /// Ignores this publisher's values until `publisher` publishes one, then passes them all on.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

// Sendable when everything it stores is.
extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

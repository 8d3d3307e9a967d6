/// The state of a `catch`/`tryCatch` stage: first connected to the original upstream, then,
/// after its failure, to the replacement publisher the handler made. A pure value: each event
/// method updates the state and says what the caller must do once it has left the lock.
///
/// The outstanding downstream demand is tracked across the switch so that the replacement is
/// asked, as soon as it subscribes, for exactly what the subscriber is still owed.
@usableFromInline
struct CatchStateMachine {
    @usableFromInline
    enum Phase {
        /// Waiting for the original upstream's subscription.
        case awaitingUpstream
        /// Connected to the original upstream.
        case upstream(any Subscription)
        /// The original failed; the handler is running or its publisher has not subscribed yet.
        case switching
        /// Connected to the replacement publisher.
        case replacement(any Subscription)
        /// Completed or cancelled.
        case terminal
    }

    /// What to do with a subscription that has just arrived.
    @usableFromInline
    enum SubscriptionAction {
        /// Hand the stage down to the subscriber (first subscription of the original upstream).
        case passDownstream
        /// Ask the new subscription for the demand carried over.
        case request(any Subscription, Subscribers.Demand)
        /// Nothing to do now.
        case none
        /// The stage does not want it (already ended, or a duplicate): cancel it.
        case cancel(any Subscription)
    }

    @usableFromInline var phase: Phase = .awaitingUpstream
    @usableFromInline var demand: Subscribers.Demand = .none

    @inlinable
    init() {}

    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingUpstream = phase else { return .cancel(subscription) }
        phase = .upstream(subscription)
        return .passDownstream
    }

    @inlinable
    mutating func replacementSubscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .switching = phase else { return .cancel(subscription) }
        phase = .replacement(subscription)
        return demand > 0 ? .request(subscription, demand) : .none
    }

    /// A value from the original upstream: whether to deliver it.
    @inlinable
    mutating func upstreamValue() -> Bool {
        guard case .upstream = phase else { return false }
        demand -= 1
        return true
    }

    /// A value from the replacement: whether to deliver it.
    @inlinable
    mutating func replacementValue() -> Bool {
        guard case .replacement = phase else { return false }
        demand -= 1
        return true
    }

    /// The subscriber returned `more` for a value.
    @inlinable
    mutating func added(_ more: Subscribers.Demand) {
        switch phase {
        case .terminal, .awaitingUpstream: break
        default: demand += more
        }
    }

    /// The original upstream finished: whether to pass the completion on.
    @inlinable
    mutating func upstreamFinished() -> Bool {
        guard case .upstream = phase else { return false }
        phase = .terminal
        return true
    }

    /// The original upstream failed: whether to run the handler.
    @inlinable
    mutating func upstreamFailed() -> Bool {
        guard case .upstream = phase else { return false }
        phase = .switching
        return true
    }

    /// The handler threw (`tryCatch`): whether to deliver the error.
    @inlinable
    mutating func handlerFailed() -> Bool {
        guard case .switching = phase else { return false }
        phase = .terminal
        return true
    }

    /// The replacement completed: whether to pass the completion on.
    @inlinable
    mutating func replacementCompleted() -> Bool {
        guard case .replacement = phase else { return false }
        phase = .terminal
        return true
    }

    /// The subscriber asked for more: the subscription to forward the request to, if any.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        switch phase {
        case .upstream(let subscription), .replacement(let subscription):
            demand += more
            return subscription
        case .switching:
            demand += more
            return nil
        case .awaitingUpstream, .terminal:
            return nil
        }
    }

    /// The subscriber cancelled: the subscription to cancel, if any.
    @inlinable
    mutating func cancel() -> (any Subscription)? {
        defer { phase = .terminal }
        switch phase {
        case .upstream(let subscription), .replacement(let subscription): return subscription
        default: return nil
        }
    }
}

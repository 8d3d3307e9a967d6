/// The state of a `catch`/`tryCatch` stage: first connected to the original upstream, then,
/// after its failure, to the replacement publisher the handler made. A pure value: each event
/// method updates the state and says what the caller must do once it has left the lock.
///
/// The outstanding downstream demand is counted across the switch: every value is counted against
/// it (a value beyond it is a contract violation, which traps as on Apple's platforms), and the
/// replacement is asked, as soon as it subscribes, for exactly what the subscriber is still owed.
@usableFromInline
struct CatchStateMachine {
    @usableFromInline
    enum Phase {
        /// Waiting for the original upstream's subscription.
        case awaitingUpstream
        /// Connected to the original upstream.
        case upstream(any Subscription)
        /// The subscriber cancelled before any failure: the original upstream's values are still
        /// passed on, its failure is ignored.
        case upstreamCancelled
        /// The original failed; the handler is running or its publisher has not subscribed yet.
        case switching
        /// Connected to the replacement publisher.
        case replacement(any Subscription)
        /// The subscriber cancelled after the switch: the replacement's values are still passed
        /// on, whatever the demand, its completions are not, and a further subscription from it
        /// is cancelled.
        case replacementCancelled
        /// Completed.
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

    /// What to do with a value.
    @usableFromInline
    enum ValueAction {
        case deliver
        case ignore
        /// The upstream broke the contract; trap with this rule.
        case violation(String)
    }

    /// What to do with a completion of the original upstream.
    @usableFromInline
    enum CompletionAction {
        case ignore
        /// Pass `finished` on.
        case finish
        /// Run the handler.
        case recover
        case violation(String)
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

    /// Counts a value against the outstanding demand, or reports the violation.
    @inlinable
    mutating func take() -> ValueAction {
        guard demand > 0 else { return .violation("received a value beyond the outstanding demand") }
        demand -= 1
        return .deliver
    }

    /// A value from the original upstream.
    @inlinable
    mutating func upstreamValue() -> ValueAction {
        switch phase {
        case .awaitingUpstream: return .violation("received a value before its subscription")
        case .upstream, .upstreamCancelled: return take()
        default:
            // After its completion the original is still held to the demand, as on Apple's
            // platforms, but its values go nowhere.
            if demand == .none { return .violation("received a value beyond the outstanding demand") }
            return .ignore
        }
    }

    /// A value from the replacement.
    @inlinable
    mutating func replacementValue() -> ValueAction {
        switch phase {
        case .replacement: return take()
        case .replacementCancelled:
            // After the subscriber's cancel Apple's stage still forwards the replacement's values
            // but no longer holds them to the demand: one that comes with none left is delivered,
            // not a violation (spec §17).
            if demand > 0 { demand -= 1 }
            return .deliver
        default: return .ignore
        }
    }

    /// The subscriber returned `more` for a value.
    @inlinable
    mutating func added(_ more: Subscribers.Demand) {
        if case .terminal = phase { return }
        demand += more
    }

    /// The original upstream finished.
    @inlinable
    mutating func upstreamFinished() -> CompletionAction {
        switch phase {
        case .awaitingUpstream, .upstreamCancelled: return .ignore
        case .upstream:
            phase = .terminal
            return .finish
        default: return .ignore
        }
    }

    /// The original upstream failed.
    @inlinable
    mutating func upstreamFailed() -> CompletionAction {
        switch phase {
        case .awaitingUpstream: return .violation("received a failure before its subscription")
        case .upstream:
            phase = .switching
            return .recover
        case .upstreamCancelled: return .ignore
        case .switching, .replacement, .replacementCancelled:
            return .violation("received a second failure from its upstream")
        case .terminal: return .ignore
        }
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

    /// The sources whose values may reach the subscriber without the lock (``CatchLanes``): those
    /// whose every value the machine passes on and counts without changing anything, because the
    /// demand is unlimited (and, once unlimited, stays so). Each bit is cleared only by a
    /// completion of its own source, which that source never sends while one of its values is
    /// being delivered; every other change (more demand, a cancel) either sets a bit or leaves
    /// values of that source flowing as they did.
    @inlinable
    var lockFreeLanes: UInt8 {
        guard demand == .unlimited else { return 0 }
        switch phase {
        case .upstream, .upstreamCancelled: return CatchLanes.upstream
        case .replacement, .replacementCancelled: return CatchLanes.replacement
        case .awaitingUpstream, .switching, .terminal: return 0
        }
    }

    /// The subscriber asked for more: the subscription to forward the request to, if any.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        switch phase {
        case .upstream(let subscription), .replacement(let subscription):
            demand += more
            return subscription
        case .switching, .upstreamCancelled, .replacementCancelled:
            demand += more
            return nil
        case .awaitingUpstream, .terminal:
            return nil
        }
    }

    /// The subscriber cancelled: the subscription to cancel, if any. A cancel while the
    /// replacement is being subscribed is ignored, as Apple's stage does.
    @inlinable
    mutating func cancel() -> (any Subscription)? {
        switch phase {
        case .upstream(let subscription):
            phase = .upstreamCancelled
            return subscription
        case .replacement(let subscription):
            phase = .replacementCancelled
            return subscription
        case .awaitingUpstream:
            phase = .terminal
            return nil
        default:
            return nil
        }
    }
}

/// The bits of ``CatchStateMachine/lockFreeLanes``: one per source of values.
@usableFromInline
enum CatchLanes {
    /// The original upstream's values go straight to the subscriber.
    @usableFromInline static let upstream: UInt8 = 1
    /// The replacement's values go straight to the subscriber.
    @usableFromInline static let replacement: UInt8 = 2
}

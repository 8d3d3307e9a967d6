import TributaryLocks

/// Where a subscriber-side stage stands with its upstream. Shared by the operators that keep their
/// upstream subscription (the ones that wrap it rather than hand it straight down).
@usableFromInline
enum SubscriptionStatus {
    /// No subscription has arrived yet.
    case awaitingSubscription
    /// Connected; the upstream subscription is kept to forward `request` and `cancel`.
    case subscribed(any Subscription)
    /// Completed or cancelled: the upstream is released and every later event is ignored.
    case terminal

    /// The upstream subscription while connected.
    @inlinable
    var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Whether a subscription is held. It tests the case in place: reading ``subscription`` to
    /// compare it with `nil` copies the existential out and destroys it again through its value
    /// witnesses, about 130 instructions, which a stage that checks per value pays every time.
    @inlinable
    var isSubscribed: Bool {
        if case .subscribed = self { return true }
        return false
    }

    /// Whether the stage has completed or been cancelled.
    @inlinable
    var isTerminal: Bool {
        if case .terminal = self { return true }
        return false
    }

    /// Keeps `subscription` if none has arrived yet and returns `true`; otherwise (a second
    /// subscription, or the stage is already done) returns `false`, and the caller cancels it after
    /// leaving the lock.
    @inlinable
    mutating func accept(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = self else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// Moves to `.terminal` and returns the subscription that was held, so the caller can cancel
    /// it after leaving the lock.
    @inlinable
    mutating func terminate() -> (any Subscription)? {
        let held = subscription
        self = .terminal
        return held
    }
}

extension SubscriptionStatus {
    /// Ends the stage if it is subscribed and returns the subscription it held: the one to cancel
    /// on a downstream cancel. Ahead of the subscription (Apple's stages take a late subscription
    /// as if nothing had happened) and once ended it does nothing and returns `nil`.
    @inlinable
    mutating func terminateIfSubscribed() -> (any Subscription)? {
        guard case .subscribed = self else { return nil }
        return terminate()
    }

    /// Ends the stage for an upstream completion: whether the completion goes on (only one that
    /// arrives while subscribed does).
    @inlinable
    mutating func endIfSubscribed() -> Bool {
        guard case .subscribed = self else { return false }
        self = .terminal
        return true
    }
}

/// The lock-guarded state of a stage that keeps its upstream's status beside the subscriber it
/// delivers to, and hands itself to that subscriber once the upstream's subscription arrives
/// (`subscribe(on:)`, `measureInterval`, `delay`, `debounce`, `throttle`,
/// `collect(_:options:)` by time). The subscriber is let go of only after the status has left
/// `awaitingSubscription`, so while a subscription may still be taken the subscriber is there.
@usableFromInline
protocol HoldsUpstreamAndSubscriber {
    associatedtype Downstream

    /// Where the stage stands with its upstream.
    var upstream: SubscriptionStatus { get set }

    /// The subscriber, until the stream ends.
    var downstream: Downstream? { get }
}

extension HoldsUpstreamAndSubscriber {
    /// Keeps `subscription` if none has arrived yet and returns the subscriber to hand the stage
    /// to; `nil` (a second subscription, or the stage has ended) tells the caller to cancel
    /// `subscription` after leaving the lock.
    @inlinable
    mutating func subscribed(_ subscription: any Subscription) -> Downstream? {
        guard let downstream, upstream.accept(subscription) else { return nil }
        return downstream
    }
}

/// A stage that keeps its upstream's subscription in a ``SubscriptionStatus``, hands itself
/// downstream as the subscription, and passes the downstream's requests and cancel to the
/// upstream's unchanged (`tryMap`, `output(in:)`, `encode`, `decode`). A second subscription, or
/// one after the stage ended, is cancelled; a cancel ahead of the subscription does nothing, as
/// Apple's: a late subscription is taken as if nothing had happened. These run once per
/// subscription, or come through the `Subscription` existential, so they stay out of line.
@usableFromInline
protocol ForwardsToHeldSubscription: Subscriber, Subscription, CustomStringConvertible {
    associatedtype Downstream: Subscriber

    var downstream: Downstream { get }

    /// Where the stage stands with its upstream.
    var status: LockedState<SubscriptionStatus> { get }
}

extension ForwardsToHeldSubscription {
    @usableFromInline
    func receive(subscription: any Subscription) {
        guard status.withLock({ $0.accept(subscription) }) else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Publishers.\(description) subscription request(_:)")
        status.withLock { $0.subscription }?.request(demand)
    }

    @usableFromInline
    func cancel() {
        status.withLock { $0.terminateIfSubscribed() }?.cancel()
    }
}

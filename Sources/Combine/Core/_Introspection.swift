/// A debugging hook that watches every attach, subscription, value, completion, demand request
/// and cancellation passing through `Combine`, while it is enabled.
///
/// Adopt it in a class, implement only the callbacks you care about (each has an empty default),
/// and call ``enable()``. From then on every ``Publisher/subscribe(_:)-4u8kn`` reports the attach
/// before and after it happens, and the subscriber and subscription it connects are watched for
/// the rest of their life: each event is reported once just before it is delivered and once
/// just after it returns, so events that happen inside another one (a `Just` delivering its value
/// and completion from inside `request(_:)`) appear nested between that event's two calls.
///
/// The objects reported are the real ones (your subscriber, the publisher's subscription), and
/// the watching is invisible to them: descriptions, mirrors and ``CombineIdentifier``s stay the
/// same, so `print` output and recorded histories do not change while a handler is enabled.
///
/// Callbacks run on whatever thread the event happens on, possibly several at once, and never
/// under a lock of the library, so a handler may subscribe, request or cancel from a callback.
/// While no handler is enabled the hook costs one atomic load per `subscribe` and nothing per value.
///
/// As in Apple's Combine, every operator attaches its own subscriber to its upstream through
/// `subscribe(_:)`, so a pipeline reports one attach per stage, innermost last; a subscription an
/// operator hands through unchanged (`map`, `filter`, …) is watched once, so its requests and
/// cancels are reported once.
public protocol _Introspection: AnyObject {
    /// Called just before `publisher` attaches `subscriber` (before its `receive(subscriber:)` runs).
    func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input

    /// Called once `publisher`'s `receive(subscriber:)` has returned for `subscriber`.
    func didReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input

    /// Called just before `subscriber` is handed `subscription`.
    func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription)

    /// Called once `subscriber` has returned from `receive(subscription:)`, including any demand it
    /// requested and any values delivered synchronously because of it.
    func didReceive<S: Subscriber>(subscriber: S, subscription: Subscription)

    /// Called just before `input` is delivered to `subscriber`.
    func willReceive<S: Subscriber>(subscriber: S, input: S.Input)

    /// Called after `subscriber` took `input`, with the additional demand it returned.
    func didReceive<S: Subscriber>(subscriber: S, input: S.Input, resultingDemand: Subscribers.Demand)

    /// Called just before `completion` is delivered to `subscriber`.
    func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>)

    /// Called once `subscriber` has returned from `receive(completion:)`.
    func didReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>)

    /// Called just before `demand` more values are requested from `subscription`.
    func willRequest(subscription: Subscription, _ demand: Subscribers.Demand)

    /// Called once `subscription.request(demand)` has returned, after any values it delivered
    /// synchronously.
    func didRequest(subscription: Subscription, _ demand: Subscribers.Demand)

    /// Called just before `subscription` is cancelled.
    func willCancel(subscription: Subscription)

    /// Called once `subscription.cancel()` has returned.
    func didCancel(subscription: Subscription)
}

extension _Introspection {
    /// Ignores the attach; implement it to observe publishers gaining subscribers.
    public func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {}

    /// Ignores the end of the attach; implement it to observe publishers gaining subscribers.
    public func didReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {}

    /// Ignores the subscription being handed over; implement it to observe subscriptions.
    public func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {}

    /// Ignores the end of the subscription hand-over; implement it to observe subscriptions.
    public func didReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {}

    /// Ignores the value about to be delivered; implement it to observe values.
    public func willReceive<S: Subscriber>(subscriber: S, input: S.Input) {}

    /// Ignores the delivered value and the demand it produced; implement it to observe values.
    public func didReceive<S: Subscriber>(subscriber: S, input: S.Input, resultingDemand: Subscribers.Demand) {}

    /// Ignores the completion about to be delivered; implement it to observe completions.
    public func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {}

    /// Ignores the delivered completion; implement it to observe completions.
    public func didReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {}

    /// Ignores the demand about to be requested; implement it to observe back-pressure.
    public func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) {}

    /// Ignores the completed request; implement it to observe back-pressure.
    public func didRequest(subscription: Subscription, _ demand: Subscribers.Demand) {}

    /// Ignores the cancellation about to happen; implement it to observe cancellations.
    public func willCancel(subscription: Subscription) {}

    /// Ignores the completed cancellation; implement it to observe cancellations.
    public func didCancel(subscription: Subscription) {}

    /// Starts reporting events to this handler, from the next `subscribe` on, and for pipelines
    /// already watched because another handler was enabled when they attached.
    ///
    /// Handlers are told in the order they were enabled. Enabling a handler that is already
    /// enabled changes nothing: it is held once, by identity, until ``disable()``.
    public func enable() {
        IntrospectionRegistry.enable(self)
    }

    /// Stops reporting events to this handler, including events of pipelines that are already
    /// running. Disabling a handler that is not enabled does nothing.
    public func disable() {
        IntrospectionRegistry.disable(self)
    }

    /// Whether this very instance is currently enabled (compared by identity, not equality).
    public var isEnabled: Bool {
        IntrospectionRegistry.contains(self)
    }
}

import Combine

/// A publisher that keeps the subscriber attached to it and sends nothing until the test says so,
/// so that a test can reach the operator's upstream-facing subscriber before its subscription
/// arrives: cancel it (``cancelSubscriber()``), send it events, then hand it a subscription.
public final class LateSubscriptionUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private var subscriber: AnySubscriber<Output, Failure>?
    private var cancelSubscriberHook: (() -> Void)?

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        cancelSubscriberHook = (subscriber as? any Cancellable).map { cancellable in { cancellable.cancel() } }
    }

    /// Calls `cancel()` on the attached subscriber, which must be `Cancellable`.
    public func cancelSubscriber() {
        precondition(cancelSubscriberHook != nil, "the attached subscriber is not Cancellable")
        cancelSubscriberHook?()
    }

    public func send(subscription: any Subscription) { subscriber?.receive(subscription: subscription) }

    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand { subscriber?.receive(value) ?? .none }

    public func send(completion: Subscribers.Completion<Failure>) { subscriber?.receive(completion: completion) }
}

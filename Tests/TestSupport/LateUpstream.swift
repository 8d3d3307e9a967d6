import Combine

/// A hand-driven publisher that keeps its subscriber and hands it a subscription only when the
/// test says so: for checking what an operator does before its upstream's subscription arrives.
/// Like a misbehaving upstream, it sends whatever the test tells it to, whenever.
public final class LateUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = Locked<AnySubscriber<Output, Failure>?>(nil)

    /// The subscription handed over by ``subscribe()``; records requests and cancels.
    public let subscription = RecordingSubscription(name: "LateUpstream")

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock { $0 = AnySubscriber(subscriber) }
    }

    /// Hands ``subscription`` to the subscriber.
    public func subscribe() {
        lock.withLock { $0 }?.receive(subscription: subscription)
    }

    /// Sends `value` to the subscriber and returns the demand it answered.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        lock.withLock { $0 }?.receive(value) ?? .none
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { $0 }?.receive(completion: completion)
    }
}

/// A type that can deliver a sequence of values over time to one or more subscribers.
///
/// A publisher describes work; nothing happens until a ``Subscriber`` attaches with
/// ``subscribe(_:)-4u8kn``. The publisher then hands the subscriber a ``Subscription`` through
/// which the subscriber asks for values (``Subscribers/Demand``). The publisher sends at most as
/// many values as were requested, then at most one completion, and nothing after it.
///
/// Implement ``receive(subscriber:)`` to create a publisher of your own; subscribe with
/// ``subscribe(_:)-4u8kn``, which is what every operator and `sink` calls.
public protocol Publisher<Output, Failure> {
    /// The type of the values this publisher delivers.
    associatedtype Output

    /// The type of error this publisher can fail with; `Never` when it cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber` to this publisher.
    ///
    /// Called by ``subscribe(_:)-4u8kn``. Implementations must call
    /// `subscriber.receive(subscription:)` exactly once before delivering anything else.
    func receive<S: Subscriber>(subscriber: S) where Self.Failure == S.Failure, Self.Output == S.Input
}

extension Publisher {
    /// Attaches `subscriber` to this publisher.
    ///
    /// Always use this method, rather than ``receive(subscriber:)``, to connect a subscriber: it is
    /// the entry point the library instruments. While an `_Introspection` handler is enabled, the
    /// attach is reported to it and the subscriber is watched for its whole life; otherwise the
    /// cost is one atomic load before calling ``receive(subscriber:)``.
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S) where Self.Failure == S.Failure, Self.Output == S.Input {
        if _slowPath(IntrospectionRegistry.isActive) {
            subscribeIntrospected(subscriber)
        } else {
            receive(subscriber: subscriber)
        }
    }
}

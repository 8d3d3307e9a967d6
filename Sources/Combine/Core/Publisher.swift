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
    // Transparent, not just inlinable: every operator attaches to its upstream through this method
    // (so an enabled handler sees those attaches too), and a chain of operators would otherwise
    // nest one specialisation of it inside another. The optimiser stops specialising a generic
    // function that recurs in such a chain, after which each value of a pipeline of three or more
    // operators runs unspecialised (`scan→removeDuplicates→collect` costs five times as many
    // instructions per value). Inlined before specialisation, it never appears in the chain.
    /// Attaches `subscriber` to this publisher.
    ///
    /// Always use this method, rather than ``receive(subscriber:)``, to connect a subscriber: it is
    /// the entry point the library instruments. While an `_Introspection` handler is enabled, the
    /// attach is reported to it and the subscriber is watched for its whole life; otherwise the
    /// cost is one atomic load before calling ``receive(subscriber:)``.
    @_transparent
    public func subscribe<S: Subscriber>(_ subscriber: S) where Self.Failure == S.Failure, Self.Output == S.Input {
        if _slowPath(IntrospectionRegistry.isActive) {
            subscribeIntrospected(subscriber)
        } else {
            receive(subscriber: subscriber)
        }
    }
}

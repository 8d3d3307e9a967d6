/// A publisher you can push values into from imperative code.
///
/// A subject is the bridge from non-reactive code into a pipeline: call ``send(_:)`` to publish a
/// value to every current subscriber that has demand, ``send(completion:)`` to end the stream.
/// Subjects are reference types.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Publishes `value` to the subscribers.
    func send(_ value: Self.Output)

    /// Ends the stream for every subscriber, current and future.
    func send(completion: Subscribers.Completion<Self.Failure>)

    /// Gives the subject an upstream subscription, used when the subject itself subscribes to a
    /// publisher (see ``Publisher/subscribe(_:)-3fk20``). The subject requests unlimited demand
    /// from it once it has a subscriber of its own.
    func send(subscription: any Subscription)
}

extension Subject where Self.Output == Void {
    /// Publishes the single `Void` value; shorthand for `send(())`.
    @inlinable
    public func send() {
        send(())
    }
}

/// A type that receives a subscription, then values and at most one completion, from a publisher.
///
/// The publisher calls the three methods in order: ``receive(subscription:)`` once, then
/// ``receive(_:)`` no more often than the subscriber has asked for, then optionally
/// ``receive(completion:)`` once. Calls into one subscriber never overlap.
///
/// The demand a subscriber returns from ``receive(_:)`` adds to what it already asked for; it can
/// never take demand back.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The type of the values this subscriber accepts.
    associatedtype Input

    /// The type of error this subscriber accepts; `Never` when it does not accept failures.
    associatedtype Failure: Error

    /// Tells the subscriber it has been attached, and hands it the means to request values and to
    /// cancel.
    func receive(subscription: any Subscription)

    /// Delivers one value, and returns how many more values the subscriber wants on top of its
    /// outstanding demand (`.none` for no more).
    func receive(_ input: Self.Input) -> Subscribers.Demand

    /// Tells the subscriber the publisher finished normally or failed. Nothing follows it.
    func receive(completion: Subscribers.Completion<Self.Failure>)
}

extension Subscriber where Self.Input == Void {
    /// Delivers the single value of type `Void`; shorthand for `receive(())`.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A publisher that emits one value and then finishes.
///
/// Use it to start a pipeline from a value you already have, or to substitute a value in
/// operators such as `flatMap` and `catch`. It cannot fail. Each subscriber gets its own copy of
/// the value as soon as it requests anything.
public struct Just<Output>: Publisher {
    /// `Just` never fails.
    public typealias Failure = Never

    /// The value every subscriber receives.
    public let output: Output

    /// Makes a publisher that delivers `output` to each subscriber, then finishes.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Hands `subscriber` a subscription that delivers the value and `.finished` on first demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        // The checks fold away once specialised (unspecialised, a value-type subscriber costs one
        // metatype check rather than a cast). A `Sink` gets a subscription that allocates
        // nothing; any other subscriber gets the shared one-value subscription.
        if S.self is AnyObject.Type, let sink = subscriber as? Subscribers.Sink<Output, Never> {
            sink.receiveOneValue(output)
        } else {
            subscriber.receive(subscription: OneValueSubscription(name: "Just", value: output, downstream: subscriber))
        }
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// A publisher that fails at once with a given error, without sending a value.
///
/// The subscriber receives an inert subscription (`print()` shows it as `(Empty)`, as on Apple's
/// platforms) and then the failure, whether or not it asked for anything.
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error every subscriber receives.
    public let error: Failure

    /// Makes a publisher that fails with `error`.
    @inlinable
    public init(error: Failure) {
        self.error = error
    }

    /// Makes a publisher that fails with `failure`, with the output type spelled out for places
    /// where it cannot be inferred.
    @inlinable
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    /// Hands `subscriber` an inert subscription, then the failure.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable where Failure: Sendable {}

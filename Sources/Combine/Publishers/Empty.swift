/// A publisher that never sends a value, and either finishes at once or never completes.
///
/// Useful as the "nothing" case in `flatMap` or `catch`, and (with `completeImmediately: false`)
/// as a publisher that stays silent forever, for tests.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether subscribers receive `.finished` right after their subscription.
    public let completeImmediately: Bool

    /// Makes an empty publisher; by default it finishes immediately.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Makes an empty publisher with the output and failure types spelled out, for places where
    /// they cannot be inferred.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.init(completeImmediately: completeImmediately)
    }

    /// Hands `subscriber` an inert subscription and, if requested, `.finished`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Two empty publishers are equal when they complete the same way.
    @inlinable
    public static func == (lhs: Empty<Output, Failure>, rhs: Empty<Output, Failure>) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}

extension Empty: Sendable {}

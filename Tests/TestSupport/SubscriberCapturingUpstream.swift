import Combine

/// A publisher that keeps the subscriber attached to it and sends it nothing, so that a test can
/// look at an operator's own upstream-facing stage (its description, mirror and conformances) or
/// drive it by hand.
public final class SubscriberCapturingUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// The last subscriber attached, as the operator made it.
    public private(set) var subscriber: Any = ()

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
    }
}

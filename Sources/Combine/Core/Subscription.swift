/// The connection between one publisher and one subscriber.
///
/// Through it the subscriber asks for values with ``request(_:)`` and stops the flow with
/// `cancel()`. Both may be called from any thread, at any time, including after completion, when
/// they do nothing.
///
/// Asking for `.none` (zero values) is a programming error that Apple's Combine traps on in its
/// own subscriptions; so do ours.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Asks the publisher for up to `demand` more values. Demand accumulates.
    func request(_ demand: Subscribers.Demand)
}

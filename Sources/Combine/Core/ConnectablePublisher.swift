/// A publisher that starts producing only when ``connect()`` is called, so several subscribers can
/// attach before the first value flows.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Starts the publisher. Cancel the returned value to stop it.
    func connect() -> any Cancellable
}

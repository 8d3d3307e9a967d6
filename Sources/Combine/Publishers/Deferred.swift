/// A publisher that creates its real publisher only when a subscriber arrives, once per
/// subscriber.
///
/// Wrap an eager publisher (a `Future`, a network call) in `Deferred` to run its work at subscribe
/// time instead of at creation, and again for every subscriber; this is what makes `retry` work
/// with a `Future`.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The values of the created publisher.
    public typealias Output = DeferredPublisher.Output

    /// The failure of the created publisher.
    public typealias Failure = DeferredPublisher.Failure

    /// Called once for each subscriber, at subscribe time.
    public let createPublisher: () -> DeferredPublisher

    /// Makes a publisher that calls `createPublisher` for each new subscriber.
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a fresh publisher and attaches `subscriber` to it.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
        createPublisher().subscribe(subscriber)
    }
}

import Synchronization

/// A subject that republishes the values sent into it to its current subscribers, keeping no
/// value of its own.
///
/// Use it to bridge imperative code (callbacks, delegates, user actions) into a pipeline. A
/// subscriber receives only the values sent after it subscribed and while it has outstanding
/// demand; values sent with no subscriber are lost. After ``send(completion:)`` the subject
/// ignores further values, and a subscriber that arrives later receives the completion at once.
///
/// Thread safety: `send`, `send(completion:)`, subscribing and cancelling may happen on any threads
/// at once. Subscribers are served in the order they subscribed (Apple leaves the order
/// unspecified). One thread at a time delivers. A value sent reentrantly, from inside a
/// subscriber, is delivered at once, nested in the delivery in progress, exactly as Apple's
/// subjects do: every subscriber receives it before that `send` returns, so subscribers after the
/// sender see the new value before the one in progress (and a completion sent that way ends the
/// delivery in progress for them). A value sent from another thread while one is delivering waits
/// for that delivery: the delivering thread hands it to every subscriber right after what it is
/// doing, and that `send` returns once it has, as on Apple's platforms (so after `send` returns,
/// every subscriber has the value, and a fast producer is slowed to its subscribers' pace instead
/// of filling a queue). As with Apple's subjects, a subscriber that waits for another thread
/// which is sending into the same subject deadlocks. No lock is held while a subscriber runs.
///
/// When the subject subscribes to a publisher itself (``Publisher/subscribe(_:)-3fk20``), it asks
/// that upstream for unlimited values as soon as one of its own subscribers asks for anything.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    // @unchecked Sendable: all mutable state is in `dispatcher`, which guards it.

    @usableFromInline
    typealias Dispatcher = SubjectDispatcher<Output, Failure>

    @usableFromInline
    let dispatcher: Dispatcher

    /// Makes a subject with no subscribers.
    @inlinable
    public init() {
        // In the body rather than as the property's initial value, so that a caller's module
        // specialises it, with the dispatcher's job runner.
        dispatcher = Dispatcher(name: "PassthroughSubject", sendsWithoutLock: true)
    }

    deinit {
        dispatcher.cancelUpstreams()
    }

    /// Attaches `subscriber`; after completion it receives the completion immediately.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        dispatcher.subscribe(subscriber, parent: self)
    }

    /// Sends `input` to every subscriber that has outstanding demand.
    @inlinable
    public func send(_ input: Output) {
        dispatcher.send(input)
    }

    /// Ends the stream for every subscriber, current and future; later calls are ignored.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        dispatcher.completeAndDropUpstreams(completion)
    }

    /// Keeps `subscription` as an upstream and asks it for unlimited values once any subscriber
    /// of this subject has asked for values (at once if one already has).
    ///
    /// The subject is where demand aggregates: it does not pass its subscribers' individual
    /// demands upstream, it asks for everything as soon as anyone wants something, and drops
    /// values for subscribers without outstanding demand. Until the first demand it asks for
    /// nothing, so an upstream connected before any subscriber does not start producing into the
    /// void.
    @inlinable
    public func send(subscription: any Subscription) {
        dispatcher.keepUpstream(subscription, demandingAtOnce: false)
    }
}

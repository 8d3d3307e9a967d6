/// A subject that holds a current value and gives it to each new subscriber, then republishes
/// every later value.
///
/// Read and write the current value with ``value``; writing it publishes it, exactly like
/// ``send(_:)``, which also updates ``value``. A subscriber receives the value current at the
/// moment it first asks for values, then the values sent while it has outstanding demand. After
/// ``send(completion:)`` values are ignored (``value`` no longer changes), and late subscribers
/// receive the completion at once.
///
/// Thread safety and ordering are those of ``PassthroughSubject``: any thread may send, subscribe
/// or cancel; subscribers are served in subscription order (Apple leaves the order unspecified);
/// one thread at a time delivers; a value sent from inside a subscriber is delivered at once,
/// nested, as Apple does, and a send from another thread meanwhile waits until its value has
/// been delivered to everyone, right after the value in progress. A subscriber gets the
/// current value inside its first `request(_:)`, as with Apple's subject (unless another thread
/// is delivering at that moment: then right after its `receive(subscription:)` returns).
/// ``value`` changes when the value is sent, before it is delivered; the value it replaces is
/// released when that send returns. Reading ``value`` takes no lock, and neither does a send that
/// finds nobody delivering: a CurrentValueSubject costs what a ``PassthroughSubject`` costs.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    // @unchecked Sendable: all mutable state is in `dispatcher`, which guards it.

    @usableFromInline
    typealias Dispatcher = SubjectDispatcher<Output, Failure>

    @usableFromInline
    let dispatcher: Dispatcher

    /// Makes a subject whose current value is `value`.
    @inlinable
    public init(_ value: Output) {
        dispatcher = Dispatcher(name: "CurrentValueSubject", sendsWithoutLock: true, currentValue: value)
    }

    deinit {
        dispatcher.cancelUpstreams()
    }

    /// The current value. Setting it publishes the new value to the subscribers; after the subject
    /// has completed, setting it still changes it (nothing is sent), as with Apple's subject,
    /// whereas ``send(_:)`` is ignored then.
    @inlinable
    public var value: Output {
        get { dispatcher.readCurrent() }
        set { dispatcher.sendReplacingCurrent(newValue, evenAfterCompletion: true) }
    }

    /// Attaches `subscriber`; it receives the current value on its first demand. After completion
    /// it receives the completion immediately.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        dispatcher.subscribe(subscriber, parent: self)
    }

    /// Makes `input` the current value and sends it to every subscriber with outstanding demand.
    /// Ignored after completion.
    @inlinable
    public func send(_ input: Output) {
        dispatcher.sendReplacingCurrent(input)
    }

    /// Ends the stream for every subscriber, current and future; later calls are ignored.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        dispatcher.completeAndDropUpstreams(completion)
    }

    /// Keeps `subscription` as an upstream and asks it at once for unlimited values, as Apple's
    /// subject does, with or without subscribers: the subject always has a current value to keep
    /// up to date, so `Just(7).subscribe(subject)` leaves `subject.value == 7`. Each call asks
    /// again, even for a subscription it already keeps; the subject cancels the subscriptions it
    /// keeps when it is released.
    @inlinable
    public func send(subscription: any Subscription) {
        dispatcher.keepUpstream(subscription, demandingAtOnce: true)
    }
}

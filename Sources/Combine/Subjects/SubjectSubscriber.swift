import Synchronization
import TributaryLocks

/// The subscriber that connects a publisher to a subject (``Publisher/subscribe(_:)-3fk20`` and
/// `AnySubscriber(subject)`).
///
/// It hands itself to the subject as the upstream subscription (`send(subscription:)`), so the
/// subject, not this stage, decides when to ask for values; requests and cancels are forwarded to
/// the real upstream.
///
/// The subject is held weakly: the subject keeps this stage among its upstream subscriptions, so a
/// strong reference back would be a cycle that outlives cancellation. A subject nobody else holds
/// has no subscribers and nobody to read it, so losing it loses nothing.
///
/// Its edges are Apple's (spec §18, §8): values and completions that arrive before the
/// subscription are ignored; a second subscription is ignored, not cancelled; a `cancel()` before
/// the subscription does nothing, so a subscription arriving later is taken as if it had not
/// happened. Unlike Apple's, it lets go of the upstream subscription at the completion, before
/// the subject hears of it, so nothing it is asked afterwards (a cancel from a subscriber tidying
/// up in its completion handler) reaches the finished upstream: `DifferentialTests/deviations.md`,
/// keep-multicast-upstream-release.
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Output
    @usableFromInline typealias Failure = Downstream.Failure

    /// Only the runtime clears it, when the subject goes away. A `let`, so that reading it for
    /// every value costs no dynamic exclusivity check.
    @usableFromInline
    weak let subject: Downstream?

    /// For a `PassthroughSubject`, the dispatcher its sends go to, held strongly: values and
    /// the completion go straight to it. Going through `subject` costs a weak load per value,
    /// which retains the subject, and a weakly referenced object pays the runtime's slow path for
    /// every retain and release (together about 150 instructions per value behind `share()`).
    ///
    /// This keeps no more alive than the weak reference does. The dispatcher holds its subject
    /// only while the subject has subscribers; once the subject is gone, it has no subscribers
    /// and holds nothing of the user's. The cycle through its list of upstreams ends when the
    /// subject completes (it drops the list) or goes away (it cancels and drops the list).
    /// A `CurrentValueSubject` keeps its current value in its dispatcher, which must go with the
    /// subject, so it is reached through `subject`, as any other subject is.
    @usableFromInline
    let dispatcher: SubjectDispatcher<Input, Failure>?

    /// Upstream subscription, guarded by its own lock; never used while the lock is held.
    @usableFromInline
    let upstream = LockedState<SubscriptionStatus>(.awaitingSubscription)

    /// Whether values and a completion go on to the subject: set when the subscription arrives,
    /// cleared by the completion or a cancel; read without a lock on the value path.
    @usableFromInline
    let open = Atomic<Bool>(false)

    @inlinable
    init(_ subject: Downstream) {
        self.subject = subject
        // A cast to a concrete type, which folds away once specialised for a subject type.
        dispatcher = (subject as? PassthroughSubject<Input, Failure>)?.dispatcher
    }

    @inlinable
    func receive(subscription: any Subscription) {
        // A second subscription, one after a cancel, or one arriving when the subject is gone
        // (nobody can read it) is ignored without a cancel and not kept, as Apple's. `open`
        // changes under the lock, so a cancel racing this call cannot be undone by it.
        guard let subject else { return }
        let accepted = upstream.withLock { status in
            guard status.accept(subscription) else { return false }
            open.store(true, ordering: .releasing)
            return true
        }
        guard accepted else { return }
        subject.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if open.load(ordering: .acquiring) {
            if dispatcher != nil {
                dispatcher?.send(input)
            } else {
                subject?.send(input)
            }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        // Before the subscription `open` is still false: the completion is ignored.
        guard open.exchange(false, ordering: .acquiringAndReleasing) else { return }
        // The finished upstream's subscription is released without a cancel, before the subject
        // hears of the completion (see the type's comment).
        _ = upstream.withLock { $0.terminate() }
        if let dispatcher {
            dispatcher.completeAndDropUpstreams(completion)
        } else {
            subject?.send(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:)")
        upstream.withLock { $0.subscription }?.request(demand)
    }

    @inlinable
    func cancel() {
        // Ahead of the subscription this does nothing, as Apple's: a late subscription is taken.
        let subscription = upstream.withLock { status in
            defer { open.store(false, ordering: .releasing) }
            return status.terminateIfSubscribed()
        }
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { "Subject" }

    /// Apple's labels (spec §28): the subject twice, as the downstream and by name, and the
    /// upstream subscription, `nil` before it arrives and after a cancel.
    @usableFromInline
    var customMirror: Mirror {
        let subject = subject
        let subscription = upstream.withLock { $0.subscription }
        return Mirror(self, children: [
            "downstreamSubject": subject as Any,
            "upstreamSubscription": subscription as Any,
            "subject": subject as Any,
        ])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

extension Publisher {
    /// Feeds this publisher's values and completion into `subject`, which then republishes them to
    /// its own subscribers. Cancel (or release) the returned value to disconnect.
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where Failure == S.Failure, Output == S.Output {
        let connector = SubjectSubscriber(subject)
        subscribe(connector)
        return AnyCancellable(connector)
    }
}

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
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Output
    @usableFromInline typealias Failure = Downstream.Failure

    /// Never reassigned after `init`; only the runtime clears it when the subject goes away.
    @usableFromInline
    weak var subject: Downstream?

    /// Upstream subscription, guarded by its own lock; never used while the lock is held.
    @usableFromInline
    let upstream = LockedState<SubscriptionStatus>(.awaitingSubscription)

    /// Set once on completion or cancel; read without a lock on the value path.
    @usableFromInline
    let terminated = Atomic<Bool>(false)

    @inlinable
    init(_ subject: Downstream) {
        self.subject = subject
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = upstream.withLock { $0.accept(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        subject?.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if !terminated.load(ordering: .acquiring) {
            subject?.send(input)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = upstream.withLock { $0.terminate() }
        subject?.send(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:)")
        upstream.withLock { $0.subscription }?.request(demand)
    }

    @inlinable
    func cancel() {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        upstream.withLock { $0.terminate() }?.cancel()
    }

    @usableFromInline
    var description: String { "Subject" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["subject": subject as Any]) }

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

import TributaryLocks

/// The subscription a merge hands its subscriber; it subscribes to every upstream through a
/// tagged subscriber (``Side``) and serialises what they send (see ``DeliveryEmitter``).
///
/// While the merge is open, nothing is queued, no upstream has completed and the subscriber's
/// demand is unlimited (``MergeStateMachine/fastEligible``), a value takes the emitter role with
/// one compare-and-swap, goes to the subscriber and gives the role back with a second, without
/// the mutex.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: DeliveryEmitter<MergeStateMachine<Downstream>>,
    Subscription, ReflectsAsOperator
{
    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        let box = SubscriberBox(downstream)
        super.init(
            box: box, machine: MergeStateMachine(box: box, count: upstreamCount), upstreamCount: upstreamCount,
            racingLockFreeTakers: true,
            requestHook: { emitter, demand in unsafeDowncast(emitter, to: MergeSubscription.self).requestNow(demand) })
    }

    /// The subscriber to attach to the upstream at `index`.
    @inlinable
    func side(_ index: Int) -> Side {
        Side(route: SideRoute(index: index), parent: self)
    }

    /// Hands the subscription down; the caller then subscribes the sides, then calls
    /// ``didSubscribeAll()``.
    @inlinable
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
    }

    @inlinable
    func didSubscribeAll() {
        let emission = state.withLock { machine -> Step in
            machine.finishIfEmpty()
            return settleLocked(&machine)
        }
        emit(emission)
    }

    // MARK: Downstream side

    /// ``request(_:)``, in the code `requestHook` was compiled into.
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a Merge subscription")
        add(demand)
    }

    // MARK: Upstream side

    /// A value from the upstream at `index`: straight to the subscriber when the lock-free path
    /// allows; else through the mutex, delivered at once by this thread when nobody emits,
    /// nothing is queued and there is demand, or queued.
    @inlinable
    func receive(_ value: Downstream.Input, at index: Int) {
        if role.tryTakeWithoutLock() {
            finishDelivery(returning: deliver(value))
            return
        }
        var step = Step.idle
        var ticket: DeliveryTickets.Ticket?
        let deliverNow = state.withLock { machine -> Bool in
            machine.accept(at: index) && acceptLocked(value, tag: (), &machine, step: &step, ticket: &ticket)
        }
        if deliverNow {
            finishDelivery(returning: deliver(value))
        } else {
            performQueued(step, ticket)
        }
    }

    /// An upstream's completion. When another thread emits, the sender waits until that thread
    /// has delivered what was queued before it (and the merge's completion, when this one decided
    /// it), as a send does.
    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        var held = ContiguousArray<any Subscription>()
        let (emission, ticket) = state.withLock { machine -> (Step, DeliveryTickets.Ticket?) in
            let accepted: Bool
            (accepted, held) = machine.receive(completion: completion, at: index)
            guard accepted else { return (.idle, nil) }
            return settleAfterCompletionLocked(&machine)
        }
        for subscription in held { subscription.cancel() }
        emit(emission)
        if let ticket { state.waitUntilSettled(ticket) }
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "Merge" }

    /// The mirror shows the demand outstanding.
    @usableFromInline
    var customMirror: Mirror { demandMirror }
}

extension MergeSubscription {
    /// The subscriber attached to one upstream, routed by its position.
    @usableFromInline
    typealias Side = TaggedSubscriber<SideRoute>

    /// The route of one upstream's subscriber: its position. Every value is answered `.none`;
    /// the subscriber's demand reaches the upstreams as requests.
    @usableFromInline
    struct SideRoute: DescribedTaggedRoute {
        @usableFromInline
        let index: Int

        @inlinable
        init(index: Int) {
            self.index = index
        }

        @usableFromInline
        static var subscriberDescription: String { "Merge" }

        @inlinable
        func receive(subscription: any Subscription, parent: MergeSubscription) {
            parent.receive(subscription: subscription, at: index)
        }

        @inlinable
        func receive(_ input: Downstream.Input, parent: MergeSubscription) -> Subscribers.Demand {
            parent.receive(input, at: index)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>, parent: MergeSubscription) {
            parent.receive(completion: completion, at: index)
        }
    }
}

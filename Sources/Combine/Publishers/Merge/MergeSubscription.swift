import TributaryLocks

/// The subscription a merge hands its subscriber; it subscribes to every upstream through a
/// ``Side`` and serialises what they send (see ``FanInGate``).
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: Subscription, ReflectsAsOperator {
    @usableFromInline
    typealias Step = FanInGate<Downstream>.Step

    @usableFromInline
    let state: LockedState<MergeStateMachine<Downstream>>

    @usableFromInline
    let upstreamCount: Int

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        self.upstreamCount = upstreamCount
        state = LockedState(MergeStateMachine(downstream: downstream, count: upstreamCount))
    }

    /// The subscriber to attach to the upstream at `index`.
    @inlinable
    func side(_ index: Int) -> Side {
        Side(index: index, parent: self)
    }

    /// Hands the subscription down; the caller then subscribes the sides, then calls
    /// ``didSubscribeAll()``.
    @inlinable
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
    }

    @inlinable
    func didSubscribeAll() {
        let step = state.withLock { $0.finishIfEmpty() }
        drain(step)
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a Merge subscription")
        let (step, topUp) = state.withLock { $0.request(demand) }
        if topUp { topUpAll() }
        drain(step)
    }

    @inlinable
    func cancel() {
        let held = state.withLock { $0.cancel() }
        for subscription in held { subscription.cancel() }
    }

    // MARK: Upstream side

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        state.withLock { $0.receive(subscription: subscription, at: index) }.perform()
    }

    @inlinable
    func receive(_ value: Downstream.Input, at index: Int) {
        let step = state.withLock { $0.receive(value, at: index) }
        drain(step)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        let (step, held) = state.withLock { $0.receive(completion: completion, at: index) }
        for subscription in held { subscription.cancel() }
        drain(step)
    }

    // MARK: Performing actions

    @inlinable
    func drain(_ step: Step) {
        FanInGate<Downstream>.drain(step) { additional in
            let (next, topUp) = state.withLock { $0.delivered(additional: additional) }
            if topUp { topUpAll() }
            return next
        } wait: { ticket in
            state.waitUntilSettled(ticket)
        }
    }

    @usableFromInline
    func topUpAll() {
        for index in 0..<upstreamCount {
            if let (held, demand) = state.withLock({ $0.topUp(at: index) }) {
                held.request(demand)
            }
        }
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "Merge" }

    @usableFromInline
    var customMirror: Mirror {
        let demand = state.withLock { $0.gate.demand }
        return Mirror(self, children: ["demand": demand])
    }

    /// The subscriber attached to one upstream: forwards its events, tagged with its position.
    @usableFromInline
    struct Side: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Input = Downstream.Input
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let index: Int

        @usableFromInline
        let parent: MergeSubscription

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(index: Int, parent: MergeSubscription) {
            self.index = index
            self.parent = parent
        }

        @usableFromInline
        var description: String { "Merge" }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, at: index)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receive(input, at: index)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receive(completion: completion, at: index)
        }
    }
}

import TributaryLocks

/// The subscription `switchToLatest` hands its subscriber; also the upstream's subscriber, with
/// each inner publisher subscribed through an ``Inner`` tagged with its generation.
@usableFromInline
final class SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>: Subscription, ReflectsAsOperator
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline
    typealias Machine = SwitchToLatestStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<Machine>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(Machine(downstream: downstream))
    }

    // MARK: Upstream side

    /// Hands this subscription to the subscriber: inside `subscribe`, before the upstream is
    /// subscribed, as Apple's `switchToLatest` does.
    @inlinable
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
    }

    @inlinable
    func receiveUpstream(subscription: any Subscription) {
        guard state.withLock({ $0.receiveUpstream(subscription: subscription) }) else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    @inlinable
    func receiveUpstream(_ publisher: P) {
        guard let (generation, previous) = state.withLock({ $0.switchInner() }) else { return }
        previous?.cancel()
        publisher.receive(subscriber: Inner(generation: generation, parent: self))
    }

    @inlinable
    func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) {
        perform(state.withLock { $0.receiveUpstream(completion: completion) })
    }

    // MARK: Inner side

    @inlinable
    func receiveInner(subscription: any Subscription, generation: Int) {
        state.withLock { $0.receiveInner(subscription: subscription, generation: generation) }.perform()
    }

    @inlinable
    func receiveInner(_ value: P.Output, generation: Int) {
        let step = state.withLock { $0.receiveInner(value, generation: generation) }
        perform(Machine.Action(step: step))
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<P.Failure>, generation: Int) {
        perform(state.withLock { $0.receiveInner(completion: completion, generation: generation) })
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a SwitchToLatest subscription")
        perform(state.withLock { $0.request(demand) })
    }

    @inlinable
    func cancel() {
        let (upstream, inner) = state.withLock { $0.cancel() }
        upstream?.cancel()
        inner?.cancel()
    }

    // MARK: Performing actions

    @inlinable
    func perform(_ action: Machine.Action) {
        action.cancel?.cancel()
        if action.topUp { topUp() }
        FanInGate<Downstream>.drain(action.step) { additional in
            let next = state.withLock { $0.delivered(additional: additional) }
            if next.topUp { topUp() }
            return next.step
        } wait: { ticket in
            state.waitUntilSettled(ticket)
        }
    }

    @usableFromInline
    func topUp() {
        if let (held, demand) = state.withLock({ $0.topUp() }) {
            held.request(demand)
        }
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "SwitchToLatest" }

    @usableFromInline
    var customMirror: Mirror {
        let demand = state.withLock { $0.gate.demand }
        return Mirror(self, children: ["demand": demand])
    }

    /// The upstream's subscriber.
    @usableFromInline
    struct Outer: Subscriber, Cancellable, CustomStringConvertible {
        @usableFromInline
        typealias Input = P
        @usableFromInline
        typealias Failure = P.Failure

        @usableFromInline
        let parent: SwitchToLatestSubscription

        /// The subscription's identity: to the upstream, the operator is one object.
        @inlinable
        var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

        @inlinable
        init(parent: SwitchToLatestSubscription) {
            self.parent = parent
        }

        @usableFromInline
        var description: String { "SwitchToLatest" }

        /// Cancelling the upstream's subscriber cancels the whole operator: in Apple's operator the
        /// upstream's subscriber and the subscriber's subscription are one object.
        @inlinable
        func cancel() {
            parent.cancel()
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveUpstream(subscription: subscription)
        }

        @inlinable
        func receive(_ input: P) -> Subscribers.Demand {
            parent.receiveUpstream(input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveUpstream(completion: completion)
        }
    }

    /// The subscriber attached to one inner publisher.
    @usableFromInline
    struct Inner: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Input = P.Output
        @usableFromInline
        typealias Failure = P.Failure

        @usableFromInline
        let generation: Int

        @usableFromInline
        let parent: SwitchToLatestSubscription

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(generation: Int, parent: SwitchToLatestSubscription) {
            self.generation = generation
            self.parent = parent
        }

        @usableFromInline
        var description: String { "SwitchToLatest" }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveInner(subscription: subscription, generation: generation)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receiveInner(input, generation: generation)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveInner(completion: completion, generation: generation)
        }
    }
}

import TributaryLocks

/// The subscription `switchToLatest` hands its subscriber, and also the upstream's subscriber:
/// in Apple's operator the two are one object, so the upstream sees the same identity and
/// description as the subscriber. Each inner publisher is subscribed through an ``Inner`` tagged
/// with its generation.
@usableFromInline
final class SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>: Subscription, Subscriber,
    ReflectsAsOperator
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline
    typealias Input = P

    @usableFromInline
    typealias Failure = P.Failure

    @usableFromInline
    typealias Machine = SwitchToLatestStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<Machine>

    /// The subscriber's `request(_:)` and `cancel()`, compiled for the concrete types in this
    /// initialiser, which its callers specialise: they arrive through the `Subscription`
    /// existential, whose witnesses run the generic code.
    @usableFromInline
    let requestHook: (SwitchToLatestSubscription, Subscribers.Demand) -> Void

    /// See ``requestHook``.
    @usableFromInline
    let cancelHook: (SwitchToLatestSubscription) -> Void

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(Machine(downstream: downstream))
        requestHook = { subscription, demand in subscription.requestNow(demand) }
        cancelHook = { subscription in subscription.cancelNow() }
    }

    // MARK: Upstream side

    /// Hands this subscription to the subscriber: inside `subscribe`, before the upstream is
    /// subscribed, as Apple's `switchToLatest` does.
    @inlinable
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let handle = SubscriptionHandle(subscription)
        guard state.withLock({ $0.receiveUpstream(subscription: handle) }) else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ publisher: P) -> Subscribers.Demand {
        if ImmediateOutput.isPossible(for: P.self), let value = ImmediateOutput.value(of: publisher),
            !IntrospectionRegistry.isActive
        {
            return receiveImmediate(value, of: publisher)
        }
        guard let (generation, previous) = state.withLock({ $0.switchInner() }) else { return .none }
        previous?.cancel()
        publisher.subscribe(Inner(tag: generation, parent: self))
        return .none
    }

    /// A new inner publisher that is a `Just` or the like (see ``ImmediateOutput``): when the
    /// subscriber has demand for its value, the value goes to the subscriber without subscribing
    /// to the inner: two trips through the lock instead of five, and no inner subscription.
    /// Without demand, the inner is subscribed to, and holds its value until a request reaches
    /// it, as usual.
    @inlinable
    func receiveImmediate(_ value: P.Output, of publisher: P) -> Subscribers.Demand {
        switch state.withLock({ $0.switchToImmediate(value) }) {
        case .ignored:
            break
        case .subscribe(let generation, let previous):
            previous?.cancel()
            publisher.subscribe(Inner(tag: generation, parent: self))
        case .offered(let previous, .value(let downstream, let first)):
            previous?.cancel()
            // This thread took the emitter role. The subscriber's answer would go back to the
            // inner, which has nothing more to send; only the gate counts it.
            let answer = downstream.receive(first)
            perform(state.withLock { $0.delivered(additional: answer, returnedToSender: true) })
        case .offered(let previous, let step):
            previous?.cancel()
            perform(Machine.Action(step: step))
        case .offeredNested(let previous, let downstream, let value):
            previous?.cancel()
            // From inside the subscriber: nested in the delivery in progress, which keeps the
            // emitter role. The answer would go back to the inner; only the gate counts it.
            let answer = downstream.receive(value)
            if answer != .none { state.withLock { $0.nestedDelivered(additional: answer) } }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<P.Failure>) {
        perform(state.withLock { $0.receiveUpstream(completion: completion) })
    }

    // MARK: Inner side

    @inlinable
    func receiveInner(subscription: any Subscription, generation: Int) {
        let handle = SubscriptionHandle(subscription)
        switch state.withLock({ $0.receiveInner(subscription: handle, generation: generation) }) {
        case nil: subscription.cancel()
        case .some(.none): break
        case .some(let grant): subscription.request(grant)
        }
    }

    /// Delivers an inner value and returns the subscriber's answer to the inner, as Apple's
    /// operator does, when this thread delivers it; when the value waits for another thread's
    /// delivery, that thread requests the answer from the inner instead.
    @inlinable
    func receiveInner(_ value: P.Output, generation: Int) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveInner(value, generation: generation) }) {
        case .drop:
            return .none
        case .beyondDemand:
            APIViolation.upstreamContract(
                "switchToLatest", "received a value from its inner publisher beyond the demand it requested")
        case .step(.value(let downstream, let first)):
            // This thread took the emitter role: the answer for the first value it delivers is
            // returned to this inner (when values of other threads were queued ahead, `first` is
            // the oldest of them; every answer still reaches the inner exactly once).
            let answer = downstream.receive(first)
            perform(state.withLock { $0.delivered(additional: answer, returnedToSender: true) })
            return answer
        case .step(let step):
            perform(Machine.Action(step: step))
            return .none
        case .nested(let downstream, let value):
            // Sent from inside the subscriber on the emitting thread: delivered at once, nested in
            // the delivery in progress (which keeps the emitter role), and the answer returned.
            let answer = downstream.receive(value)
            if answer != .none { state.withLock { $0.nestedDelivered(additional: answer) } }
            return answer
        }
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<P.Failure>, generation: Int) {
        guard let action = state.withLock({ $0.receiveInner(completion: completion, generation: generation) }) else {
            APIViolation.upstreamContract(
                "switchToLatest", "received a completion from its inner publisher before its subscription")
        }
        perform(action)
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        requestHook(self, demand)
    }

    /// ``request(_:)``, in the code ``requestHook`` was compiled into.
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a SwitchToLatest subscription")
        perform(state.withLock { $0.request(demand) })
    }

    @inlinable
    func cancel() {
        cancelHook(self)
    }

    /// ``cancel()``, in the code ``cancelHook`` was compiled into.
    @inlinable
    func cancelNow() {
        let (upstream, inner) = state.withLock { $0.cancel() }
        // The inner first, then the upstream, as Apple's operator cancels them.
        inner?.cancel()
        upstream?.cancel()
    }

    // MARK: Performing actions

    @inlinable
    func perform(_ action: Machine.Action) {
        action.cancel?.cancel()
        action.forward?.request(action.demand)
        FanInGate<Downstream>.drain(action.step) { additional in
            let next = state.withLock { $0.delivered(additional: additional, returnedToSender: false) }
            next.forward?.request(next.demand)
            return next.step
        } wait: { ticket in
            state.waitUntilSettled(ticket)
        }
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "SwitchToLatest" }
}

extension SwitchToLatestSubscription: ReflectedTaggedEventReceiver {
    /// The subscriber attached to one inner publisher, tagged with its generation.
    @usableFromInline
    typealias Inner = TaggedSubscriber<SwitchToLatestSubscription>

    @usableFromInline
    static var taggedSubscriberDescription: String { "SwitchToLatest" }

    @inlinable
    func receive(subscription: any Subscription, tag generation: Int) {
        receiveInner(subscription: subscription, generation: generation)
    }

    @inlinable
    func receive(_ input: P.Output, tag generation: Int) -> Subscribers.Demand {
        receiveInner(input, generation: generation)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<P.Failure>, tag generation: Int) {
        receiveInner(completion: completion, generation: generation)
    }
}

/// The state of one `switchToLatest` subscription as a pure value; every method runs under the
/// subscription's lock and returns what to do after unlocking.
///
/// The upstream (a publisher of publishers) is asked for everything. Each new inner publisher
/// replaces the current one, which is cancelled; its late values are recognised by `generation`
/// and dropped. The demand protocol is Apple's: a new inner is granted the downstream demand not
/// yet spent, every later `request(n)` of the subscriber is forwarded to the current inner as it
/// is, and the demand the subscriber returns for a value is returned to the inner that sent it.
/// An inner that sends beyond that demand, or completes before its subscription, breaks the
/// contract, and Apple's operator stops the process there; so does ours. The operator finishes
/// once the upstream and the latest inner have finished; a failure of either fails it at once
/// and cancels the other.
@usableFromInline
struct SwitchToLatestStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Step = FanInGate<Downstream>.Step

    /// Where the current inner publisher is in its life.
    @usableFromInline
    enum InnerPhase {
        /// No inner publisher yet.
        case none
        /// Subscribed to, its subscription not arrived yet.
        case awaitingSubscription
        /// Its subscription is held.
        case subscribed
        /// It finished; its subscription was let go of without a cancel.
        case finished
        /// It failed, or it was cancelled (by the subscriber or by an upstream failure): whatever
        /// it still sends is dropped.
        case dropped
    }

    /// What to perform outside the lock.
    ///
    /// Its subscriptions are ``SubscriptionHandle``s, not `(any Subscription)?`: an action is made
    /// and dropped several times per inner publisher, and an optional existential is copied and
    /// destroyed through the value witnesses of `Optional` and of the existential (over a
    /// thousand instructions per inner of `map { Just($0) }.switchToLatest()`), where a handle
    /// costs one retain.
    @usableFromInline
    struct Action {
        @usableFromInline
        var step: Step
        /// The current inner, to request ``demand`` of (a forwarded downstream request, or the
        /// subscriber's answer to a value the emitter delivered for another thread).
        @usableFromInline
        var forward: SubscriptionHandle?
        @usableFromInline
        var demand: Subscribers.Demand
        /// A subscription to cancel.
        @usableFromInline
        var cancel: SubscriptionHandle?

        @inlinable
        init(step: Step = .idle, forward: SubscriptionHandle? = nil, demand: Subscribers.Demand = .none,
             cancel: SubscriptionHandle? = nil) {
            self.step = step
            self.forward = forward
            self.demand = demand
            self.cancel = cancel
        }
    }

    /// What to do with an inner value, decided under the lock.
    @usableFromInline
    enum ValueDecision {
        /// Dropped: a replaced, failed or cancelled inner, or the operator is done.
        case drop
        /// The value exceeds the demand the inner was given: Apple's operator stops the process.
        case beyondDemand
        /// Perform the step (the value was handed out or queued).
        case step(Step)
        /// Sent from inside the subscriber on the emitting thread: deliver it at once, nested,
        /// and report the answer with ``nestedDelivered(additional:)``.
        case nested(Downstream, Downstream.Input)
    }

    @usableFromInline
    var gate: FanInGate<Downstream>

    @usableFromInline
    var upstream: SubscriptionHandle?

    @usableFromInline
    var upstreamFinished = false

    /// The upstream's subscription has arrived (`upstream` is let go of when the upstream ends).
    @usableFromInline
    var upstreamSubscribed = false

    /// The current inner's subscription, while ``innerPhase`` is `.subscribed`.
    @usableFromInline
    var inner: SubscriptionHandle?

    @usableFromInline
    var innerPhase = InnerPhase.none

    /// Identifies the current inner publisher; bumped on every switch.
    @usableFromInline
    var generation = 0

    @inlinable
    init(downstream: Downstream) {
        gate = FanInGate(downstream: downstream)
    }

    /// Whether the current inner no longer counts for the operator's completion.
    @inlinable
    var innerIsDone: Bool {
        switch innerPhase {
        case .none, .finished, .dropped: return true
        case .awaitingSubscription, .subscribed: return false
        }
    }

    /// Lets go of the current inner; returns its subscription, for cancelling.
    @inlinable
    mutating func dropInner() -> SubscriptionHandle? {
        let held = inner
        inner = nil
        innerPhase = .dropped
        return held
    }

    // MARK: Upstream

    /// Keeps the upstream's subscription; `false` when it must be cancelled (a second one, or
    /// the operator is already done).
    @inlinable
    mutating func receiveUpstream(subscription: SubscriptionHandle) -> Bool {
        guard !gate.isTerminated, upstream == nil, !upstreamFinished else { return false }
        upstream = subscription
        upstreamSubscribed = true
        return true
    }

    /// Switches to a new inner publisher: returns its generation and the previous inner's
    /// subscription to cancel, or `nil` when the operator is done.
    @inlinable
    mutating func switchInner() -> (generation: Int, previous: SubscriptionHandle?)? {
        // A publisher sent before the upstream's subscription is ignored, as Apple's operator does.
        guard gate.isOpen, !upstreamFinished, upstreamSubscribed else { return nil }
        let previous = inner
        inner = nil
        innerPhase = .awaitingSubscription
        generation += 1
        return (generation, previous)
    }

    /// What ``switchToImmediate(_:)`` decided.
    @usableFromInline
    enum ImmediateSwitch {
        /// The operator is done, or the upstream has not subscribed yet: the publisher is ignored.
        case ignored
        /// No demand is free for the value: subscribe to the inner as usual, after cancelling
        /// `previous`.
        case subscribe(generation: Int, previous: SubscriptionHandle?)
        /// The value was offered to the subscriber as if the inner had been subscribed to, had
        /// sent it and had finished: cancel `previous`, then perform `step`.
        case offered(previous: SubscriptionHandle?, step: Step)
        /// The same, from inside the subscriber on the emitting thread: cancel `previous`, then
        /// deliver the value at once, nested, and report the answer with
        /// ``nestedDelivered(additional:)``.
        case offeredNested(previous: SubscriptionHandle?, downstream: Downstream, value: Downstream.Input)
    }

    /// Switches to an inner publisher whose one value is at hand (see ``ImmediateOutput``). With
    /// demand free for it, the inner is over at once: its value is offered to the gate, as the
    /// value of a subscribed inner would be, and the inner counts as finished, which it would be
    /// as soon as that value was taken. (The upstream has not finished, so that completion
    /// decides nothing.)
    @inlinable
    mutating func switchToImmediate(_ value: Downstream.Input) -> ImmediateSwitch {
        guard let (generation, previous) = switchInner() else { return .ignored }
        guard gate.freeDemand > .none else { return .subscribe(generation: generation, previous: previous) }
        innerPhase = .finished
        if let downstream = gate.takeNested() {
            return .offeredNested(previous: previous, downstream: downstream, value: value)
        }
        return .offered(previous: previous, step: gate.offer(value))
    }

    @inlinable
    mutating func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) -> Action {
        guard gate.isOpen, !upstreamFinished else { return Action() }
        upstreamFinished = true
        upstream = nil
        switch completion {
        case .finished:
            if innerIsDone { gate.finish() }
            return Action(step: gate.kickAfterSending())
        case .failure(let error):
            gate.fail(error)
            return Action(step: gate.kickAfterSending(), cancel: dropInner())
        }
    }

    // MARK: Inner

    /// Keeps the subscription of the current inner and returns the demand to request of it
    /// (`.none`: nothing yet); `nil` when it must be cancelled (a replaced inner, or the operator
    /// is done). One the current inner sends after it finished, while the operator runs on, is
    /// ignored (`.none`, not kept), as Apple's operator ignores it.
    @inlinable
    mutating func receiveInner(subscription: SubscriptionHandle, generation: Int) -> Subscribers.Demand? {
        if gate.isOpen, generation == self.generation, innerPhase == .finished { return Subscribers.Demand.none }
        guard gate.isOpen, generation == self.generation, innerPhase == .awaitingSubscription else {
            return nil
        }
        inner = subscription
        innerPhase = .subscribed
        return gate.freeDemand
    }

    @inlinable
    mutating func receiveInner(_ value: Downstream.Input, generation: Int) -> ValueDecision {
        guard generation == self.generation else { return .drop }
        switch innerPhase {
        case .none, .dropped:
            return .drop
        case .awaitingSubscription, .subscribed, .finished:
            // Apple counts every value of the current inner against the demand it passed on,
            // even one sent before the inner's subscription or after its completion.
            if gate.freeDemand == .none { return .beyondDemand }
            guard gate.isOpen, innerPhase != .finished else { return .drop }
            // From inside the subscriber, on the emitting thread: Apple's operator delivers it at
            // once, nested, and returns the subscriber's answer to the inner.
            if let downstream = gate.takeNested() { return .nested(downstream, value) }
            return .step(gate.offer(value))
        }
    }

    @inlinable
    mutating func receiveInner(
        completion: Subscribers.Completion<Downstream.Failure>, generation: Int
    ) -> Action? {
        guard generation == self.generation else { return Action() }
        switch innerPhase {
        case .none, .finished, .dropped:
            return Action()
        case .awaitingSubscription:
            return nil
        case .subscribed:
            break
        }
        // The inner's subscription is let go of, not cancelled: the inner has ended.
        inner = nil
        guard gate.isOpen else {
            innerPhase = .dropped
            return Action()
        }
        switch completion {
        case .finished:
            innerPhase = .finished
            if upstreamFinished { gate.finish() }
            return Action(step: gate.kickAfterSending())
        case .failure(let error):
            innerPhase = .dropped
            gate.fail(error)
            let held = upstream
            upstream = nil
            upstreamFinished = true
            return Action(step: gate.kickAfterSending(), cancel: held)
        }
    }

    // MARK: Downstream

    /// The current inner's subscription, to forward a demand to.
    @inlinable
    var forwardingTarget: SubscriptionHandle? {
        guard gate.isOpen, innerPhase == .subscribed else { return nil }
        return inner
    }

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Action {
        guard !gate.isTerminated else { return Action() }
        gate.request(demand)
        return Action(step: gate.kick(), forward: forwardingTarget, demand: demand)
    }

    /// For the emitter, after a delivery. `returnedToSender` says the sender of that value takes
    /// the subscriber's answer back itself (it returns it from its `receive`); otherwise the
    /// answer is requested from the current inner.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand, returnedToSender: Bool) -> Action {
        let forward = returnedToSender || additional == .none ? nil : forwardingTarget
        return Action(step: gate.delivered(additional: additional), forward: forward, demand: additional)
    }

    /// After a value delivered nested (``ValueDecision/nested(_:_:)``): records the subscriber's
    /// answer, which goes back to the inner through its `receive`.
    @inlinable
    mutating func nestedDelivered(additional: Subscribers.Demand) {
        gate.nestedDelivered(additional: additional)
    }

    /// Cancels: returns the upstream's and the inner's subscriptions.
    @inlinable
    mutating func cancel() -> (SubscriptionHandle?, SubscriptionHandle?) {
        gate.cancel()
        let held = upstream
        upstream = nil
        upstreamFinished = true
        return (held, dropInner())
    }
}

extension SwitchToLatestStateMachine: DeliveryTicketing {
    /// The gate's tickets, for the senders that wait on this state's lock.
    @usableFromInline
    var tickets: DeliveryTickets {
        get { gate.tickets }
        set { gate.tickets = newValue }
    }
}

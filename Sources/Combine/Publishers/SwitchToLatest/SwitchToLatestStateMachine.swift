/// The state of one `switchToLatest` subscription as a pure value; every method runs under the
/// subscription's lock and returns what to do after unlocking.
///
/// The upstream (a publisher of publishers) is asked for everything. Each new inner publisher
/// replaces the current one, which is cancelled; its late values are recognised by `generation`
/// and dropped. The downstream demand not yet spent carries over: the new inner is granted the
/// demand no queued value is waiting to spend. The operator finishes once the upstream and the
/// latest inner have finished; a failure of either fails it at once and cancels the other.
@usableFromInline
struct SwitchToLatestStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Step = FanInGate<Downstream>.Step

    /// What to perform outside the lock.
    @usableFromInline
    struct Action {
        @usableFromInline
        var step: Step
        /// Whether the inner's grant may need topping up.
        @usableFromInline
        var topUp = false
        /// A subscription to cancel.
        @usableFromInline
        var cancel: (any Subscription)?

        @inlinable
        init(step: Step = .idle, topUp: Bool = false, cancel: (any Subscription)? = nil) {
            self.step = step
            self.topUp = topUp
            self.cancel = cancel
        }
    }

    @usableFromInline
    var gate: FanInGate<Downstream>

    @usableFromInline
    var upstream: (any Subscription)?

    @usableFromInline
    var upstreamFinished = false

    /// The upstream's subscription has arrived (a flag rather than a test of the optional
    /// existential `upstream`, which would copy it for every upstream value).
    @usableFromInline
    var upstreamSubscribed = false

    /// The current inner publisher (`finished` once it completed or when there is none).
    @usableFromInline
    var inner = FanInSlot()

    /// Identifies the current inner publisher; bumped on every switch.
    @usableFromInline
    var generation = 0

    @inlinable
    init(downstream: Downstream) {
        gate = FanInGate(downstream: downstream)
        inner.finished = true
    }

    // MARK: Upstream

    /// Keeps the upstream's subscription; `false` when it must be cancelled (a second one, or
    /// the operator is already done).
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription) -> Bool {
        guard !gate.isTerminated, upstream == nil, !upstreamFinished else { return false }
        upstream = subscription
        upstreamSubscribed = true
        return true
    }

    /// Switches to a new inner publisher: returns its generation and the previous inner's
    /// subscription to cancel, or `nil` when the operator is done.
    @inlinable
    mutating func switchInner() -> (generation: Int, previous: (any Subscription)?)? {
        // A publisher sent before the upstream's subscription is ignored, as Apple's operator does.
        guard gate.isOpen, !upstreamFinished, upstreamSubscribed else { return nil }
        let previous = inner.close()
        inner = FanInSlot()
        generation += 1
        return (generation, previous)
    }

    @inlinable
    mutating func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) -> Action {
        guard gate.isOpen, !upstreamFinished else { return Action() }
        upstreamFinished = true
        upstream = nil
        switch completion {
        case .finished:
            if inner.finished { gate.finish() }
            return Action(step: gate.kickAfterSending())
        case .failure(let error):
            gate.fail(error)
            return Action(step: gate.kickAfterSending(), cancel: inner.close())
        }
    }

    // MARK: Inner

    @inlinable
    mutating func receiveInner(subscription: any Subscription, generation: Int) -> FanInSubscriptionAction {
        guard gate.isOpen, generation == self.generation, !inner.finished, inner.subscription == nil else {
            return .cancel(subscription)
        }
        inner.subscription = subscription
        if let (held, extra) = inner.topUp(to: gate.freeDemand) {
            return .request(held, extra)
        }
        return .none
    }

    @inlinable
    mutating func receiveInner(_ value: Downstream.Input, generation: Int) -> Step {
        guard gate.isOpen, generation == self.generation, !inner.finished else { return .idle }
        inner.consumeOne()
        return gate.offer(value)
    }

    @inlinable
    mutating func receiveInner(
        completion: Subscribers.Completion<Downstream.Failure>, generation: Int
    ) -> Action {
        guard gate.isOpen, generation == self.generation, !inner.finished else { return Action() }
        _ = inner.close()
        switch completion {
        case .finished:
            if upstreamFinished { gate.finish() }
            return Action(step: gate.kickAfterSending())
        case .failure(let error):
            gate.fail(error)
            let held = upstream
            upstream = nil
            upstreamFinished = true
            return Action(step: gate.kickAfterSending(), cancel: held)
        }
    }

    // MARK: Downstream

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Action {
        guard !gate.isTerminated else { return Action() }
        let grows = gate.demand != .unlimited
        gate.request(demand)
        return Action(step: gate.kick(), topUp: grows)
    }

    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Action {
        let grows = additional != .none && gate.demand != .unlimited && !gate.isTerminated
        return Action(step: gate.delivered(additional: additional), topUp: grows)
    }

    @inlinable
    mutating func topUp() -> (any Subscription, Subscribers.Demand)? {
        guard gate.isOpen else { return nil }
        return inner.topUp(to: gate.freeDemand)
    }

    /// Cancels: returns the upstream's and the inner's subscriptions.
    @inlinable
    mutating func cancel() -> ((any Subscription)?, (any Subscription)?) {
        gate.cancel()
        let held = upstream
        upstream = nil
        upstreamFinished = true
        return (held, inner.close())
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

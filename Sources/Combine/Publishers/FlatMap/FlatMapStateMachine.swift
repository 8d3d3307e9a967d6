/// The state of one `flatMap` subscription as a pure value; every method runs under the
/// subscription's lock and returns what to do after unlocking.
///
/// - The upstream is asked for `maxPublishers` publishers at first, and for one more each time an
///   inner publisher finishes (unless `maxPublishers` is unlimited), so at most `maxPublishers`
///   inners are alive at once; `.max(1)` therefore concatenates them.
/// - Each inner is granted at most the downstream demand no queued value is already waiting to
///   spend; grants only grow with downstream demand, so inner values never outrun it.
/// - Inner completions are absorbed. The operator finishes once the upstream and every inner have
///   finished; any failure fails it at once and cancels everything else.
@usableFromInline
struct FlatMapStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Step = FanInGate<Downstream>.Step

    /// What to perform outside the lock.
    @usableFromInline
    struct Action {
        @usableFromInline
        var step: Step = .idle
        /// Whether inner grants may need topping up (downstream demand grew).
        @usableFromInline
        var topUp = false
        /// Subscriptions to cancel.
        @usableFromInline
        var cancel = ContiguousArray<any Subscription>()
        /// Ask the upstream for one more publisher.
        @usableFromInline
        var requestOne: (any Subscription)?

        @inlinable
        init(step: Step = .idle) {
            self.step = step
        }
    }

    @usableFromInline
    var gate: FanInGate<Downstream>

    @usableFromInline
    let maxPublishers: Subscribers.Demand

    @usableFromInline
    var upstream: (any Subscription)?

    @usableFromInline
    var upstreamFinished = false

    /// Inner publishers by slot; a finished slot is reused, `generations` tells old from new.
    @usableFromInline
    var inners = ContiguousArray<FanInSlot>()

    @usableFromInline
    var generations = ContiguousArray<Int>()

    @usableFromInline
    var freeSlots = ContiguousArray<Int>()

    @usableFromInline
    var nextGeneration = 0

    /// Inners subscribed (or being subscribed) and not finished.
    @usableFromInline
    var activeInners = 0

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand) {
        gate = FanInGate(downstream: downstream)
        self.maxPublishers = maxPublishers
    }

    // MARK: Upstream (the publisher of values to transform)

    /// The subscriber to hand the subscription to, or `nil` when the upstream's subscription must
    /// be cancelled (a second one, or the operator is already done).
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription) -> Downstream? {
        guard !gate.isTerminated, upstream == nil, !upstreamFinished else { return nil }
        upstream = subscription
        return gate.downstream
    }

    /// Whether values are still wanted (checked before calling the transform).
    @inlinable
    var acceptsUpstreamValues: Bool { gate.isOpen && !upstreamFinished }

    /// Reserves a slot for a new inner publisher; `nil` when the operator is done.
    @inlinable
    mutating func registerInner() -> (index: Int, generation: Int)? {
        guard gate.isOpen else { return nil }
        nextGeneration += 1
        let index: Int
        if let free = freeSlots.popLast() {
            index = free
            inners[index] = FanInSlot()
            generations[index] = nextGeneration
        } else {
            index = inners.count
            inners.append(FanInSlot())
            generations.append(nextGeneration)
        }
        activeInners += 1
        return (index, nextGeneration)
    }

    @inlinable
    mutating func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) -> Action {
        guard gate.isOpen, !upstreamFinished else { return Action() }
        upstreamFinished = true
        upstream = nil
        switch completion {
        case .finished:
            if activeInners == 0 { gate.finish() }
            return Action(step: gate.kick())
        case .failure(let error):
            gate.fail(error)
            var action = Action(step: gate.kick())
            action.cancel = closeAll()
            return action
        }
    }

    // MARK: Inner publishers

    @inlinable
    func isCurrent(_ index: Int, _ generation: Int) -> Bool {
        generations[index] == generation && !inners[index].finished
    }

    /// What to do with an inner publisher's subscription; the caller still holds it, so it is not
    /// copied out again (every copy of an `any Subscription` goes through its value witnesses).
    @usableFromInline
    enum InnerSubscriptionDecision {
        case keep
        case request(Subscribers.Demand)
        case cancel
    }

    @inlinable
    mutating func receiveInner(subscription: any Subscription, at index: Int, generation: Int) -> InnerSubscriptionDecision {
        guard gate.isOpen, isCurrent(index, generation), inners[index].subscription == nil else {
            return .cancel
        }
        inners[index].subscription = subscription
        // The slot's initial grant: whatever downstream demand no queued value is waiting for.
        let target = gate.freeDemand
        let granted = inners[index].granted
        guard target > granted else { return .keep }
        inners[index].granted = target
        return .request(target - granted)
    }

    /// Accepts an inner value. In the common, uncontended case (nobody emitting, nothing queued,
    /// demand left) the caller becomes the emitter and gets the subscriber to hand the value to
    /// itself, then reports with ``delivered(additional:)``; otherwise the value goes through the
    /// gate and `step` says what to perform.
    @inlinable
    mutating func receiveInner(
        _ value: Downstream.Input, at index: Int, generation: Int, otherwise step: inout Step
    ) -> Downstream? {
        guard gate.isOpen, isCurrent(index, generation) else { return nil }
        inners[index].consumeOne()
        if !gate.emitting, gate.demand > 0, gate.queue.isEmpty, let downstream = gate.downstream {
            gate.emitting = true
            gate.demand -= 1
            return downstream
        }
        step = gate.offer(value)
        return nil
    }

    @inlinable
    mutating func receiveInner(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int, generation: Int
    ) -> Action {
        guard gate.isOpen, isCurrent(index, generation) else { return Action() }
        inners[index].finished = true
        inners[index].subscription = nil
        freeSlots.append(index)
        activeInners -= 1
        switch completion {
        case .finished:
            if !upstreamFinished, maxPublishers == .unlimited {
                // The common case: nothing to request, and nothing for `kick()` to start (the gate
                // is open, so no completion is pending; queued values wait for demand or for the
                // thread already emitting).
                return Action()
            }
            if upstreamFinished {
                if activeInners == 0 { gate.finish() }
                return Action(step: gate.kick())
            }
            var action = Action(step: gate.kick())
            if maxPublishers != .unlimited { action.requestOne = upstream }
            return action
        case .failure(let error):
            gate.fail(error)
            var action = Action(step: gate.kick())
            action.cancel = closeAll()
            return action
        }
    }

    // MARK: Downstream

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Action {
        guard !gate.isTerminated else { return Action() }
        let grows = gate.demand != .unlimited
        gate.request(demand)
        var action = Action(step: gate.kick())
        action.topUp = grows
        return action
    }

    /// For the emitter after a direct delivery: in the common case (no demand returned, nothing
    /// queued or decided meanwhile) it just stops emitting and returns `true`; otherwise `false`,
    /// and the caller continues with ``delivered(additional:)``.
    @inlinable
    mutating func deliveredDirectly(additional: Subscribers.Demand) -> Bool {
        guard additional == .none, gate.queue.isEmpty, gate.pendingCompletion == nil, gate.downstream != nil else {
            return false
        }
        gate.emitting = false
        return true
    }

    /// For the emitter, after a delivery: the next step, and whether inner grants may need
    /// topping up. (A plain pair rather than an ``Action``: this runs once per value.)
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> (step: Step, topUp: Bool) {
        let grows = additional != .none && gate.demand != .unlimited && !gate.isTerminated
        return (gate.delivered(additional: additional), grows)
    }

    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        guard gate.isOpen, index < inners.count else { return nil }
        return inners[index].topUp(to: gate.freeDemand)
    }

    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        gate.cancel()
        return closeAll()
    }

    /// Releases the upstream and every inner, returning their subscriptions for cancelling.
    @inlinable
    mutating func closeAll() -> ContiguousArray<any Subscription> {
        var held = ContiguousArray<any Subscription>()
        if let upstream { held.append(upstream) }
        upstream = nil
        upstreamFinished = true
        for index in inners.indices where !inners[index].finished {
            if let subscription = inners[index].close() { held.append(subscription) }
        }
        activeInners = 0
        return held
    }
}

/// The state of one subscription to a merge (`Merge` … `Merge8`, `MergeMany`), as a pure value:
/// every event method runs under the subscription's lock and returns what to do after unlocking.
///
/// Demand: each upstream is granted at most the downstream demand that no queued value is already
/// waiting to spend (``FanInGate/freeDemand``). Grants only grow when downstream demand grows, so
/// the queue never holds more than the upstreams were allowed to send for the current demand.
/// With unlimited demand every upstream is asked once for `.unlimited` and values flow through.
@usableFromInline
struct MergeStateMachine<Downstream: Subscriber> {
    @usableFromInline
    var gate: FanInGate<Downstream>

    @usableFromInline
    var slots: ContiguousArray<FanInSlot>

    /// Upstreams that have not completed yet.
    @usableFromInline
    var unfinished: Int

    @inlinable
    init(downstream: Downstream, count: Int) {
        gate = FanInGate(downstream: downstream)
        slots = ContiguousArray(repeating: FanInSlot(), count: count)
        unfinished = count
    }

    @inlinable
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction {
        slots[index].attach(subscription, accepting: !gate.isTerminated, grantingUpTo: gate.freeDemand)
    }

    @inlinable
    mutating func receive(_ value: Downstream.Input, at index: Int) -> FanInGate<Downstream>.Step {
        guard gate.isOpen, !slots[index].finished else { return .idle }
        slots[index].consumeOne()
        return gate.offer(value)
    }

    /// The step to perform and the upstreams to cancel (only ever non-empty on failure).
    @usableFromInline
    typealias CompletionAction = (step: FanInGate<Downstream>.Step, cancel: ContiguousArray<any Subscription>)

    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int
    ) -> CompletionAction {
        guard gate.isOpen, !slots[index].finished else { return (.idle, []) }
        _ = slots[index].close()
        unfinished -= 1
        switch completion {
        case .finished:
            if unfinished == 0 { gate.finish() }
            return (gate.kickAfterSending(), [])
        case .failure(let error):
            gate.fail(error)
            return (gate.kickAfterSending(), slots.closeAll())
        }
    }

    /// Called when no upstream exists at all (an empty `MergeMany`).
    @inlinable
    mutating func finishIfEmpty() -> FanInGate<Downstream>.Step {
        guard unfinished == 0 else { return .idle }
        gate.finish()
        return gate.kick()
    }

    /// The step to perform and whether upstream grants may need topping up.
    @usableFromInline
    typealias DemandAction = (step: FanInGate<Downstream>.Step, topUp: Bool)

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> DemandAction {
        guard !gate.isTerminated else { return (.idle, false) }
        let wasUnlimited = gate.demand == .unlimited
        gate.request(demand)
        return (gate.kick(), !wasUnlimited)
    }

    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> DemandAction {
        let grows = additional != .none && gate.demand != .unlimited
        return (gate.delivered(additional: additional), grows && !gate.isTerminated)
    }

    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        guard gate.isOpen else { return nil }
        return slots[index].topUp(to: gate.freeDemand)
    }

    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        gate.cancel()
        return slots.closeAll()
    }
}

extension MergeStateMachine: DeliveryTicketing {
    /// The gate's tickets, for the senders that wait on this state's lock.
    @usableFromInline
    var tickets: DeliveryTickets {
        get { gate.tickets }
        set { gate.tickets = newValue }
    }
}

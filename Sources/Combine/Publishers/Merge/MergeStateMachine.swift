/// The state of one subscription to a merge (`Merge` … `Merge8`, `MergeMany`), as a pure value:
/// every event method runs under the subscription's lock and returns what to do after unlocking.
///
/// Demand: each upstream is granted at most the downstream demand that no queued value is already
/// waiting to spend (``EmitterState/freeDemand``). Grants only grow when downstream demand
/// grows, so the queue never holds more than the upstreams were allowed to send for the current
/// demand. With unlimited demand every upstream is asked once for `.unlimited` and values flow
/// through, without the lock (``fastEligible``).
@usableFromInline
struct MergeStateMachine<Downstream: Subscriber>: FanInMachine {
    @usableFromInline
    var slots: ContiguousArray<FanInSlot>

    /// Upstreams that have not completed yet.
    @usableFromInline
    var unfinished: Int

    /// Last: its size depends on the subscriber's types, and the fields before it are then
    /// reached at fixed offsets in a debug build, without this type's metadata.
    @usableFromInline
    var emitter: EmitterState<Downstream, Void>

    /// See ``EmitterMachine/deliverAtOnce(_:tag:emitting:)``.
    @inlinable
    mutating func deliverAtOnce(_ value: Downstream.Input, tag: Void, emitting: Bool) -> Bool {
        emitter.deliverAtOnce(value, tag: tag, emitting: emitting)
    }

    @inlinable
    init(box: SubscriberBox<Downstream>, count: Int) {
        emitter = EmitterState(box: box)
        slots = ContiguousArray(repeating: FanInSlot(), count: count)
        unfinished = count
    }

    /// Whether a value may go straight to the subscriber without the lock: values flow freely,
    /// and no upstream has completed yet (so the value needs no check of which upstream sent it:
    /// values an upstream sends after its completion are dropped, and that takes the lock).
    @inlinable
    var fastEligible: Bool { emitter.flowsFreely && unfinished == slots.count }

    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        emitter.delivered(additional: additional)
    }

    // MARK: Upstreams

    @inlinable
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction {
        slots[index].attach(subscription, accepting: !emitter.terminated, grantingUpTo: emitter.freeDemand)
    }

    /// Whether a value from the upstream at `index` that could not take the lock-free path is
    /// accepted: not after its upstream completed, nor after the merge is done.
    @inlinable
    mutating func accept(at index: Int) -> Bool {
        guard emitter.isOpen, !slots[index].finished else { return false }
        slots[index].consumeOne()
        return true
    }

    /// An upstream's completion: whether it was accepted (not after the merge is done, nor a
    /// second one from the same upstream), and the upstreams to cancel (only on failure).
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int
    ) -> (accepted: Bool, cancel: ContiguousArray<any Subscription>) {
        guard emitter.isOpen, !slots[index].finished else { return (false, []) }
        _ = slots[index].close()
        unfinished -= 1
        switch completion {
        case .finished:
            if unfinished == 0 { emitter.finish() }
            return (true, [])
        case .failure(let error):
            emitter.fail(error)
            return (true, slots.closeAll())
        }
    }

    /// Called once every upstream has been subscribed: finishes when there is none at all (an
    /// empty `MergeMany`).
    @inlinable
    mutating func finishIfEmpty() {
        if unfinished == 0 { emitter.finish() }
    }

    /// The subscription of the upstream at `index` and how much more to ask it for, when its
    /// grant is below the free demand.
    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        guard emitter.isOpen else { return nil }
        return slots[index].topUp(to: emitter.freeDemand)
    }

    // MARK: Downstream

    /// Adds downstream demand; returns whether upstream grants may need topping up.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Bool {
        emitter.request(more)
    }

    /// Cancels: nothing more is delivered; the box is released by the emitter. Returns the
    /// upstream subscriptions to cancel.
    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        emitter.cancel()
        return slots.closeAll()
    }
}

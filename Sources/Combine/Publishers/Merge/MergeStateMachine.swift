/// The state of one subscription to a merge (`Merge` … `Merge8`, `MergeMany`), as a pure value:
/// every event method runs under the subscription's lock and returns what to do after unlocking.
///
/// Demand: each upstream is granted at most the downstream demand that no queued value is already
/// waiting to spend (``freeDemand``). Grants only grow when downstream demand grows, so the queue
/// never holds more than the upstreams were allowed to send for the current demand. With
/// unlimited demand every upstream is asked once for `.unlimited` and values flow through.
///
/// Who calls the subscriber (the *emitter*) is not recorded here but in the subscription's atomic
/// word, so that a value can take that role without the lock. This value only says what the
/// emitter must do next (``next()``), whether a thread that is not emitting has something to start
/// (``hasWork``), and whether values may skip the lock altogether (``fastEligible``).
@usableFromInline
struct MergeStateMachine<Downstream: Subscriber>: FanInCompletionDeciding, DeliveryTicketing {
    @usableFromInline
    typealias Input = Downstream.Input

    @usableFromInline
    typealias Box = SubscriberBox<Downstream>

    /// What the emitter does next, outside the lock.
    @usableFromInline
    enum Emission {
        /// Nothing: the role has been given back.
        case idle
        /// Deliver a queued value, then come back with the demand it returned (the role is kept).
        case value(Input)
        /// Deliver the completion; the role has been given back, and the box is the caller's to
        /// drop afterwards.
        case completion(Subscribers.Completion<Downstream.Failure>, Box)
        /// The subscriber cancelled: drop the box (outside the lock); the role has been given back.
        case release(Box)
    }

    /// What to do with a value that could not take the lock-free path.
    @usableFromInline
    enum ValueDecision {
        /// Dropped: its upstream already completed, or the merge is done.
        case drop
        /// Deliver it on this thread, as the emitter.
        case deliver
        /// Queued, for the emitter (or for more demand).
        case queued
    }

    /// The subscriber's box; `nil` once it has been handed out for the completion or for release.
    @usableFromInline
    var box: Box?

    /// The subscriber cancelled, or its completion was handed to the emitter.
    @usableFromInline
    var terminated = false

    /// Outstanding downstream demand, not yet spent on delivered values.
    @usableFromInline
    var demand: Subscribers.Demand = .none

    /// Values accepted from upstream and not yet delivered.
    @usableFromInline
    var queue = DeliveryQueue<Input>()

    /// The completion to deliver once the queue has drained (a failure empties the queue).
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    /// Every queued value, counted for the senders that wait for its delivery.
    @usableFromInline
    var tickets = DeliveryTickets()

    @usableFromInline
    var slots: ContiguousArray<FanInSlot>

    /// Upstreams that have not completed yet.
    @usableFromInline
    var unfinished: Int

    @inlinable
    init(box: Box, count: Int) {
        self.box = box
        slots = ContiguousArray(repeating: FanInSlot(), count: count)
        unfinished = count
    }

    // MARK: Delivery

    /// Whether events are still accepted (not cancelled, no completion decided).
    @inlinable
    var isOpen: Bool { !terminated && pendingCompletion == nil }

    /// Whether a value may go straight to the subscriber with no bookkeeping: open, nothing
    /// queued, unlimited demand (nothing to count), and no upstream completed yet (so the value
    /// needs no check of which upstream sent it: values an upstream sends after its completion
    /// are dropped, and that takes the lock).
    @inlinable
    var fastEligible: Bool { demand == .unlimited && queue.isEmpty && isOpen && unfinished == slots.count }

    /// Whether a thread that is not emitting should take the role and start ``next()``.
    @inlinable
    var hasWork: Bool {
        if terminated { return box != nil }
        if !queue.isEmpty { return demand > 0 }
        return pendingCompletion != nil
    }

    /// Demand that no queued value is already waiting to spend.
    @inlinable
    var freeDemand: Subscribers.Demand { demand - queue.count }

    /// For the emitter: the next queued value (when demand allows), else the completion once the
    /// queue is empty; after a cancel, the box to release. `.idle` when there is nothing to do.
    @inlinable
    mutating func next() -> Emission {
        if terminated {
            guard let box else { return .idle }
            self.box = nil
            return .release(box)
        }
        if !queue.isEmpty {
            guard demand > 0, let value = queue.popFirst() else { return .idle }
            demand -= 1
            return .value(value)
        }
        if let completion = pendingCompletion, let box {
            pendingCompletion = nil
            terminated = true
            self.box = nil
            return .completion(completion, box)
        }
        return .idle
    }

    /// For the emitter, after a delivered value: records the demand the subscriber returned.
    /// Returns whether the demand grew, so that upstream grants may need topping up.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        guard !terminated, additional != .none, demand != .unlimited else { return false }
        demand += additional
        return true
    }

    // MARK: Upstreams

    @inlinable
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction {
        slots[index].attach(subscription, accepting: !terminated, grantingUpTo: freeDemand)
    }

    /// Accepts a value that could not take the lock-free path. `emitting` says whether the
    /// emitter role may be held (by another thread, by this one further up the stack, or taken at
    /// any moment through the lock-free path).
    @inlinable
    mutating func receive(_ value: Input, at index: Int, emitting: Bool) -> ValueDecision {
        guard isOpen, !slots[index].finished else { return .drop }
        slots[index].consumeOne()
        if !emitting, queue.isEmpty, demand > 0 {
            demand -= 1
            return .deliver
        }
        queue.append(value)
        tickets.enter()
        return .queued
    }

    /// An upstream's completion: whether it was accepted (not after the merge is done, nor a
    /// second one from the same upstream), and the upstreams to cancel (only on failure).
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int
    ) -> (accepted: Bool, cancel: ContiguousArray<any Subscription>) {
        guard isOpen, !slots[index].finished else { return (false, []) }
        _ = slots[index].close()
        unfinished -= 1
        switch completion {
        case .finished:
            if unfinished == 0 { finish() }
            return (true, [])
        case .failure(let error):
            fail(error)
            return (true, slots.closeAll())
        }
    }

    /// Called once every upstream has been subscribed: finishes when there is none at all (an
    /// empty `MergeMany`).
    @inlinable
    mutating func finishIfEmpty() {
        if unfinished == 0 { finish() }
    }

    /// The subscription of the upstream at `index` and how much more to ask it for, when its
    /// grant is below the free demand.
    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        guard isOpen else { return nil }
        return slots[index].topUp(to: freeDemand)
    }

    // MARK: Downstream

    /// Adds downstream demand; returns whether upstream grants may need topping up.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Bool {
        guard !terminated else { return false }
        let wasUnlimited = demand == .unlimited
        demand += more
        return !wasUnlimited
    }

    /// Cancels: nothing more is delivered; the box is released by ``next()``. Returns the
    /// upstream subscriptions to cancel.
    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        terminated = true
        queue.removeAll()
        tickets.markAllSettled()
        pendingCompletion = nil
        return slots.closeAll()
    }
}

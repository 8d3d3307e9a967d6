/// The downstream half shared by the operators that gather events from several upstreams
/// (combineLatest, zip, switchToLatest): it serialises delivery to one subscriber. (`merge` and
/// `flatMap` follow the same rules with their emitter role in an ``AtomicDeliveryRole``.)
///
/// Upstreams may call in concurrently, but a subscriber must see one call at a time and no lock
/// may be held while calling it. So events go into `queue`; whichever thread finds nobody
/// delivering becomes the *emitter* (it holds `role`, see ``DeliveryRole``) and drains the queue
/// outside the lock, one value per demand, then the completion. A thread that sends while another
/// one emits queues its value and waits until the emitter has delivered it (``Step/wait(_:)``,
/// see ``DeliveryTickets``), as Apple's fan-in operators make it wait; it returns early only when
/// the value stays queued for lack of demand. Reentrant sends (a subscriber that sends into its own
/// source, on the emitter's thread) are queued without waiting, so they are delivered after the
/// current call returns instead of recursing; switchToLatest delivers them nested instead, as
/// Apple's does (``takeNested()``).
///
/// This is a pure value: every method runs under the owner's lock and returns the next step; the
/// owner performs the step after unlocking and comes back with ``delivered(additional:)``.
@usableFromInline
struct FanInGate<Downstream: Subscriber>: FanInCompletionDeciding {
    @usableFromInline
    typealias Input = Downstream.Input

    /// What the emitter does next, outside the lock.
    @usableFromInline
    enum Step {
        /// Nothing to do (or someone else is emitting).
        case idle
        /// Deliver `value`, then report the returned demand with ``delivered(additional:)``.
        case value(Downstream, Input)
        /// Deliver the completion, then report back with ``delivered(additional:)`` (`.none`),
        /// which ends the turn; the gate is terminal afterwards.
        case completion(Downstream, Subscribers.Completion<Downstream.Failure>)
        /// Another thread is delivering: sleep until it has delivered what this thread queued
        /// (`LockedState.waitUntilSettled(_:)`).
        case wait(DeliveryTickets.Ticket)
    }

    /// The subscriber, released as soon as it completes or cancels.
    @usableFromInline
    var downstream: Downstream?

    /// Outstanding downstream demand, not yet spent on delivered values.
    @usableFromInline
    var demand: Subscribers.Demand = .none

    /// Values accepted from upstream and not yet delivered.
    @usableFromInline
    var queue = DeliveryQueue<Input>()

    /// The emitter: the thread delivering now, if any.
    @usableFromInline
    var role = DeliveryRole()

    /// Every value that goes through the queue, counted for the senders that wait for their
    /// delivery. Values handed straight out never had a sender waiting for them, and skip it.
    @usableFromInline
    var tickets = DeliveryTickets()

    /// Whether the value the emitter is delivering came out of the queue (and so is counted in
    /// ``tickets``).
    @usableFromInline
    var deliveringQueued = false

    /// The completion to deliver once the queue has drained (a failure empties the queue).
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Whether the gate still accepts events (not cancelled, no completion decided).
    @inlinable
    var isOpen: Bool { downstream != nil && pendingCompletion == nil }

    /// Whether the downstream is gone (cancelled or completed).
    @inlinable
    var isTerminated: Bool { downstream == nil }

    /// Demand that no queued value is already waiting to spend.
    @inlinable
    var freeDemand: Subscribers.Demand { demand - queue.count }

    /// Queues a value for the emitter, whatever the demand, and returns the ticket its sender
    /// waits on; only while the gate is open. For owners that decide themselves when a value may
    /// wait (zip, which delivers a tuple at zero demand).
    @inlinable
    mutating func enqueue(_ value: Input) -> DeliveryTickets.Ticket {
        queue.append(value)
        return tickets.enter()
    }

    /// Whether a value could go straight to the subscriber: open, not emitting, nothing queued,
    /// demand left. Then ``handOut(_:)`` does what ``offer(_:)`` would, minus the checks.
    @inlinable
    var canHandOut: Bool { !role.isHeld && queue.isEmpty && demand > 0 && isOpen }

    /// Starts emitting `value`; only when ``canHandOut`` holds.
    @inlinable @inline(__always)
    mutating func handOut(_ value: Input) -> Step {
        role.take()
        demand -= 1
        return .value(downstream.unsafelyUnwrapped, value)
    }

    /// Accepts a value from upstream: hands it straight out when nobody is emitting, nothing is
    /// queued and there is demand (the common, uncontended case skips the queue); otherwise
    /// queues it and becomes the emitter if nobody is, or waits for the emitter to deliver it.
    @inlinable
    mutating func offer(_ value: Input) -> Step {
        guard isOpen else { return .idle }
        if !role.isHeld, queue.isEmpty, demand > 0, let downstream {
            role.take()
            demand -= 1
            return .value(downstream, value)
        }
        queue.append(value)
        let ticket = tickets.enter()
        return takeTurn(orWaitFor: ticket)
    }

    /// For a value sent from inside the subscriber, on the emitter's thread: when the gate is
    /// open and demand is free, spends one unit and returns the subscriber, to deliver the value
    /// at once, nested in the delivery in progress (for switchToLatest, whose Apple counterpart
    /// delivers such a value at once); `nil` otherwise (the value goes through ``offer(_:)``).
    @inlinable @inline(__always)
    mutating func takeNested() -> Downstream? {
        // Inlined up to here, so that the usual value (nobody delivering) pays one test.
        guard role.isHeld else { return nil }
        return takeNestedWhileHeld()
    }

    /// ``takeNested()`` once the role is known to be held.
    @inlinable @inline(never)
    mutating func takeNestedWhileHeld() -> Downstream? {
        guard freeDemand > .none, pendingCompletion == nil, let downstream, role.isHeldByCurrentThread
        else { return nil }
        demand -= 1
        return downstream
    }

    /// After a delivery made with ``takeNested()``: records the demand the subscriber returned.
    /// The role stays with the delivery it was nested in.
    @inlinable
    mutating func nestedDelivered(additional: Subscribers.Demand) {
        if downstream != nil, additional != .none { demand += additional }
    }

    /// Adds downstream demand.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard downstream != nil else { return }
        demand += more
    }


    /// Cancels: drops the subscriber and everything queued.
    @inlinable
    mutating func cancel() {
        downstream = nil
        queue.removeAll()
        pendingCompletion = nil
        tickets.markAllSettled()
    }

    /// Becomes the emitter if nobody is, and returns the first step to perform. For a call that
    /// sends nothing (a request): it never waits.
    @inlinable
    mutating func kick() -> Step {
        guard role.tryTake() else { return .idle }
        return next()
    }

    /// ``kick()`` for an upstream that has just queued values or decided a completion: when
    /// another thread is emitting, the sender waits until its values (and the completion, which
    /// ends the emitter's turn) have been delivered.
    @inlinable
    mutating func kickAfterSending() -> Step {
        let ticket = pendingCompletion == nil
            ? DeliveryTickets.Ticket(position: tickets.entered &- 1, turn: tickets.turnsEnded)
            : tickets.endOfTurn
        return takeTurn(orWaitFor: ticket)
    }

    /// Becomes the emitter if nobody is; otherwise waits for `ticket`, unless this thread is the
    /// emitter (a send from inside the subscriber, delivered after the call in progress).
    @inlinable
    mutating func takeTurn(orWaitFor ticket: DeliveryTickets.Ticket) -> Step {
        switch role.claim() {
        case .taken: return next()
        case .nested: return .idle
        case .busy: return .wait(ticket)
        }
    }

    /// For the emitter, after each delivery: counts it delivered (its sender may return),
    /// records the demand the subscriber returned and returns the next step.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Step {
        noteDelivered()
        if downstream != nil, additional != .none { demand += additional }
        return next()
    }

    /// Counts the value just delivered, if it came out of the queue: its sender may return.
    @inlinable @inline(__always)
    mutating func noteDelivered() {
        if deliveringQueued {
            deliveringQueued = false
            tickets.markDelivered()
        }
    }

    /// Ends the emitter's turn; senders whose values stay queued for lack of demand return.
    @inlinable
    mutating func endTurn() -> Step {
        role.release()
        tickets.endTurn()
        return .idle
    }

    /// For the emitter: the next value (when demand allows), else the completion once the queue
    /// is empty, else the end of its turn. The turn outlasts the completion's step: it ends when
    /// the emitter reports the completion delivered.
    @inlinable
    mutating func next() -> Step {
        guard let downstream else { return endTurn() }
        if !queue.isEmpty {
            if demand > 0, let value = queue.popFirst() {
                demand -= 1
                deliveringQueued = true
                return .value(downstream, value)
            }
            return endTurn()
        }
        if let completion = pendingCompletion {
            self.downstream = nil
            pendingCompletion = nil
            return .completion(downstream, completion)
        }
        return endTurn()
    }
}

extension FanInGate {
    /// Performs `first` and every step after it, outside any lock.
    ///
    /// `resume` is called with the demand each delivered value returned (`.none` after the
    /// completion); it re-enters the owner's lock, records the demand
    /// (``delivered(additional:)``) and returns the next step. `wait` sleeps until a ticket is
    /// settled (`LockedState.waitUntilSettled(_:)`).
    @inlinable
    static func drain(
        _ first: consuming Step, resume: (Subscribers.Demand) -> Step, wait: (DeliveryTickets.Ticket) -> Void
    ) {
        var step = first
        while true {
            // Consumed, not copied: the subscriber reference moves out of the step instead of
            // being retained once more and released with the old step.
            switch consume step {
            case .idle:
                return
            case .value(let downstream, let value):
                step = resume(downstream.receive(value))
            case .completion(let downstream, let completion):
                downstream.receive(completion: completion)
                step = resume(.none)
            case .wait(let ticket):
                wait(ticket)
                return
            }
        }
    }
}

/// The completion rules fan-in states share (``FanInGate``, flatMap's state machine): a value
/// queue, and a completion decided once and delivered after the queue drains.
@usableFromInline
protocol FanInCompletionDeciding {
    associatedtype Downstream: Subscriber
    /// What the queue holds: the values, or (flatMap) each value with the inner that sent it.
    associatedtype Queued
    /// Whether a completion may still be decided (not cancelled, none decided yet).
    var isOpen: Bool { get }
    var queue: DeliveryQueue<Queued> { get set }
    var tickets: DeliveryTickets { get set }
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>? { get set }
}

extension FanInCompletionDeciding {
    /// Decides a normal finish, delivered after the queued values.
    @inlinable
    mutating func finish() {
        guard isOpen else { return }
        pendingCompletion = .finished
    }

    /// Decides a failure: queued values are dropped and the failure goes out next.
    @inlinable
    mutating func fail(_ error: Downstream.Failure) {
        guard isOpen else { return }
        queue.removeAll()
        tickets.markAllSettled()
        pendingCompletion = .failure(error)
    }
}

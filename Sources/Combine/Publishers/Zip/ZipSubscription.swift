import TributaryLocks

/// What an input's pending `receive(_:)` call will return.
@usableFromInline
struct ZipReply {
    /// Whether the input's upstream is inside `receive(_:)` waiting for, or delivering, the tuple
    /// its value completed: that call returns ``answer``. While it is not, demand meant for the
    /// input is requested from its upstream instead.
    @usableFromInline
    var inReceive = false

    /// The subscriber's answer to the tuple the input completed, plus what the subscriber
    /// requested while that tuple was being delivered.
    @usableFromInline
    var answer: Subscribers.Demand = .none

    @inlinable
    init() {}

    /// Ends the pending call: returns what it must answer.
    @inlinable
    mutating func take() -> Subscribers.Demand {
        inReceive = false
        let taken = answer
        answer = .none
        return taken
    }
}

/// `zip`'s engine (2, 3 and 4 inputs), following Apple's demand protocol for zip, which is not
/// combineLatest's (``FanInCombineStateMachine``):
/// - Each downstream request goes, as it is, to every upstream, whatever was asked before
///   (`.max(2)` after `.unlimited` still reaches them all); an upstream whose subscription has
///   not arrived yet is asked for everything requested so far when it does (its slot's only
///   top-up).
/// - A tuple goes out as soon as it is complete, whatever the subscriber's outstanding demand:
///   no upstream was asked for more than the subscriber wants, so upstreams that keep to their
///   demand cannot make zip exceed it.
/// - The subscriber's answer to a tuple is returned from `receive(_:)` by the input whose value
///   completed the tuple, and by no other (they return `.none`). A request the subscriber makes
///   while that tuple is being delivered goes to every other upstream and is added to that
///   answer instead.
/// - A failure cancels every upstream, the failed one included, and is then delivered.
///
/// Calls into the subscriber are serialised by a ``FanInGate`` given unlimited demand (zip does
/// not hold tuples back): a tuple completed on one thread while another delivers waits in the
/// gate's queue, tagged in ``owners`` with the input that completed it, and that input's sender
/// waits until it is delivered, then returns the answer recorded for it. A tuple completed from
/// inside the subscriber (a re-entrant send) is delivered after the call in progress; its sender
/// has returned `.none` by then, so the answer is requested from its upstream, or joins the
/// answer of an outer call of the same input still inside `receive(_:)`.
///
/// A pure value kept under the subscription's lock; the subscription acts outside it.
@usableFromInline
struct ZipStateMachine<Storage: FanInCombineStorage, Downstream: Subscriber>
where Downstream.Input == Storage.Output {
    /// What the emitter does next, outside the lock.
    @usableFromInline
    typealias Step = FanInGate<Downstream>.Step

    /// Upstream subscriptions to request from or cancel, outside the lock.
    @usableFromInline
    typealias Upstreams = ContiguousArray<any Subscription>

    /// An answer for an input whose `receive(_:)` has already returned, requested from its
    /// upstream instead.
    @usableFromInline
    typealias UpstreamRequest = (subscription: any Subscription, demand: Subscribers.Demand)

    /// Serialises the deliveries; its demand is unlimited from the start, so it never holds a
    /// tuple back (only while another call into the subscriber is in progress).
    @usableFromInline
    var gate: FanInGate<Downstream>

    /// The values of each input that wait for a partner.
    @usableFromInline
    var storage = Storage()

    /// Per input: its upstream's subscription and whether it has finished.
    @usableFromInline
    var slots: ContiguousArray<FanInSlot>

    /// Per input, what its pending `receive(_:)` returns.
    @usableFromInline
    var replies: ContiguousArray<ZipReply>

    /// Inputs that have not completed; while none has, no tuple can be the last.
    @usableFromInline
    var unfinished: Int

    /// Everything the subscriber has requested so far, for an upstream whose subscription
    /// arrives late.
    @usableFromInline
    var requested: Subscribers.Demand = .none

    /// The subscriber's outstanding demand (requested, less what was delivered, plus its
    /// answers), shown by the subscription's mirror; zip delivers without consulting it.
    @usableFromInline
    var demand: Subscribers.Demand = .none

    /// The input whose tuple the emitter is delivering, `-1` while no tuple is being delivered.
    @usableFromInline
    var delivering = -1

    /// For each tuple in the gate's queue, in the same order, the input that completed it.
    @usableFromInline
    var owners = DeliveryQueue<Int>()

    /// Answers to tuples whose input's `receive(_:)` had already returned (tuples completed from
    /// inside the subscriber), for the emitter to request outside the lock. Kept here rather than
    /// returned with every step: the common delivery then carries no existential to copy.
    @usableFromInline
    var answersToRequest = ContiguousArray<UpstreamRequest>()

    /// A zip of `arity` inputs delivering to `downstream`, before any upstream has subscribed.
    @inlinable
    init(downstream: Downstream, arity: Int) {
        gate = FanInGate(downstream: downstream)
        gate.request(.unlimited)
        slots = ContiguousArray(repeating: FanInSlot(), count: arity)
        replies = ContiguousArray(repeating: ZipReply(), count: arity)
        unfinished = arity
    }

    /// Keeps input `index`'s subscription and asks it for everything requested so far; a
    /// second one, or one arriving after the end, is refused.
    @inlinable
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction {
        slots[index].attach(subscription, accepting: gate.isOpen, grantingUpTo: requested)
    }

    /// Stores a value of input `index`; when it completes a tuple, the step that delivers it (or
    /// waits for it to be delivered), and the upstreams to cancel if no tuple can follow.
    @inlinable
    mutating func receive<Input>(
        _ value: Input, at index: Int, store: (inout Storage, Input) -> Void
    ) -> (step: Step, cancel: Upstreams?) {
        guard gate.isOpen, !slots[index].finished else { return (.idle, nil) }
        store(&storage, value)
        guard let output = storage.takeOutput() else { return (.idle, nil) }
        let step: Step
        if gate.canHandOut {
            // The common case: nobody delivers, so this thread delivers its own tuple at once.
            replies[index].inReceive = true
            delivering = index
            step = gate.handOut(output)
        } else {
            let ticket = gate.enqueue(output)
            owners.append(index)
            switch gate.role.claim() {
            case .taken:
                replies[index].inReceive = true
                step = gate.next()
                adoptQueuedTuple()
            case .nested:
                // From inside the subscriber: delivered after the call in progress. This send
                // returns `.none` at once; the tuple's answer goes to the input's pending
                // `receive(_:)` if an outer call of the same input is still inside one, else to
                // its upstream as a request.
                step = .idle
            case .busy:
                replies[index].inReceive = true
                step = .wait(ticket)
            }
        }
        guard unfinished < slots.count, isExhausted else { return (step, nil) }
        gate.finish()
        return (step, closeAll())
    }

    /// Input `index` completed: a failure ends the zip at once, a finish only when the input has
    /// no value left to pair. Returns the step that delivers the completion and the upstreams to
    /// cancel first.
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int
    ) -> (step: Step, cancel: Upstreams?) {
        guard gate.isOpen, !slots[index].finished else { return (.idle, nil) }
        unfinished -= 1
        switch completion {
        case .failure(let error):
            gate.fail(error)
            owners.removeAll()
            // Every upstream is cancelled, the failed one too, in declaration order, and then
            // the failure is delivered: Apple's order.
            return (gate.kickAfterSending(), closeAll())
        case .finished:
            _ = slots[index].close()
            guard isExhausted else { return (.idle, nil) }
            gate.finish()
            let cancel = closeAll()
            return (gate.kickAfterSending(), cancel)
        }
    }

    /// For the emitter, after each delivery: routes the subscriber's answer to the tuple's input
    /// (its pending `receive(_:)`, or ``answersToRequest``) and returns the next step, and
    /// whether ``answersToRequest`` has something. When the emitter's turn ends, `reply` gets
    /// what the emitter's own `receive(_:)` must return, if `caller` (the input it was sent on,
    /// `-1` for a completion) awaits an answer.
    @inlinable
    mutating func delivered(
        _ answer: Subscribers.Demand, caller: Int, reply: inout Subscribers.Demand
    ) -> (step: Step, requestAnswers: Bool) {
        let owner = delivering
        if owner >= 0 {
            delivering = -1
            demand -= 1
            if answer != .none {
                demand += answer
                if replies[owner].inReceive {
                    replies[owner].answer += answer
                } else if let subscription = slots[owner].subscription {
                    answersToRequest.append((subscription, answer))
                }
            }
        }
        let step = gate.delivered(additional: .none)
        adoptQueuedTuple()
        if case .idle = step, caller >= 0, replies[caller].inReceive {
            reply = replies[caller].take()
        }
        return (step, !answersToRequest.isEmpty)
    }

    /// Hands over ``answersToRequest``.
    @inlinable
    mutating func takeAnswersToRequest() -> ContiguousArray<UpstreamRequest> {
        let taken = answersToRequest
        answersToRequest = []
        return taken
    }

    /// For a sender that waited while another thread delivered its tuple: what it returns.
    @inlinable
    mutating func takeAnswer(at index: Int) -> Subscribers.Demand {
        replies[index].take()
    }

    /// Records a downstream request and returns the upstreams to pass it to, as it is.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Upstreams {
        var targets = Upstreams()
        guard gate.isOpen else { return targets }
        demand += more
        requested += more
        // An upstream whose subscription has not arrived is asked for `requested` when it does.
        for index in slots.indices where !slots[index].finished {
            guard let subscription = slots[index].subscription else { continue }
            if index == delivering, replies[index].inReceive {
                replies[index].answer += more
            } else {
                targets.append(subscription)
            }
        }
        return targets
    }

    /// The subscriber cancelled: returns every upstream still running, to cancel.
    @inlinable
    mutating func cancel() -> Upstreams {
        gate.cancel()
        owners.removeAll()
        return closeAll()
    }

    /// The subscription of input `index`, for a request made on that input's subscriber.
    @inlinable
    func upstream(at index: Int) -> (any Subscription)? {
        slots[index].subscription
    }

    /// Lets go of input `index`'s subscription, which its subscriber's `cancel()` cancels; the
    /// zip itself goes on.
    @inlinable
    mutating func detachUpstream(at index: Int) -> (any Subscription)? {
        let held = slots[index].subscription
        slots[index].subscription = nil
        return held
    }

    /// Whether an input has finished with nothing left to pair, so no tuple can follow.
    @inlinable
    var isExhausted: Bool {
        storage.isExhausted(arity: slots.count, unfinished: unfinished) { slots[$0].finished }
    }

    /// Once the gate has popped a queued tuple for delivery, notes whose it is.
    @inlinable @inline(__always)
    mutating func adoptQueuedTuple() {
        if gate.deliveringQueued, delivering < 0 {
            delivering = owners.popFirst() ?? -1
        }
    }

    /// Ends every input and drops the stored values; returns the subscriptions to cancel.
    @inlinable
    mutating func closeAll() -> Upstreams {
        storage.removeAll()
        return slots.closeAll()
    }
}

extension ZipStateMachine: DeliveryTicketing {
    /// The gate's tickets, for the senders that wait on this state's lock.
    @usableFromInline
    var tickets: DeliveryTickets {
        get { gate.tickets }
        set { gate.tickets = newValue }
    }
}

/// The subscription `zip` hands its subscriber; each upstream gets a ``Side``.
@usableFromInline
final class ZipSubscription<Storage: FanInCombineStorage, Downstream: Subscriber>: Subscription,
    ReflectsAsOperator
where Downstream.Input == Storage.Output {
    /// The state this subscription keeps under its lock.
    @usableFromInline
    typealias Machine = ZipStateMachine<Storage, Downstream>

    /// The state machine, behind the lock every upstream and the subscriber go through.
    @usableFromInline
    let state: LockedState<Machine>

    /// A zip of `arity` inputs for `downstream`; the caller attaches ``side(_:store:)`` to each
    /// upstream.
    /// The subscriber's `request(_:)` and `cancel()`, compiled for the concrete types in this
    /// initialiser, which its callers specialise: they arrive through the `Subscription`
    /// existential, whose witnesses run the generic code.
    @usableFromInline
    let requestHook: (ZipSubscription, Subscribers.Demand) -> Void

    /// See ``requestHook``.
    @usableFromInline
    let cancelHook: (ZipSubscription) -> Void

    @inlinable
    init(downstream: Downstream, arity: Int) {
        state = LockedState(Machine(downstream: downstream, arity: arity))
        requestHook = { subscription, demand in subscription.requestNow(demand) }
        cancelHook = { subscription in subscription.cancelNow() }
    }

    /// The subscriber for input `index`; `store` puts its value into the storage.
    @inlinable
    func side<Input>(_ index: Int, store: @escaping (inout Storage, Input) -> Void) -> Side<Input> {
        Side(index: index, parent: self, store: store)
    }

    /// Passes `demand` to every upstream as it is (Apple traps on `.none` here, and so do we).
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        requestHook(self, demand)
    }

    /// ``request(_:)``, in the code ``requestHook`` was compiled into.
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a \(Storage.subscriptionDescription) subscription")
        let targets = state.withLock { $0.request(demand) }
        for subscription in targets { subscription.request(demand) }
    }

    /// Cancels every upstream still running and lets go of the subscriber and the stored values.
    @inlinable
    func cancel() {
        cancelHook(self)
    }

    /// ``cancel()``, in the code ``cancelHook`` was compiled into.
    @inlinable
    func cancelNow() {
        let held = state.withLock { $0.cancel() }
        for subscription in held { subscription.cancel() }
    }

    /// Input `index`'s upstream handed over its subscription.
    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        state.withLock { $0.receive(subscription: subscription, at: index) }.perform()
    }

    /// Returns what input `index`'s upstream gets back for this value: the subscriber's answer
    /// when the value completed a tuple, else `.none`.
    @inlinable
    func receive<Input>(_ value: Input, at index: Int, store: (inout Storage, Input) -> Void) -> Subscribers.Demand {
        let (step, cancel) = state.withLock { $0.receive(value, at: index, store: store) }
        if let cancel {
            for subscription in cancel { subscription.cancel() }
        }
        return deliver(step, caller: index)
    }

    /// Input `index`'s upstream completed; its thread delivers the zip's completion if that ends
    /// the zip and nobody else is delivering.
    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        let (step, cancel) = state.withLock { $0.receive(completion: completion, at: index) }
        if let cancel {
            for subscription in cancel { subscription.cancel() }
        }
        _ = deliver(step, caller: -1)
    }

    /// Performs `step` and what follows it outside the lock; returns the answer owed to input
    /// `caller`'s upstream (`.none` if it is owed nothing).
    @inlinable
    func deliver(_ step: consuming Machine.Step, caller: Int) -> Subscribers.Demand {
        var reply = Subscribers.Demand.none
        FanInGate<Downstream>.drain(step) { answer in
            let (next, requestAnswers) = state.withLock { $0.delivered(answer, caller: caller, reply: &reply) }
            if requestAnswers {
                for (subscription, demand) in state.withLock({ $0.takeAnswersToRequest() }) {
                    subscription.request(demand)
                }
            }
            return next
        } wait: { ticket in
            state.waitUntilSettled(ticket)
            if caller >= 0 { reply = state.withLock { $0.takeAnswer(at: caller) } }
        }
        return reply
    }

    /// A request made on input `index`'s subscriber, passed to that input's upstream.
    @inlinable
    func requestUpstream(_ demand: Subscribers.Demand, at index: Int) {
        state.withLock { $0.upstream(at: index) }?.request(demand)
    }

    /// A cancel made on input `index`'s subscriber: that input's upstream is cancelled.
    @inlinable
    func cancelUpstream(at index: Int) {
        state.withLock { $0.detachUpstream(at: index) }?.cancel()
    }

    /// `"Zip"`, Apple's name for it.
    @usableFromInline
    var description: String { Storage.subscriptionDescription }

    /// One child, `demand`: what the subscriber has requested and not yet received.
    @usableFromInline
    var customMirror: Mirror {
        let demand = state.withLock { $0.demand }
        return Mirror(self, children: ["demand": demand])
    }

    /// What zip attaches to one upstream. Like Apple's, it is the upstream's subscriber and a
    /// subscription of its own (requests and a cancel made on it go to that upstream), one
    /// object per input, and has no description or mirror of its own.
    @usableFromInline
    final class Side<Input>: Subscriber, Subscription {
        /// The upstreams' shared failure, which is the zip's.
        @usableFromInline
        typealias Failure = Downstream.Failure

        /// Which input this is, in declaration order.
        @usableFromInline
        let index: Int

        /// The zip; kept alive by this subscriber for as long as its upstream holds it.
        @usableFromInline
        let parent: ZipSubscription

        /// Puts this input's value into the storage's queue for the input.
        @usableFromInline
        let store: (inout Storage, Input) -> Void

        /// The subscriber for input `index` of `parent`.
        @inlinable
        init(index: Int, parent: ZipSubscription, store: @escaping (inout Storage, Input) -> Void) {
            self.index = index
            self.parent = parent
            self.store = store
        }

        /// Hands the upstream's subscription to the zip.
        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, at: index)
        }

        /// Returns the subscriber's answer when this value completes a tuple, else `.none`.
        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receive(input, at: index, store: store)
        }

        /// Hands the upstream's completion to the zip.
        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receive(completion: completion, at: index)
        }

        /// Asks this input's upstream for `demand`, as it is.
        @inlinable
        func request(_ demand: Subscribers.Demand) {
            parent.requestUpstream(demand, at: index)
        }

        /// Cancels this input's upstream; the zip and its other inputs go on.
        @inlinable
        func cancel() {
            parent.cancelUpstream(at: index)
        }
    }
}

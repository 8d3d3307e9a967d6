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

/// The part of `zip`'s state that does not depend on the inputs' or the subscriber's types: each
/// input's subscription, whether it finished, the answers owed to it, and the demand requested
/// so far. Its rare transitions (subscriptions, requests, completions, cancel) are compiled once,
/// here; those a value goes through are `@inlinable`.
@usableFromInline
struct ZipInputs {
    /// Per input: its upstream's subscription and whether it has finished.
    @usableFromInline
    var slots: ContiguousArray<FanInSlot>

    /// Per input, what its pending `receive(_:)` returns.
    @usableFromInline
    var replies: ContiguousArray<ZipReply>

    /// Per input, answers to tuples whose input's `receive(_:)` had already returned (tuples
    /// completed from inside the subscriber), for the emitter to request from its upstream
    /// outside the lock (``topUp(at:)``).
    @usableFromInline
    var owed: ContiguousArray<Subscribers.Demand>

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

    /// The input whose tuple is being delivered, `-1` while no tuple is being delivered.
    @usableFromInline
    var delivering = -1

    /// `arity` inputs, none subscribed yet.
    @usableFromInline
    init(arity: Int) {
        slots = ContiguousArray(repeating: FanInSlot(), count: arity)
        replies = ContiguousArray(repeating: ZipReply(), count: arity)
        owed = ContiguousArray(repeating: .none, count: arity)
        unfinished = arity
    }

    /// Keeps input `index`'s subscription and asks it for everything requested so far; a
    /// second one, or one arriving while the zip is not `open`, is refused.
    @usableFromInline
    mutating func receive(subscription: any Subscription, at index: Int, open: Bool) -> FanInSubscriptionAction {
        slots[index].attach(subscription, accepting: open, grantingUpTo: requested)
    }

    /// Records a downstream request and returns the upstreams to pass it to, as it is.
    @usableFromInline
    mutating func request(_ more: Subscribers.Demand) -> ContiguousArray<any Subscription> {
        var targets = ContiguousArray<any Subscription>()
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

    /// Input `index` completed, with a failure or not: it no longer counts as running, and a
    /// finished input lets go of its subscription (which ended by itself).
    @usableFromInline
    mutating func complete(at index: Int, failed: Bool) {
        unfinished -= 1
        if !failed { _ = slots[index].close() }
    }

    /// Ends every input; returns the subscriptions to cancel.
    @usableFromInline
    mutating func closeAll() -> ContiguousArray<any Subscription> {
        slots.closeAll()
    }

    /// Input `index`'s pending `receive(_:)` returns the answer to the tuple it completed (its
    /// thread delivers it, or waits for its delivery).
    @inlinable
    mutating func awaitAnswer(at index: Int) {
        replies[index].inReceive = true
    }

    /// After a tuple was delivered: routes the subscriber's answer to the tuple's input (its
    /// pending `receive(_:)`, or ``owed``). Returns whether something is owed to an upstream.
    @inlinable
    mutating func delivered(additional answer: Subscribers.Demand) -> Bool {
        let owner = delivering
        guard owner >= 0 else { return false }
        delivering = -1
        demand -= 1
        guard answer != .none else { return false }
        demand += answer
        if replies[owner].inReceive {
            replies[owner].answer += answer
            return false
        }
        guard slots[owner].subscription != nil else { return false }
        owed[owner] += answer
        return true
    }

    /// What is owed to input `index`'s upstream, to request of it.
    @usableFromInline
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        let answer = owed[index]
        guard answer != .none else { return nil }
        owed[index] = .none
        guard let subscription = slots[index].subscription else { return nil }
        return (subscription, answer)
    }

    /// What input `index`'s pending `receive(_:)` returns, once the tuple it completed (and, if
    /// its thread emitted, every tuple after it) has been delivered.
    @inlinable
    mutating func takeAnswer(at index: Int) -> Subscribers.Demand {
        replies[index].take()
    }

    /// Lets go of input `index`'s subscription, which its subscriber's `cancel()` cancels.
    @usableFromInline
    mutating func detachUpstream(at index: Int) -> (any Subscription)? {
        slots[index].subscription.take()
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
/// Calls into the subscriber are serialised by ``DeliveryEmitter``, whose ``EmitterState`` is
/// given unlimited demand (zip does not hold tuples back): a tuple completed on one thread while
/// another delivers waits in the emitter's queue, tagged with the input that completed it, and
/// that input's sender waits until it is delivered, then returns the answer recorded for it. A
/// tuple completed from inside the subscriber (a re-entrant send) is delivered after the call in
/// progress; its sender has returned `.none` by then, so the answer is requested from its
/// upstream (``topUp(at:)``), or joins the answer of an outer call of the same input still inside
/// `receive(_:)`.
///
/// A pure value kept under the subscription's lock; the subscription acts outside it.
@usableFromInline
struct ZipStateMachine<Storage: FanInCombineStorage, Downstream: Subscriber>: EmitterMachine
where Downstream.Input == Storage.Output {
    /// Upstream subscriptions to request from or cancel, outside the lock.
    @usableFromInline
    typealias Upstreams = ContiguousArray<any Subscription>

    /// The inputs' subscriptions, completions and answers.
    @usableFromInline
    var inputs: ZipInputs

    /// The values of each input that wait for a partner.
    @usableFromInline
    var storage = Storage()

    /// The downstream half; each queued tuple is tagged with the input that completed it. Its
    /// demand is unlimited from the start, so it never holds a tuple back (only while another
    /// call into the subscriber is in progress). Last, with `storage` before it: their sizes
    /// depend on the subscriber's types, and the fields before them are then reached at fixed
    /// offsets in a debug build, without this type's metadata.
    @usableFromInline
    var emitter: EmitterState<Downstream, Int>

    /// See ``EmitterMachine/deliverAtOnce(_:tag:emitting:)``.
    @inlinable
    mutating func deliverAtOnce(_ value: Downstream.Input, tag: Int, emitting: Bool) -> Bool {
        emitter.deliverAtOnce(value, tag: tag, emitting: emitting)
    }

    /// A zip of `arity` inputs delivering into `box`, before any upstream has subscribed.
    @inlinable
    init(box: SubscriberBox<Downstream>, arity: Int) {
        emitter = EmitterState(box: box)
        _ = emitter.request(.unlimited)
        inputs = ZipInputs(arity: arity)
    }

    /// Never: every tuple's answer is routed under the lock after its delivery.
    @inlinable
    var fastEligible: Bool { false }

    /// The subscriber's outstanding demand, for the mirror.
    @inlinable
    var demand: Subscribers.Demand { inputs.demand }

    /// Keeps input `index`'s subscription and asks it for everything requested so far; a
    /// second one, or one arriving after the end, is refused.
    @inlinable
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction {
        inputs.receive(subscription: subscription, at: index, open: emitter.isOpen)
    }

    /// Stores a value of `input`; returns whether it was kept (the zip is open and the input has
    /// not finished). The tuple it may complete is taken from ``storage`` by the caller.
    @inlinable
    mutating func store<Input: FanInCombineInput>(_ value: Input.Value, into input: Input.Type) -> Bool
    where Input.Storage == Storage {
        guard emitter.isOpen, !inputs.slots[Input.index].finished else { return false }
        Input.store(value, in: &storage)
        return true
    }

    /// After a tuple was handed to the emitter: when no tuple can follow, decides the finish
    /// (delivered after the tuples) and returns the upstreams to cancel.
    @inlinable
    mutating func finishIfExhausted() -> Upstreams? {
        guard inputs.unfinished < inputs.slots.count, isExhausted else { return nil }
        emitter.finish()
        return closeAll()
    }

    /// Input `index` completed: a failure ends the zip at once, a finish only when the input has
    /// no value left to pair. Returns whether the emitter must settle (a completion was decided),
    /// and the upstreams to cancel first.
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int
    ) -> (decided: Bool, cancel: Upstreams?) {
        guard emitter.isOpen, !inputs.slots[index].finished else { return (false, nil) }
        switch completion {
        case .failure(let error):
            inputs.complete(at: index, failed: true)
            emitter.fail(error)
            // Every upstream is cancelled, the failed one too, in declaration order, and then
            // the failure is delivered: Apple's order.
            return (true, closeAll())
        case .finished:
            inputs.complete(at: index, failed: false)
            guard isExhausted else { return (false, nil) }
            emitter.finish()
            return (true, closeAll())
        }
    }

    /// The emitter is about to deliver the tuple input `index` completed.
    @inlinable
    mutating func willDeliver(tag index: Int) {
        inputs.delivering = index
    }

    /// After a tuple was delivered: routes the subscriber's answer to the tuple's input.
    /// Returns whether something is owed to an upstream.
    @inlinable
    mutating func delivered(additional answer: Subscribers.Demand) -> Bool {
        inputs.delivered(additional: answer)
    }

    /// What is owed to input `index`'s upstream, to request of it.
    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        inputs.topUp(at: index)
    }

    /// Records a downstream request and returns the upstreams to pass it to, as it is.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Upstreams {
        guard emitter.isOpen else { return Upstreams() }
        return inputs.request(more)
    }

    /// The subscriber cancelled: returns every upstream still running, to cancel.
    @inlinable
    mutating func cancel() -> Upstreams {
        emitter.cancel()
        return closeAll()
    }

    /// Whether an input has finished with nothing left to pair, so no tuple can follow.
    @inlinable
    var isExhausted: Bool {
        storage.isExhausted(arity: inputs.slots.count, unfinished: inputs.unfinished) { inputs.slots[$0].finished }
    }

    /// Ends every input and drops the stored values; returns the subscriptions to cancel.
    @inlinable
    mutating func closeAll() -> Upstreams {
        storage.removeAll()
        return inputs.closeAll()
    }
}

/// The subscription `zip` hands its subscriber (see ``DeliveryEmitter``); each upstream gets a
/// ``Side``.
@usableFromInline
final class ZipSubscription<Storage: FanInCombineStorage, Downstream: Subscriber>:
    DeliveryEmitter<ZipStateMachine<Storage, Downstream>>, Subscription, ReflectsAsOperator
where Downstream.Input == Storage.Output {
    /// The state this subscription keeps under its lock.
    @usableFromInline
    typealias Machine = ZipStateMachine<Storage, Downstream>

    /// How a tuple completed on this thread goes on, decided under the lock.
    @usableFromInline
    enum Turn {
        /// This thread delivers its own tuple, then goes on as the emitter.
        case deliver(Storage.Output)
        /// This thread became the emitter for tuples queued ahead of its own.
        case emit
        /// Another thread delivers: wait for this tuple's delivery, then take its answer.
        case wait
        /// No tuple, or one completed from inside the subscriber (delivered after the call in
        /// progress): return `.none` at once.
        case none
    }

    /// A zip of `arity` inputs for `downstream`; the caller attaches ``side(_:)`` to each
    /// upstream.
    @inlinable
    init(downstream: Downstream, arity: Int) {
        let box = SubscriberBox(downstream)
        // Each input is an "upstream" for the emitter to top up: with the answers owed to it.
        super.init(
            box: box, machine: Machine(box: box, arity: arity), upstreamCount: arity, racingLockFreeTakers: false,
            requestHook: { emitter, demand in
                unsafeDowncast(emitter, to: ZipSubscription.self).requestNow(demand)
            })
    }

    /// ``DeliveryEmitter/request(_:)``, in the code ``DeliveryEmitter/requestHook`` was compiled
    /// into: passes `demand` to every upstream as it is (Apple traps on `.none` here, and so do
    /// we).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a \(Storage.subscriptionDescription) subscription")
        let targets = state.withLock { $0.request(demand) }
        for subscription in targets { subscription.request(demand) }
    }

    /// Input `index`'s upstream handed over its subscription.
    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        state.withLock { $0.receive(subscription: subscription, at: index) }.perform()
    }

    /// Returns what `input`'s upstream gets back for this value: the subscriber's answer when the
    /// value completed a tuple, else `.none`.
    ///
    /// Only storing the value depends on the input's type: the rest is
    /// ``receive(at:storing:)``, compiled once per zip rather than once per input.
    @inlinable
    func receive<Input: FanInCombineInput>(
        _ value: Input.Value, into input: Input.Type
    ) -> Subscribers.Demand where Input.Storage == Storage {
        receive(at: Input.index) { machine in machine.store(value, into: input) }
    }

    /// A value of input `index`, which `store` puts into the storage under the mutex (it
    /// returns `false` when the zip no longer takes the input's values).
    @inlinable @inline(never)
    func receive(at index: Int, storing store: (inout Machine) -> Bool) -> Subscribers.Demand {
        var step = Step.idle
        var ticket: DeliveryTickets.Ticket?
        var cancel: Machine.Upstreams?
        let turn = state.withLock { machine -> Turn in
            guard store(&machine), let output = machine.storage.takeOutput() else { return .none }
            let turn: Turn
            if acceptLocked(output, tag: index, &machine, step: &step, ticket: &ticket) {
                // The common case: nobody delivers, so this thread delivers its own tuple at once.
                machine.willDeliver(tag: index)
                machine.inputs.awaitAnswer(at: index)
                turn = .deliver(output)
            } else if case .idle = step {
                // From inside the subscriber, the tuple is delivered after the call in progress:
                // this send returns `.none` at once, and the tuple's answer goes to the input's
                // pending `receive(_:)` if an outer call of the same input is still inside one,
                // else to its upstream as a request.
                if ticket != nil { machine.inputs.awaitAnswer(at: index) }
                turn = ticket == nil ? .none : .wait
            } else {
                machine.inputs.awaitAnswer(at: index)
                turn = .emit
            }
            cancel = machine.finishIfExhausted()
            return turn
        }
        if let cancel {
            for subscription in cancel { subscription.cancel() }
        }
        switch turn {
        case .none:
            return .none
        case .deliver(let output):
            let answer = deliver(output)
            let (next, reply) = state.withLock { machine -> (Step, Subscribers.Demand?) in
                _ = machine.delivered(additional: answer)
                let next = nextLocked(&machine)
                if case .idle = next { return (next, machine.inputs.takeAnswer(at: index)) }
                return (next, nil)
            }
            if let reply { return reply }
            emit(next)
            return state.withLock { $0.inputs.takeAnswer(at: index) }
        case .emit:
            emit(step)
            return state.withLock { $0.inputs.takeAnswer(at: index) }
        case .wait:
            state.waitUntilSettled(ticket.unsafelyUnwrapped)
            return state.withLock { $0.inputs.takeAnswer(at: index) }
        }
    }

    /// Input `index`'s upstream completed; its thread delivers the zip's completion if that ends
    /// the zip and nobody else is delivering.
    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        receiveCompletion { $0.receive(completion: completion, at: index) }
    }

    /// A request made on input `index`'s subscriber, passed to that input's upstream.
    @inlinable
    func requestUpstream(_ demand: Subscribers.Demand, at index: Int) {
        state.withLock { $0.inputs.slots[index].subscription }?.request(demand)
    }

    /// A cancel made on input `index`'s subscriber: that input's upstream is cancelled.
    @inlinable
    func cancelUpstream(at index: Int) {
        state.withLock { $0.inputs.detachUpstream(at: index) }?.cancel()
    }

    /// `"Zip"`, Apple's name for it.
    @usableFromInline
    var description: String { Storage.subscriptionDescription }

    /// One child, `demand`: what the subscriber has requested and not yet received. The
    /// superclass is left out, as Apple's `Zip` has none to show.
    @usableFromInline
    var customMirror: Mirror {
        let demand = state.withLock { $0.demand }
        return Mirror(self, children: ["demand": demand], ancestorRepresentation: .suppressed)
    }
}

extension ZipSubscription: UpstreamFanInEventReceiver {}

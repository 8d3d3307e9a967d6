import TributaryLocks

/// What the thread that holds a ``DeliveryEmitter``'s role does next, outside the lock.
@usableFromInline
enum Emission<Downstream: Subscriber, Tag> {
    /// Nothing: the role has been given back.
    case idle
    /// Deliver a queued value, then come back with the demand it returned (the role is kept).
    /// `tag` says where it came from, for a machine that acts on it after the delivery (flatMap
    /// asks the inner that sent it for one more).
    case value(Downstream.Input, tag: Tag)
    /// Deliver the completion; the role has been given back, and the box is the caller's to drop
    /// afterwards.
    case completion(Subscribers.Completion<Downstream.Failure>, SubscriberBox<Downstream>)
    /// The subscriber cancelled: drop the box (outside the lock); the role has been given back.
    case release(SubscriberBox<Downstream>)
}

/// Where an ``EmitterState`` stands: taking events, draining its queue towards a decided
/// completion, or done.
@usableFromInline
enum EmitterPhase {
    case open
    case completing
    case ended

    /// Whether events are still accepted (not cancelled, no completion decided). For a machine's
    /// checks made without the machine's metadata, which read the phase field of its
    /// ``EmitterState`` directly (see ``EmitterFlags``).
    @inlinable
    var isOpen: Bool {
        if case .open = self { return true }
        return false
    }
}

/// The rules of ``EmitterState`` that every value goes through, on the plain fields they read.
/// The state's members apply them to its own fields; a machine may apply them to its emitter's
/// fields directly, which a debug build reaches at fixed offsets, where calling a member of the
/// generic state passes the state's metadata, looked up at every call (about 340 instructions).
@usableFromInline
enum EmitterRules {
    /// Whether a value may go to the subscriber with no bookkeeping: open, nothing queued, and
    /// unlimited demand (so there is nothing to count).
    @inlinable
    static func flowsFreely(phase: EmitterPhase, demand: Subscribers.Demand, queued: Int) -> Bool {
        demand == .unlimited && queued == 0 && phase.isOpen
    }

    /// Whether a value that passed the operator's checks goes to the subscriber at once, on this
    /// thread: nothing is `emitting` (see ``EmitterState/deliverAtOnce(_:tag:emitting:)``),
    /// nothing is queued and there is demand, which is then spent. Otherwise the caller queues it.
    @inlinable
    static func spendsAtOnce(demand: inout Subscribers.Demand, queued: Int, emitting: Bool) -> Bool {
        guard !emitting, queued == 0, demand > 0 else { return false }
        demand -= 1
        return true
    }
}

/// What a machine's non-generic core keeps of its ``EmitterState`` for the checks it makes for
/// every inner publisher (``FlatMapCore``, ``SwitchToLatestCore``): those checks then read
/// nothing of the generic state, whose fields a debug build reaches only with the machine's
/// metadata. The state's members that change what is copied here take the flags along
/// (``EmitterState/finish(keeping:)``, ``EmitterState/fail(_:keeping:)``,
/// ``EmitterState/cancel(keeping:)``), and the machine notes each change of demand
/// (``note(demand:)``).
@usableFromInline
struct EmitterFlags {
    /// Whether the state is open (no completion decided, not cancelled); it never reopens.
    @usableFromInline
    var open = true

    /// Whether the subscriber's demand is unlimited; it stays so once it is.
    @usableFromInline
    var demandUnlimited = false

    @inlinable
    init() {}

    /// After the demand grew: follows it once it is unlimited. `demand` is the new total, or
    /// what was just added to it (flatMap's answers: testing the answer costs its optimised
    /// value path 4 instructions less). The two differ only after a cancel, where the checks
    /// stop at ``open`` first, and for a finite sum that saturates, which the copy then misses
    /// (the checks then take the machine's own path).
    @inlinable
    mutating func note(demand: Subscribers.Demand) {
        if demand == .unlimited { demandUnlimited = true }
    }

    /// Returns `open`, the state's own answer (its phase field, read by the machine at a fixed
    /// offset), after asserting that the copy agrees with it.
    @inlinable
    func checked(open: Bool) -> Bool {
        assert(open == self.open, "the core's copy of the emitter's phase went stale")
        return open
    }
}

/// The downstream half of a ``DeliveryEmitter``'s machine (`merge`, `combineLatest`, `flatMap`,
/// `switchToLatest`, `zip`): the subscriber's box, its demand, the values waiting for it (each with
/// its `Tag`: `Void`, for flatMap the inner that sent it, for zip the input that completed the
/// tuple) and the completion decided for it. A pure value kept in the operator's locked state; the
/// operator adds its upstreams' side.
///
/// The box is released only through the emitter role (``next()`` hands it out), so that whoever
/// holds the role may call the subscriber through an unowned reference.
@usableFromInline
struct EmitterState<Downstream: Subscriber, Tag> {
    @usableFromInline
    typealias Input = Downstream.Input

    /// A value waiting for demand, with where it came from.
    @usableFromInline
    typealias Queued = (value: Input, tag: Tag)

    @usableFromInline
    typealias Box = SubscriberBox<Downstream>

    /// The subscriber's box; `nil` once it has been handed out for the completion or for release.
    @usableFromInline
    var box: Box?

    /// Open, completing (a completion is decided and waits for the queue), or ended (the
    /// subscriber cancelled, or its completion was handed to the emitter). Kept apart from
    /// ``pendingCompletion`` so that the checks made for every value read a plain enum: testing
    /// an optional of a generic type looks up type metadata at run time in a debug build, several
    /// times per value.
    @usableFromInline
    var phase = EmitterPhase.open

    /// Outstanding downstream demand, not yet spent on delivered values.
    @usableFromInline
    var demand: Subscribers.Demand = .none

    /// Every queued value, counted for the senders that wait for its delivery.
    @usableFromInline
    var tickets = DeliveryTickets()

    /// How many values ``queue`` holds: its count, kept here as well. The queue's own offset in
    /// this type depends on its element's alignment, so a debug build reaches `queue.count` only
    /// through this type's metadata, looked up at every access (about 340 instructions); this
    /// field is at a fixed offset, as are the ones above.
    @usableFromInline
    var queuedCount = 0

    // The fields whose size depends on the subscriber's types come last, so that a debug build
    // reaches the ones above at fixed offsets, without looking up this type's metadata.

    /// Values accepted from upstream and not yet delivered.
    @usableFromInline
    var queue = DeliveryQueue<Queued>()

    /// The completion to deliver once the queue has drained (a failure empties the queue); set
    /// only while ``phase`` is `completing`.
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    @inlinable
    init(box: Box) {
        self.box = box
    }

    /// The subscriber cancelled, or its completion was handed to the emitter.
    @inlinable
    var terminated: Bool {
        if case .ended = phase { return true }
        return false
    }

    /// Whether events are still accepted (not cancelled, no completion decided).
    @inlinable
    var isOpen: Bool {
        if case .open = phase { return true }
        return false
    }

    /// Whether a completion is decided and waits for the queued values.
    @inlinable
    var isCompleting: Bool {
        if case .completing = phase { return true }
        return false
    }

    /// Whether a value may go to the subscriber with no bookkeeping: see
    /// ``EmitterRules/flowsFreely(phase:demand:queued:)``.
    @inlinable
    var flowsFreely: Bool {
        EmitterRules.flowsFreely(phase: phase, demand: demand, queued: queuedCount)
    }

    /// Whether a thread that is not emitting should take the role and start ``next()``.
    @inlinable
    var hasWork: Bool {
        if terminated { return box != nil }
        if queuedCount != 0 { return demand > 0 }
        return isCompleting
    }

    /// Demand that no queued value is already waiting to spend.
    @inlinable
    var freeDemand: Subscribers.Demand { demand - queuedCount }

    /// What to do with a value that has passed the operator's own checks: deliver it on this
    /// thread (`true`, the demand is spent) when `emitting` is false, nothing is queued and there
    /// is demand; otherwise queue it for the emitter (`false`). `emitting` says whether the role
    /// may be held (by another thread, by this one further up the stack, or taken at any moment
    /// without the lock).
    @inlinable
    mutating func deliverAtOnce(_ value: Input, tag: Tag, emitting: Bool) -> Bool {
        let queued = queuedCount
        if EmitterRules.spendsAtOnce(demand: &demand, queued: queued, emitting: emitting) { return true }
        enqueue(value, tag: tag)
        return false
    }

    /// ``deliverAtOnce(_:tag:emitting:)``'s other outcome, in a function of its own: a debug
    /// build looks up the metadata of the queue's element, a tuple, on entry to any function that
    /// appends one, and most values are delivered at once.
    @inlinable @inline(never)
    mutating func enqueue(_ value: Input, tag: Tag) {
        queue.append((value, tag))
        queuedCount += 1
        assert(queuedCount == queue.count, "EmitterState: the copy of the queue's count went stale")
        tickets.enter()
    }

    /// For the emitter: the next queued value (when demand allows), else the completion once the
    /// queue is empty; after a cancel, the box to release. `.idle` when there is nothing to do.
    @inlinable
    mutating func next() -> Emission<Downstream, Tag> {
        if terminated {
            guard let box else { return .idle }
            self.box = nil
            return .release(box)
        }
        if queuedCount != 0 {
            guard demand > 0, let queued = queue.popFirst() else { return .idle }
            queuedCount -= 1
            demand -= 1
            return .value(queued.value, tag: queued.tag)
        }
        if isCompleting, let completion = pendingCompletion, let box {
            pendingCompletion = nil
            phase = .ended
            self.box = nil
            return .completion(completion, box)
        }
        return .idle
    }

    /// For the emitter, after a delivered value: records the demand the subscriber returned.
    /// Returns whether the demand grew (so that upstream grants may need topping up).
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        guard !terminated, additional != .none, demand != .unlimited else { return false }
        demand += additional
        return true
    }

    /// Adds the subscriber's demand; returns whether it was finite before.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Bool {
        guard !terminated else { return false }
        let wasUnlimited = demand == .unlimited
        demand += more
        return !wasUnlimited
    }

    /// Decides a normal finish, delivered after the queued values.
    @inlinable
    mutating func finish() {
        guard isOpen else { return }
        phase = .completing
        pendingCompletion = .finished
    }

    /// Decides a failure: queued values are dropped and the failure goes out next.
    @inlinable
    mutating func fail(_ error: Downstream.Failure) {
        guard isOpen else { return }
        queue.removeAll()
        queuedCount = 0
        tickets.markAllSettled()
        phase = .completing
        pendingCompletion = .failure(error)
    }

    /// Cancels: nothing more is delivered; the box is released by ``next()``.
    @inlinable
    mutating func cancel() {
        phase = .ended
        queue.removeAll()
        queuedCount = 0
        tickets.markAllSettled()
        pendingCompletion = nil
    }

    /// ``finish()``, for a machine whose core copies `flags`.
    @inlinable
    mutating func finish(keeping flags: inout EmitterFlags) {
        finish()
        flags.open = false
    }

    /// ``fail(_:)``, for a machine whose core copies `flags`.
    @inlinable
    mutating func fail(_ error: Downstream.Failure, keeping flags: inout EmitterFlags) {
        fail(error)
        flags.open = false
    }

    /// ``cancel()``, for a machine whose core copies `flags`.
    @inlinable
    mutating func cancel(keeping flags: inout EmitterFlags) {
        cancel()
        flags.open = false
    }

    /// The ticket a thread that has just sent an upstream's completion waits on while another
    /// thread emits: the values queued before it, or the whole turn once the completion it sent
    /// decided the operator's own.
    @inlinable
    var completionTicket: DeliveryTickets.Ticket {
        isCompleting
            ? tickets.endOfTurn
            : tickets.lastEntered
    }
}

/// An operator's locked state, as ``DeliveryEmitter`` drives it: the downstream half
/// (``EmitterState``) and the operator's own rules.
@usableFromInline
protocol EmitterMachine: DeliveryTicketing {
    associatedtype Downstream: Subscriber

    /// What a queued value carries besides itself (`Void`, flatMap's inner slot, or the zip input
    /// that completed the tuple).
    associatedtype Tag

    /// The downstream half.
    var emitter: EmitterState<Downstream, Tag> { get set }

    /// ``EmitterState/deliverAtOnce(_:tag:emitting:)`` on ``emitter``, written out by each
    /// machine on its stored property. Through the protocol, `machine.emitter.deliverAtOnce(...)`
    /// goes through the requirement's `_modify` accessor, and a debug build allocates that
    /// coroutine's frame, whose size depends on the machine's type, on the heap: a `malloc` and a
    /// `free` for every value.
    mutating func deliverAtOnce(_ value: Downstream.Input, tag: Tag, emitting: Bool) -> Bool

    /// Whether values may skip the lock and the bookkeeping (published as the role's attention
    /// flag being clear).
    var fastEligible: Bool { get }

    /// For the emitter, after a delivered value: records the demand the subscriber returned;
    /// returns whether upstream grants may need topping up.
    mutating func delivered(additional: Subscribers.Demand) -> Bool

    /// Under the lock, as the emitter takes the queued value tagged `tag` for delivery (zip notes
    /// whose tuple is in flight, for the requests made meanwhile and for the answer). Nothing by
    /// default.
    mutating func willDeliver(tag: Tag)

    /// For the emitter, after the queued value tagged `tag` was delivered and counted: a
    /// subscription to ask for one more value outside the lock, with the role kept meanwhile
    /// (flatMap's inner that sent the value); ``endFollowUp()`` then runs under the lock. `nil`
    /// (the default) when there is nothing to ask.
    mutating func beginFollowUp(after tag: Tag) -> (any Subscription)?

    /// Under the lock, after the request ``beginFollowUp(after:)`` asked for.
    mutating func endFollowUp()

    /// The subscription of the upstream at `index` and how much more to ask it for, when its
    /// grant is below what the subscriber's demand allows (`nil`, the default, for a machine
    /// without fixed upstreams).
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)?

    /// Cancels; returns the upstream subscriptions to cancel.
    mutating func cancel() -> ContiguousArray<any Subscription>
}

extension EmitterMachine {
    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? { nil }

    /// The emitter's tickets, for the senders that wait on the operator's lock.
    @inlinable
    var tickets: DeliveryTickets {
        get { emitter.tickets }
        set { emitter.tickets = newValue }
    }

    @inlinable @inline(__always)
    mutating func willDeliver(tag: Tag) {}

    @inlinable @inline(__always)
    mutating func beginFollowUp(after tag: Tag) -> (any Subscription)? { nil }

    @inlinable @inline(__always)
    mutating func endFollowUp() {}
}

/// The machine of a fan-in operator with a fixed set of upstreams (`merge`, `combineLatest`),
/// whose requests and upstream subscriptions ``DeliveryEmitter`` serves alike.
@usableFromInline
protocol FanInMachine: EmitterMachine where Tag == Void {
    /// Adds the subscriber's demand; returns whether upstream grants may need topping up.
    mutating func request(_ demand: Subscribers.Demand) -> Bool

    /// Keeps, refuses or requests on the subscription the upstream at `index` hands over.
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction
}

/// The module's one way of delivering what several threads send into one subscriber, used by the
/// subscriptions of `merge`, `combineLatest`, `flatMap`, `switchToLatest` and `zip`: it owns the
/// *emitter* role, the values waiting for demand, the wait of cross-thread senders and the drain
/// loop; the operator's `Machine` owns the rules.
///
/// One thread at a time is the *emitter*: only the emitter calls the subscriber, and it delivers
/// what has queued up before giving the role back, so calls never overlap and never run under
/// the lock. The role is an ``AtomicDeliveryRole`` rather than part of the locked state, so that
/// the emitter can give it back with one compare-and-swap instead of a second trip through the
/// mutex, and (for `merge` and `flatMap`) a value can take it without the mutex at all, while
/// ``EmitterMachine/fastEligible`` holds (published as the role's attention flag being clear).
/// The subscriber is reached through an unowned reference to its box (no reference counting).
/// Everything else (finite demand, queued values, completions, cancellation) goes through the
/// mutex; whoever changes the state there republishes the flag, and raising it while someone
/// emits makes that emitter's give-back fail, so it comes back through the mutex and sees what
/// changed. So a role found free with the flag clear under the mutex means that
/// ``EmitterMachine/fastEligible`` holds, which `combineLatest` relies on to skip its checks
/// and the demand counting.
///
/// An upstream that sends from another thread while the emitter delivers queues its value and
/// waits until the emitter has delivered it (see ``DeliveryTickets``), as Apple's fan-in
/// operators make it wait; it returns early only when the value stays queued for lack of demand.
/// One that sends from inside the subscriber, on the emitter's thread, does not wait: `merge`,
/// `combineLatest` and `zip` deliver its value after the call in progress returns, instead of
/// recursing; `flatMap` and `switchToLatest` deliver it at once, nested, as Apple's do (the role's
/// thread token tells the two apart).
///
/// A class for the operators' subscriptions to inherit from: it also serves their `cancel`, and for
/// a ``FanInMachine`` their `request` and upstream subscriptions.
@usableFromInline
class DeliveryEmitter<Machine: EmitterMachine> {
    @usableFromInline
    typealias Downstream = Machine.Downstream

    @usableFromInline
    typealias Step = Emission<Downstream, Machine.Tag>

    @usableFromInline
    final let state: LockedState<Machine>

    /// The subscriber's box, unowned: the machine owns it, and releases it only through the
    /// emitter role, so whoever holds the role may use this.
    @usableFromInline
    final let downstream: Unmanaged<SubscriberBox<Downstream>>

    /// The emitter role, with the emitter's thread token.
    @usableFromInline
    final let role = AtomicDeliveryRole(keepingLockFreeTakersOut: true)

    /// How many upstreams ``topUpAll()`` visits: a ``FanInMachine``'s, zip's inputs,
    /// switchToLatest's current inner (`1`), none for flatMap.
    @usableFromInline
    final let upstreamCount: Int

    /// The subscriber's `request(_:)` and `cancel()`, compiled for the concrete types. They
    /// arrive through the `Subscription` existential, whose witnesses run the generic code: a
    /// `combineLatest`'s cancel looked up type metadata for about 20,000 instructions. The
    /// subclass makes `requestHook` in its initialiser, which its callers specialise, and so is
    /// `cancelHook` made here.
    @usableFromInline
    final let requestHook: (DeliveryEmitter, Subscribers.Demand) -> Void

    /// See ``requestHook``.
    @usableFromInline
    final let cancelHook: (DeliveryEmitter) -> Void

    /// `racingLockFreeTakers`: whether values take the role without the mutex.
    @inlinable
    init(
        box: SubscriberBox<Downstream>, machine: Machine, upstreamCount: Int, racingLockFreeTakers: Bool,
        requestHook: @escaping (DeliveryEmitter, Subscribers.Demand) -> Void
    ) {
        self.upstreamCount = upstreamCount
        self.racingLockFreeTakers = racingLockFreeTakers
        downstream = Unmanaged.passUnretained(box)
        state = LockedState(machine)
        self.requestHook = requestHook
        cancelHook = { emitter in emitter.cancelNow() }
    }

    /// `state.withLock(body)`, called on this class: a debug build then takes the machine's type
    /// from the object rather than looking up its metadata, about 330 instructions, as a
    /// subclass's own call of `state.withLock` does (the subclass knows the machine as a type
    /// made of its generic parameters). For the lock trips made for every value.
    @inlinable
    final func withMachine<Result>(_ body: (inout Machine) -> Result) -> Result {
        state.withLock(body)
    }

    /// The subscriber's `request(_:)`: runs the subclass's ``requestHook``.
    @inlinable
    final func request(_ demand: Subscribers.Demand) {
        requestHook(self, demand)
    }

    @inlinable
    final func cancel() {
        cancelHook(self)
    }

    /// ``cancel()``, in the code ``cancelHook`` was compiled into.
    @inlinable
    final func cancelNow() {
        var held = ContiguousArray<any Subscription>()
        let step = state.withLock { machine -> Step in
            held = machine.cancel()
            return settleLocked(&machine)
        }
        for subscription in held { subscription.cancel() }
        emit(step)
    }

    /// The mirror `merge` and `combineLatest` show: the subscriber's demand.
    @usableFromInline
    final var demandMirror: Mirror {
        let demand = state.withLock { $0.emitter.demand }
        return Mirror(self, children: ["demand": demand])
    }

    /// Under the mutex, by a thread that does not hold the role, after changing the state:
    /// republishes whether lock-free deliveries are allowed and takes the role when there is
    /// something to deliver and nobody is emitting. Returns the first step when it took the
    /// role.
    @inlinable
    final func settleLocked(_ machine: inout Machine) -> Step {
        if settleTakingLocked(&machine) {
            return nextLocked(&machine)
        }
        return .idle
    }

    /// ``settleLocked(_:)`` without the first step: returns whether this thread took the role,
    /// and then owes a ``nextLocked(_:)`` (``performQueued(tookRole:_:)``).
    @inlinable @inline(__always)
    final func settleTakingLocked(_ machine: inout Machine) -> Bool {
        role.settleLocked(
            take: inPlace(&machine.emitter) { $0.hasWork }, keepingLockFreeTakersOut: !machine.fastEligible)
    }

    /// Under the mutex, by the emitter: the next step, giving the role back when there is
    /// nothing left to deliver (a plain store: while the role is held nobody else changes the
    /// word without the mutex). Giving the role back ends the turn for the waiting senders, except
    /// before a completion, whose turn ends once it has been delivered.
    @inlinable
    final func nextLocked(_ machine: inout Machine) -> Step {
        let step = machine.emitter.next()
        let keepOut = !machine.fastEligible
        switch step {
        case .value(_, let tag):
            machine.willDeliver(tag: tag)
            role.storeLocked(role.heldWord(keepingLockFreeTakersOut: keepOut))
        case .completion:
            role.storeLocked(keepOut ? AtomicDeliveryRole.attentionFlag : 0)
        case .idle, .release:
            role.storeLocked(keepOut ? AtomicDeliveryRole.attentionFlag : 0)
            machine.emitter.tickets.endTurn()
        }
        return step
    }

    /// Whether values may take the role without the mutex (`merge`, `flatMap`); `combineLatest`
    /// takes it only under the mutex, where it also stores the value.
    @usableFromInline
    final let racingLockFreeTakers: Bool

    /// Under the mutex: whether this thread may take the role with a plain store
    /// (``takeLocked(_:)``): it is free, and no thread can take it without the mutex meanwhile
    /// (there are no lock-free takers, or the attention flag keeps them out). Otherwise a value
    /// must count the role as possibly held.
    @inlinable @inline(__always)
    final var mayTakeLocked: Bool {
        let word = role.currentForTaking
        return racingLockFreeTakers ? word == AtomicDeliveryRole.attentionFlag : word & AtomicDeliveryRole.heldFlag == 0
    }

    /// Under the mutex, after ``mayTakeLocked`` held: takes the role to deliver a value at once,
    /// keeping the attention flag raised unless values may flow freely.
    @inlinable @inline(__always)
    final func takeLocked(_ machine: inout Machine) {
        role.storeLocked(
            AtomicDeliveryRole.heldByCurrentThread() | (machine.fastEligible ? 0 : AtomicDeliveryRole.attentionFlag))
    }

    /// Under the mutex, after queueing something while ``settleLocked(_:)`` found the role taken:
    /// whether another thread holds it, so that the caller must wait for its delivery.
    @inlinable
    final func anotherThreadEmitsLocked() -> Bool {
        let word = role.current
        return word & AtomicDeliveryRole.heldFlag != 0 && AtomicDeliveryRole.claim(whenHeld: word) == .busy
    }

    /// Hands `value` to the subscriber; the caller holds the role. Returns the subscriber's demand.
    @inlinable @inline(__always)
    final func deliver(_ value: Downstream.Input) -> Subscribers.Demand {
        downstream._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
    }

    /// For the emitter after a value it delivered without the queue: gives the role back without
    /// the mutex when nothing changed meanwhile (values flow freely, so the returned demand does
    /// not matter); otherwise records that demand and goes on with whatever is next.
    @inlinable @inline(__always)
    final func finishDelivery(returning additional: Subscribers.Demand) {
        if role.tryGiveBackWithoutLock() { return }
        resume(after: additional)
    }

    /// For the emitter after a value it delivered without the queue, when the role could not be
    /// given back without the mutex.
    @inlinable
    final func resume(after additional: Subscribers.Demand) {
        let (next, topUp) = state.withLock { machine -> (Step, Bool) in
            let grew = machine.delivered(additional: additional)
            return (nextLocked(&machine), grew)
        }
        if topUp { topUpAll() }
        emit(next)
    }

    /// Performs `first` and, as the emitter, every step after it.
    @inlinable
    final func emit(_ first: consuming Step) {
        var step = first
        while true {
            switch consume step {
            case .idle:
                return
            case .value(let value, let tag):
                // A queued value: its sender may be waiting, so the delivery is counted under
                // the mutex, where the role also goes back when nothing is left.
                let additional = deliver(value)
                let (next, topUp, followUp) = state.withLock {
                    machine -> (Step, Bool, (any Subscription)?) in
                    machine.emitter.tickets.markDelivered()
                    let grew = machine.delivered(additional: additional)
                    if let followUp = machine.beginFollowUp(after: tag) { return (.idle, grew, followUp) }
                    return (nextLocked(&machine), grew, nil)
                }
                if topUp { topUpAll() }
                if let followUp {
                    // The role is kept while the follow-up request runs: what an upstream sends
                    // from inside it is queued, not delivered nested.
                    followUp.request(.max(1))
                    step = state.withLock { machine -> Step in
                        machine.endFollowUp()
                        return nextLocked(&machine)
                    }
                } else {
                    step = next
                }
            case .completion(let completion, let box):
                box.subscriber.receive(completion: completion)
                state.withLock { $0.emitter.tickets.endTurn() }
                return
            case .release(let box):
                withExtendedLifetime(box) {}
                return
            }
        }
    }

    /// Under the mutex, for a value the operator accepted: returns `true` when this thread is to
    /// deliver it at once (it took the role; then ``finishDelivery(returning:)``). Otherwise the
    /// value is queued and the role settled: `step` is what to perform after unlocking and
    /// `ticket`, when another thread emits, what to wait for then (``performQueued(_:_:)``).
    @inlinable
    final func acceptLocked(
        _ value: Downstream.Input, tag: Machine.Tag, _ machine: inout Machine, step: inout Step,
        ticket: inout DeliveryTickets.Ticket?
    ) -> Bool {
        if machine.deliverAtOnce(value, tag: tag, emitting: !mayTakeLocked) {
            takeLocked(&machine)
            return true
        }
        let queued = inPlace(&machine.emitter) { $0.tickets.lastEntered }
        step = settleLocked(&machine)
        if case .idle = step, anotherThreadEmitsLocked() { ticket = queued }
        return false
    }

    /// Outside the mutex, after a value was queued: performs the step, then waits for the
    /// ticket.
    @inlinable
    final func performQueued(_ step: consuming Step, _ ticket: DeliveryTickets.Ticket?) {
        emit(step)
        // Another thread delivers: wait until it has delivered this value.
        if let ticket { state.waitUntilSettled(ticket) }
    }

    /// ``acceptLocked(_:tag:_:step:ticket:)`` for a caller that keeps no ``Step``: when the
    /// value is queued, `tookRole` says whether this thread took the role to deliver what waits,
    /// which it then does with ``performQueued(tookRole:_:)``, the first step decided under the
    /// mutex again. (A debug build copies, moves and destroys a `Step`, a generic enum with
    /// several payloads, by looking up the metadata of every payload type, about 1,650
    /// instructions each time, even for `.idle`: a caller that delivers at once never makes one.)
    /// The `step` form is not written in terms of this one: that cost `merge` an instruction per
    /// value in an optimised build.
    @inlinable
    final func acceptLocked(
        _ value: Downstream.Input, tag: Machine.Tag, _ machine: inout Machine, tookRole: inout Bool,
        ticket: inout DeliveryTickets.Ticket?
    ) -> Bool {
        if machine.deliverAtOnce(value, tag: tag, emitting: !mayTakeLocked) {
            takeLocked(&machine)
            return true
        }
        let queued = inPlace(&machine.emitter) { $0.tickets.lastEntered }
        tookRole = settleTakingLocked(&machine)
        if !tookRole, anotherThreadEmitsLocked() { ticket = queued }
        return false
    }

    /// Outside the mutex, after ``acceptLocked(_:tag:_:tookRole:ticket:)`` queued a value: delivers
    /// what waits when this thread took the role (the role is held meanwhile, so the first step
    /// is what it would have been under the first lock, or later news), then waits for the
    /// ticket.
    @inlinable
    final func performQueued(tookRole: Bool, _ ticket: DeliveryTickets.Ticket?) {
        if tookRole { emit(state.withLock { nextLocked(&$0) }) }
        // Another thread delivers: wait until it has delivered this value.
        if let ticket { state.waitUntilSettled(ticket) }
    }

    /// Under the mutex, after an upstream's completion was accepted: settles the role and, when
    /// another thread emits, says what to wait for (``EmitterState/completionTicket``).
    @inlinable
    final func settleAfterCompletionLocked(_ machine: inout Machine) -> (Step, DeliveryTickets.Ticket?) {
        let ticket = inPlace(&machine.emitter) { $0.completionTicket }
        let step = settleLocked(&machine)
        if case .idle = step, anotherThreadEmitsLocked() { return (step, ticket) }
        return (step, nil)
    }

    /// An upstream's completion, for the operators whose machine decides it under the mutex and
    /// names the upstreams a decided completion cancels (`combineLatest`, `zip`): those are
    /// cancelled outside it, then whoever holds the role delivers what is queued and the
    /// completion, and a sender that finds another thread emitting waits for it.
    @inlinable
    final func receiveCompletion(
        deciding decide: (inout Machine) -> (decided: Bool, cancel: ContiguousArray<any Subscription>?)
    ) {
        var cancel: ContiguousArray<any Subscription>?
        let (step, ticket) = state.withLock { machine -> (Step, DeliveryTickets.Ticket?) in
            let decided: Bool
            (decided, cancel) = decide(&machine)
            guard decided else { return (.idle, nil) }
            return settleAfterCompletionLocked(&machine)
        }
        if let cancel {
            for subscription in cancel { subscription.cancel() }
        }
        performQueued(step, ticket)
    }

    /// Raises every upstream's grant to what the subscriber's demand allows (or, for zip and
    /// switchToLatest, requests the answers owed to them), each request made outside the lock;
    /// called after ``EmitterMachine/delivered(additional:)`` said so (never for flatMap, whose
    /// ``upstreamCount`` is `0`).
    @inlinable
    final func topUpAll() {
        for index in 0..<upstreamCount {
            if let (held, demand) = state.withLock({ $0.topUp(at: index) }) {
                held.request(demand)
            }
        }
    }
}

extension DeliveryEmitter where Machine: FanInMachine {
    /// The subscriber's request (checked by the caller, which names the operator): every upstream
    /// is asked first, then the queued values go out.
    @inlinable
    final func add(_ demand: Subscribers.Demand) {
        let (step, topUp) = state.withLock { machine -> (Step, Bool) in
            let topUp = machine.request(demand)
            return (settleLocked(&machine), topUp)
        }
        if topUp { topUpAll() }
        emit(step)
    }

    /// The subscription the upstream at `index` hands over.
    @inlinable
    final func receive(subscription: any Subscription, at index: Int) {
        state.withLock { $0.receive(subscription: subscription, at: index) }.perform()
    }
}

/// Reads `value` through an `inout` access. For a requirement such as
/// ``EmitterMachine/emitter``, witnessed by a stored property, the access reaches the stored
/// value in place, where a plain read calls the getter, which copies the whole ``EmitterState``
/// (its box, queue and tickets) first. Optimised builds remove the copy either way; users' debug
/// builds do not, and these reads run on every delivery that goes through the mutex.
@inlinable @inline(__always)
func inPlace<Value, Result>(_ value: inout Value, _ read: (inout Value) -> Result) -> Result {
    read(&value)
}

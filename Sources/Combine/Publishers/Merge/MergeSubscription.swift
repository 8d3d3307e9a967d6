import TributaryLocks

/// The subscription a merge hands its subscriber; it subscribes to every upstream through a
/// ``Side`` and serialises what they send.
///
/// One thread at a time is the *emitter*: only the emitter calls the subscriber, and it delivers
/// what has queued up before giving the role back, so calls never overlap and never run under
/// the lock. The role is an ``AtomicDeliveryRole`` rather than part of the locked state, so that
/// the common case needs no lock: while the merge is open, nothing is queued, no upstream has
/// completed and the subscriber's demand is unlimited (``MergeStateMachine/fastEligible``,
/// published as the role's attention flag being clear), a value takes the role with one
/// compare-and-swap, is handed to the subscriber through an unowned reference to its box (no
/// reference counting), and gives the role back with a second compare-and-swap. Everything else
/// (finite demand, queued values, completions, cancellation) goes through the mutex; whoever
/// changes the state there republishes the flag, and raising it while someone emits makes that
/// emitter's lock-free give-back fail, so it comes back through the mutex and sees what changed.
///
/// An upstream that sends from another thread while the emitter delivers queues its value and
/// waits until the emitter has delivered it (see ``DeliveryTickets``), as Apple's merge makes it
/// wait; it returns early only when the value stays queued for lack of demand. One that sends
/// from inside the subscriber, on the emitter's thread, does not wait: its value is delivered
/// after the call in progress returns, instead of recursing.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: Subscription, ReflectsAsOperator {
    @usableFromInline
    typealias Machine = MergeStateMachine<Downstream>

    @usableFromInline
    typealias Emission = Machine.Emission

    @usableFromInline
    let state: LockedState<Machine>

    @usableFromInline
    let upstreamCount: Int

    /// The subscriber's box, unowned: the machine owns it, and releases it only through the
    /// emitter role, so whoever holds the role may use this.
    @usableFromInline
    let downstream: Unmanaged<Machine.Box>

    /// The emitter role, with the emitter's thread token. Its attention flag is raised whenever
    /// ``MergeStateMachine/fastEligible`` did not hold when the state last changed.
    @usableFromInline
    let role = AtomicDeliveryRole(keepingLockFreeTakersOut: true)

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        self.upstreamCount = upstreamCount
        let box = Machine.Box(downstream)
        self.downstream = Unmanaged.passUnretained(box)
        state = LockedState(Machine(box: box, count: upstreamCount))
    }

    /// The subscriber to attach to the upstream at `index`.
    @inlinable
    func side(_ index: Int) -> Side {
        Side(index: index, parent: self)
    }

    /// Hands the subscription down; the caller then subscribes the sides, then calls
    /// ``didSubscribeAll()``.
    @inlinable
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
    }

    @inlinable
    func didSubscribeAll() {
        let emission = state.withLock { machine -> Emission in
            machine.finishIfEmpty()
            return settleLocked(&machine)
        }
        emit(emission)
    }

    // MARK: The emitter role

    /// Under the mutex, by a thread that does not hold the role, after changing the state:
    /// republishes whether lock-free deliveries are allowed and takes the role when there is
    /// something to deliver and nobody is emitting. Returns the first emission when it took the
    /// role.
    @inlinable
    func settleLocked(_ machine: inout Machine) -> Emission {
        if role.settleLocked(take: machine.hasWork, keepingLockFreeTakersOut: !machine.fastEligible) {
            return nextLocked(&machine)
        }
        return .idle
    }

    /// Under the mutex, by the emitter: the next emission, giving the role back when there is
    /// nothing left to deliver (a plain store: while the role is held nobody else changes the
    /// word without the mutex). Giving the role back ends the turn for the waiting senders, except
    /// before a completion, whose turn ends once it has been delivered.
    @inlinable
    func nextLocked(_ machine: inout Machine) -> Emission {
        let emission = machine.next()
        let keepOut = !machine.fastEligible
        switch emission {
        case .value:
            role.storeLocked(role.heldWord(keepingLockFreeTakersOut: keepOut))
        case .completion:
            role.storeLocked(keepOut ? AtomicDeliveryRole.attentionFlag : 0)
        case .idle, .release:
            role.storeLocked(keepOut ? AtomicDeliveryRole.attentionFlag : 0)
            machine.tickets.endTurn()
        }
        return emission
    }

    /// Under the mutex, after queueing something while ``settleLocked(_:)`` found the role taken:
    /// whether another thread holds it, so that the caller must wait for its delivery.
    @inlinable
    func anotherThreadEmitsLocked() -> Bool {
        let word = role.current
        return word & AtomicDeliveryRole.heldFlag != 0 && AtomicDeliveryRole.claim(whenHeld: word) == .busy
    }

    /// Hands `value` to the subscriber; the caller holds the role. Returns the subscriber's demand.
    @inlinable @inline(__always)
    func deliver(_ value: Downstream.Input) -> Subscribers.Demand {
        downstream._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
    }

    /// For the emitter after a value it delivered without the queue (the lock-free path, or a
    /// value delivered at once on the locked path): records the demand the subscriber returned
    /// and goes on with whatever is next.
    @inlinable
    func resume(after additional: Subscribers.Demand) {
        let (next, topUp) = state.withLock { machine -> (Emission, Bool) in
            let grew = machine.delivered(additional: additional)
            return (nextLocked(&machine), grew)
        }
        if topUp { topUpAll() }
        emit(next)
    }

    /// Performs `first` and, as the emitter, every emission after it.
    @inlinable
    func emit(_ first: consuming Emission) {
        var emission = first
        while true {
            switch consume emission {
            case .idle:
                return
            case .value(let value):
                // A queued value: its sender may be waiting, so the delivery is counted under
                // the mutex, where the role also goes back when nothing is left.
                let additional = deliver(value)
                let topUp: Bool
                (emission, topUp) = state.withLock { machine -> (Emission, Bool) in
                    machine.tickets.markDelivered()
                    let grew = machine.delivered(additional: additional)
                    return (nextLocked(&machine), grew)
                }
                if topUp { topUpAll() }
            case .completion(let completion, let box):
                box.subscriber.receive(completion: completion)
                state.withLock { $0.tickets.endTurn() }
                return
            case .release(let box):
                withExtendedLifetime(box) {}
                return
            }
        }
    }

    /// Raises every upstream's grant to the demand no queued value is waiting to spend (after the
    /// subscriber's demand grew), each request made outside the lock.
    @usableFromInline
    func topUpAll() {
        for index in 0..<upstreamCount {
            if let (held, demand) = state.withLock({ $0.topUp(at: index) }) {
                held.request(demand)
            }
        }
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a Merge subscription")
        let (emission, topUp) = state.withLock { machine -> (Emission, Bool) in
            let topUp = machine.request(demand)
            return (settleLocked(&machine), topUp)
        }
        if topUp { topUpAll() }
        emit(emission)
    }

    @inlinable
    func cancel() {
        var held = ContiguousArray<any Subscription>()
        let emission = state.withLock { machine -> Emission in
            held = machine.cancel()
            return settleLocked(&machine)
        }
        for subscription in held { subscription.cancel() }
        emit(emission)
    }

    // MARK: Upstream side

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        state.withLock { $0.receive(subscription: subscription, at: index) }.perform()
    }

    /// A value from the upstream at `index`: straight to the subscriber when the lock-free path
    /// allows; else delivered at once by this thread when nobody emits, nothing is queued and
    /// there is demand; else queued (and, when another thread emits, this one waits for its
    /// delivery).
    @inlinable
    func receive(_ value: Downstream.Input, at index: Int) {
        if role.tryTakeWithoutLock() {
            let additional = deliver(value)
            // Back without the lock while nothing changed (demand unlimited, nothing waiting).
            if role.tryGiveBackWithoutLock() { return }
            resume(after: additional)
            return
        }
        let (decision, emission, ticket) = state.withLock {
            machine -> (Machine.ValueDecision, Emission, DeliveryTickets.Ticket?) in
            // Only a free word that keeps lock-free takers out lets this thread take the role with
            // a plain store: otherwise another thread may take it at any moment without the mutex.
            let busy = role.current != AtomicDeliveryRole.attentionFlag
            let decision = machine.receive(value, at: index, emitting: busy)
            switch decision {
            case .drop:
                return (decision, .idle, nil)
            case .deliver:
                role.storeLocked(AtomicDeliveryRole.heldByCurrentThread() | AtomicDeliveryRole.attentionFlag)
                return (decision, .idle, nil)
            case .queued:
                let ticket = DeliveryTickets.Ticket(
                    position: machine.tickets.entered &- 1, turn: machine.tickets.turnsEnded)
                let emission = settleLocked(&machine)
                if case .idle = emission, anotherThreadEmitsLocked() { return (decision, emission, ticket) }
                return (decision, emission, nil)
            }
        }
        switch decision {
        case .drop:
            return
        case .deliver:
            resume(after: deliver(value))
        case .queued:
            emit(emission)
            // Another thread delivers: wait until it has delivered this value.
            if let ticket { state.waitUntilSettled(ticket) }
        }
    }

    /// An upstream's completion. When another thread emits, the sender waits until that thread
    /// has delivered what was queued before it (and the merge's completion, when this one decided
    /// it), as a send does.
    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        var held = ContiguousArray<any Subscription>()
        let (emission, ticket) = state.withLock { machine -> (Emission, DeliveryTickets.Ticket?) in
            let accepted: Bool
            (accepted, held) = machine.receive(completion: completion, at: index)
            guard accepted else { return (.idle, nil) }
            let ticket = machine.pendingCompletion == nil
                ? DeliveryTickets.Ticket(position: machine.tickets.entered &- 1, turn: machine.tickets.turnsEnded)
                : machine.tickets.endOfTurn
            let emission = settleLocked(&machine)
            if case .idle = emission, anotherThreadEmitsLocked() { return (emission, ticket) }
            return (emission, nil)
        }
        for subscription in held { subscription.cancel() }
        emit(emission)
        if let ticket { state.waitUntilSettled(ticket) }
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "Merge" }

    @usableFromInline
    var customMirror: Mirror {
        let demand = state.withLock { $0.demand }
        return Mirror(self, children: ["demand": demand])
    }

    /// The subscriber attached to one upstream: forwards its events, tagged with its position.
    @usableFromInline
    struct Side: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Input = Downstream.Input
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let index: Int

        @usableFromInline
        let parent: MergeSubscription

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(index: Int, parent: MergeSubscription) {
            self.index = index
            self.parent = parent
        }

        @usableFromInline
        var description: String { "Merge" }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, at: index)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receive(input, at: index)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receive(completion: completion, at: index)
        }
    }
}

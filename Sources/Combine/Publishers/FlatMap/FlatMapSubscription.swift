import Synchronization
import TributaryLocks

/// The subscription `flatMap` hands its subscriber. It is also the upstream's subscriber, as in
/// Apple's operator, where the two are one object; each inner publisher is subscribed through an
/// ``Inner`` tagged with its slot.
///
/// Delivery goes through ``DeliveryEmitter``: one thread at a time is the emitter, and while the
/// operator is open, nothing is queued and the subscriber's demand is unlimited
/// (``FlatMapStateMachine/fastEligible``), an inner value takes the role with one
/// compare-and-swap, is handed to the subscriber and gives the role back with a second, without
/// the mutex. Everything else (finite demand, queued values, completions, cancellation, new
/// inners) goes through the mutex.
///
/// An inner publisher that sends from another thread while the emitter delivers queues its value
/// and waits until the emitter has delivered it (see ``DeliveryTickets``), as Apple's `flatMap`
/// makes it wait; one that sends from inside the subscriber, on the emitter's thread, is
/// delivered at once, nested, while there is demand (the emitter's thread token in the role's
/// word tells them apart).
@usableFromInline
final class FlatMapSubscription<UpstreamOutput, NewPublisher: Publisher, Downstream: Subscriber>:
    DeliveryEmitter<FlatMapStateMachine<Downstream>>, Subscription, Subscriber, ReflectsAsOperator
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    @usableFromInline
    typealias Input = UpstreamOutput

    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    typealias Machine = FlatMapStateMachine<Downstream>

    @usableFromInline
    let transform: (UpstreamOutput) -> NewPublisher

    @usableFromInline
    let maxPublishers: Subscribers.Demand

    /// ``ImmediateOutput/isPossible(for:)`` for `NewPublisher`, answered once: a debug build
    /// answers it with a conformance look-up (about 400 instructions) that an optimised build
    /// folds away, so only the debug build reads this.
    @usableFromInline
    let innersMayBeImmediate: Bool

    /// How many transforms of upstream values whose inners are not counted yet are running (see
    /// ``receiveMaybeImmediate(_:)``): more than one when a transform sends into its own
    /// upstream. Only the upstream's calls write and read it, and those are serialised, so it
    /// needs no read-modify-write and no ordering: it is atomic for the upstream that breaks the
    /// contract and calls from two threads at once.
    @usableFromInline
    let transformsRunning = Atomic<Int>(0)

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (UpstreamOutput) -> NewPublisher) {
        self.transform = transform
        self.maxPublishers = maxPublishers
        innersMayBeImmediate = ImmediateOutput.isPossible(for: NewPublisher.self)
        let box = Machine.Box(downstream)
        super.init(
            box: box, machine: Machine(box: box, maxPublishers: maxPublishers), upstreamCount: 0,
            racingLockFreeTakers: true,
            requestHook: { emitter, demand in
                unsafeDowncast(emitter, to: FlatMapSubscription.self).requestNow(demand)
            })
    }

    /// Runs `body` under the mutex, then settles the role.
    @inlinable
    func update(_ body: (inout Machine) -> Machine.Action) -> (Machine.Action, Step) {
        withMachine { machine in
            let action = body(&machine)
            return (action, settleLocked(&machine))
        }
    }

    @inlinable
    func perform(_ action: Machine.Action, _ step: consuming Step) {
        for subscription in action.cancel { subscription.cancel() }
        action.requestOne?.request(.max(1))
        emit(step)
        withExtendedLifetime(action.releaseAfter) {}
    }

    // MARK: Upstream side

    /// Hands this subscription to the subscriber: inside `subscribe`, before the upstream is
    /// subscribed, as Apple's `flatMap` does.
    @inlinable
    func start() {
        downstream._withUnsafeGuaranteedRef { $0.subscriber.receive(subscription: self) }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard withMachine({ $0.receiveUpstream(subscription: subscription) }) else {
            subscription.cancel()
            return
        }
        // Apple asks for `maxPublishers` even when it is `.max(0)`.
        subscription.request(maxPublishers)
    }

    @inlinable
    func receive(_ value: UpstreamOutput) -> Subscribers.Demand {
        if maxPublishers == .unlimited,
            ImmediateOutput.isUnoptimised ? innersMayBeImmediate : ImmediateOutput.isPossible(for: NewPublisher.self)
        {
            return receiveMaybeImmediate(value)
        }
        guard let (index, generation) = withMachine({ $0.core.registerInner() }) else {
            return .none
        }
        transform(value).subscribe(Inner(route: InnerRoute(FlatMapTag(index: index, generation: generation)), parent: self))
        return .none
    }

    /// An upstream value whose inner publisher may be a `Just` or the like (see
    /// ``ImmediateOutput``). When the lock-free path is open (demand unlimited, nothing queued,
    /// nobody delivering) and the inner publisher has its one value ready, that value goes
    /// straight to the subscriber: no inner subscription, no slot, and one trip through the lock
    /// (to check that values are still wanted) instead of three. Otherwise the inner gets its
    /// slot and is subscribed as usual.
    ///
    /// Every other inner is counted as pending before its transform runs, so that an upstream
    /// completion from inside the transform waits for it. This one is not counted, which would
    /// cost a second trip to uncount it; instead ``transformsRunning`` tells such a completion
    /// to wait (``FlatMapCore/completionAwaitsTransforms``), which also keeps the
    /// lock-free path closed, so the inner is then registered and subscribed. With
    /// `maxPublishers` finite the shortcut is not taken: each finished inner asks the upstream
    /// for another.
    @inlinable
    func receiveMaybeImmediate(_ value: UpstreamOutput) -> Subscribers.Demand {
        guard withMachine({ $0.core.acceptsUpstreamValues }) else { return .none }
        let running = transformsRunning.load(ordering: .relaxed)
        transformsRunning.store(running + 1, ordering: .relaxed)
        let publisher = transform(value)
        transformsRunning.store(running, ordering: .relaxed)
        if let output = ImmediateOutput.value(of: publisher), !IntrospectionRegistry.isActive, role.tryTakeWithoutLock() {
            let additional = deliver(output)
            if !role.tryGiveBackWithoutLock() { resume(after: additional) }
            return .none
        }
        // Settling republishes the lock-free path, which a completion from inside the transform
        // closed until now.
        let (slot, step) = withMachine { machine -> ((index: Int, generation: Int), Step) in
            (machine.core.registerAfterTransform(), settleLocked(&machine))
        }
        emit(step)
        publisher.subscribe(Inner(route: InnerRoute(FlatMapTag(index: slot.index, generation: slot.generation)), parent: self))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let duringTransforms = transformsRunning.load(ordering: .relaxed)
        let (action, step, ticket) = updateSending {
            $0.receiveUpstream(completion: completion, duringTransforms: duringTransforms)
        }
        perform(action, step)
        if let ticket { state.waitUntilSettled(ticket) }
    }

    /// ``update(_:)`` for a completion from upstream or an inner: when it decided the operator's
    /// completion while another thread emits, also returns the ticket to wait on until that
    /// thread has delivered it.
    @inlinable
    func updateSending(
        _ body: (inout Machine) -> Machine.Action
    ) -> (Machine.Action, Step, DeliveryTickets.Ticket?) {
        withMachine { machine in
            let wasOpen = machine.isOpen
            let action = body(&machine)
            let step = settleLocked(&machine)
            if case .idle = step, wasOpen, machine.emitter.isCompleting, anotherThreadEmitsLocked() {
                return (action, step, machine.tickets.endOfTurn)
            }
            return (action, step, nil)
        }
    }

    // MARK: Inner side

    @inlinable
    func receiveInner(subscription: any Subscription, at index: Int, generation: Int) {
        switch withMachine({ $0.core.receiveInner(subscription: subscription, at: index, generation: generation) }) {
        case .request(let demand, let replaced):
            withExtendedLifetime(replaced) {}
            subscription.request(demand)
        case .cancel:
            subscription.cancel()
        }
    }

    /// An inner value: straight to the subscriber when the lock-free path allows (demand
    /// unlimited, returns `none`); else delivered at once by this thread when nobody emits,
    /// nothing is queued and there is demand (returns `max(1)`, Apple's one value in flight per
    /// inner); else, sent from inside the subscriber on the emitting thread, delivered at once,
    /// nested, while there is demand, as Apple's operator does; else queued, its inner asked for
    /// one more once it is delivered.
    @inlinable
    func receiveInner(_ value: Downstream.Input, at index: Int, generation: Int) -> Subscribers.Demand {
        if role.tryTakeWithoutLock() {
            let additional = deliver(value)
            // Back without the lock while nothing changed (demand unlimited, nothing waiting).
            if role.tryGiveBackWithoutLock() { return .none }
            resume(after: additional)
            return .none
        }
        return receiveInnerLocked(value, at: index, generation: generation)
    }

    /// ``receiveInner(_:at:generation:)`` when the lock-free path is closed. Apart, and never
    /// inlined, so that the lock-free path stays small enough to be inlined into the inner
    /// publisher's delivery loop (with this body inline it was not, which cost about 23
    /// instructions per value of `flatMap { inner.publisher }`).
    @inlinable @inline(never)
    func receiveInnerLocked(_ value: Downstream.Input, at index: Int, generation: Int) -> Subscribers.Demand {
        let (decision, step, ticket) = withMachine {
            machine -> (Machine.ValueDecision, Step, DeliveryTickets.Ticket?) in
            // Only a free word that keeps lock-free takers out lets this thread take the role with
            // a plain store: otherwise another thread may take it at any moment without the mutex.
            let word = role.current
            let busy = word != AtomicDeliveryRole.attentionFlag
            // This thread emits further up its stack: the value comes from inside the subscriber.
            let nested = word & AtomicDeliveryRole.heldFlag != 0 && AtomicDeliveryRole.claim(whenHeld: word) == .nested
            let decision = machine.receiveInner(value, at: index, generation: generation, emitting: busy, nested: nested)
            switch decision {
            case .drop, .deliverNested:
                return (decision, .idle, nil)
            case .deliver:
                // This thread takes the role to deliver its own value: the word kept lock-free
                // takers out, and nobody changes such a word without the mutex.
                role.storeLocked(AtomicDeliveryRole.heldByCurrentThread() | AtomicDeliveryRole.attentionFlag)
                return (decision, .idle, nil)
            case .queued:
                let ticket = machine.tickets.lastEntered
                let step = settleLocked(&machine)
                if case .idle = step, anotherThreadEmitsLocked() { return (decision, step, ticket) }
                return (decision, step, nil)
            }
        }
        switch decision {
        case .drop:
            return .none
        case .deliver(let oneMore):
            resume(after: deliver(value))
            return oneMore
        case .deliverNested(let oneMore):
            // The role stays with the delivery this one is nested in, which goes on afterwards.
            let additional = deliver(value)
            if additional != .none { withMachine { _ = $0.delivered(additional: additional) } }
            return oneMore
        case .queued:
            emit(step)
            // Another thread delivers: wait until it has delivered this value.
            if let ticket { state.waitUntilSettled(ticket) }
            return .none
        }
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, at index: Int, generation: Int) {
        if case .finished = completion,
            withMachine({ $0.core.finishInnerQuietly(at: index, generation: generation) })
        {
            return
        }
        receiveInnerSettling(completion: completion, at: index, generation: generation)
    }

    /// ``receiveInner(completion:at:generation:)`` when the inner does not just free its slot.
    /// A function of its own: a debug build looks up the metadata of the step and the action a
    /// function handles when it enters it, and the common completion needs neither.
    @inlinable
    func receiveInnerSettling(completion: Subscribers.Completion<Downstream.Failure>, at index: Int, generation: Int) {
        let (action, step, ticket) = updateSending {
            $0.receiveInner(completion: completion, at: index, generation: generation)
        }
        perform(action, step)
        if let ticket { state.waitUntilSettled(ticket) }
    }

    // MARK: Downstream side

    /// ``request(_:)``, in the code ``requestHook`` was compiled into.
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a FlatMap subscription")
        let (action, step) = update { $0.request(demand) }
        emit(step)
        // Apple's order: the queued values first, then every inner asked for everything, then
        // the completion if that was all.
        if action.requestAll {
            for subscription in withMachine({ $0.heldInnerSubscriptions() }) {
                subscription.request(.unlimited)
            }
        }
        let (_, last) = update { $0.finishAfterRequest() }
        emit(last)
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "FlatMap" }
}

extension FlatMapSubscription {
    /// The subscriber attached to one inner publisher, routed by its slot.
    @usableFromInline
    typealias Inner = TaggedSubscriber<InnerRoute>

    /// The route of one inner publisher's subscriber: its slot and the slot's generation, so that
    /// a late event of an inner that has left its slot is told apart from the slot's new inner.
    @usableFromInline
    struct InnerRoute: ReflectedTaggedRoute {
        @usableFromInline
        let tag: FlatMapTag

        @inlinable
        init(_ tag: FlatMapTag) {
            self.tag = tag
        }

        @usableFromInline
        static var subscriberDescription: String { "FlatMap" }

        @inlinable
        func receive(subscription: any Subscription, parent: FlatMapSubscription) {
            parent.receiveInner(subscription: subscription, at: tag.index, generation: tag.generation)
        }

        @inlinable
        func receive(_ input: Downstream.Input, parent: FlatMapSubscription) -> Subscribers.Demand {
            parent.receiveInner(input, at: tag.index, generation: tag.generation)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>, parent: FlatMapSubscription) {
            parent.receiveInner(completion: completion, at: tag.index, generation: tag.generation)
        }
    }
}

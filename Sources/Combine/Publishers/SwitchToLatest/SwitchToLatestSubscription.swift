import TributaryLocks

/// The subscription `switchToLatest` hands its subscriber, and also the upstream's subscriber:
/// in Apple's operator the two are one object, so the upstream sees the same identity and
/// description as the subscriber. Each inner publisher is subscribed through an ``Inner`` tagged
/// with its generation.
///
/// Delivery goes through ``DeliveryEmitter``. An inner value sent while nobody delivers is
/// delivered by its own thread, which returns the subscriber's answer to the inner, as Apple's
/// operator does; one sent from another thread while the emitter delivers is queued and its
/// sender waits until the emitter has delivered it, and the emitter then requests the answer from
/// the current inner. One sent from inside the subscriber, on the emitting thread, is delivered
/// at once, nested, as Apple's operator does (the emitter's thread token in the role's word tells
/// it apart).
@usableFromInline
final class SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>:
    DeliveryEmitter<SwitchToLatestStateMachine<Downstream>>, Subscription, Subscriber, ReflectsAsOperator
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline
    typealias Input = P

    @usableFromInline
    typealias Failure = P.Failure

    @usableFromInline
    typealias Machine = SwitchToLatestStateMachine<Downstream>

    /// How a value this thread offered goes on, decided under the lock.
    @usableFromInline
    typealias Offer = SwitchToLatestOffer

    @inlinable
    init(downstream: Downstream) {
        let box = Machine.Box(downstream)
        // One "upstream" for the emitter to top up: the current inner, which is asked for the
        // answers to the values the emitter delivered for other threads.
        super.init(
            box: box, machine: Machine(box: box), upstreamCount: 1, racingLockFreeTakers: false,
            requestHook: { emitter, demand in
                unsafeDowncast(emitter, to: SwitchToLatestSubscription.self).requestNow(demand)
            })
    }

    /// Under the lock: whether the calling thread holds the emitter role, so that what it sends
    /// comes from inside the subscriber.
    @inlinable @inline(__always)
    final var emittingHereLocked: Bool {
        let word = role.current
        return word & AtomicDeliveryRole.heldFlag != 0 && AtomicDeliveryRole.claim(whenHeld: word) == .nested
    }

    /// After this thread delivered a value it offered itself: records the subscriber's answer,
    /// which its sender returns rather than requests, and goes on with whatever waits.
    @inlinable @inline(__always)
    func finishOwnDelivery(returning answer: Subscribers.Demand) {
        // Back without the lock while nothing changed (demand unlimited, nothing waiting).
        if role.tryGiveBackWithoutLock() { return }
        resumeOwnDelivery(returning: answer)
    }

    /// ``finishOwnDelivery(returning:)`` when the role could not be given back without the lock.
    @inlinable
    func resumeOwnDelivery(returning answer: Subscribers.Demand) {
        let next = withMachine { machine -> Step in
            machine.deliveredOwn(additional: answer)
            return nextLocked(&machine)
        }
        emit(next)
    }

    /// After a value delivered nested: records the subscriber's answer; the role stays with the
    /// delivery this one is nested in, which goes on afterwards.
    @inlinable
    func finishNestedDelivery(returning answer: Subscribers.Demand) {
        if answer != .none { withMachine { $0.deliveredOwn(additional: answer) } }
    }

    /// Delivers what ``Offer`` says; returns the answer for the value's sender.
    @inlinable
    func perform(_ offer: Offer, _ value: P.Output, _ ticket: DeliveryTickets.Ticket?) -> Subscribers.Demand {
        switch offer {
        case .none:
            return .none
        case .deliver:
            let answer = deliver(value)
            finishOwnDelivery(returning: answer)
            return answer
        case .nested:
            let answer = deliver(value)
            finishNestedDelivery(returning: answer)
            return answer
        case .queued(let tookRole):
            performQueued(tookRole: tookRole, ticket)
            return .none
        }
    }

    // MARK: Upstream side

    /// Hands this subscription to the subscriber: inside `subscribe`, before the upstream is
    /// subscribed, as Apple's `switchToLatest` does.
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
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ publisher: P) -> Subscribers.Demand {
        if ImmediateOutput.isPossible(for: P.self), receivedImmediately(publisher) { return .none }
        var previous: any Subscription = PlaceholderSubscription()
        guard let generation = withMachine({ $0.core.switchInner(handingOver: &previous) }) else { return .none }
        previous.cancel()
        publisher.subscribe(Inner(route: InnerRoute(generation: generation), parent: self))
        return .none
    }

    /// Takes `publisher`'s value without subscribing to it when it has one at hand (see
    /// ``receiveImmediate(_:of:)``); `false` when it is to be subscribed to. A function of its
    /// own: a debug build makes room for the optional value, looking up its metadata, on entry to
    /// the function that holds it, which for every other kind of inner publisher would be
    /// ``receive(_:)``.
    @inlinable
    func receivedImmediately(_ publisher: P) -> Bool {
        guard let value = ImmediateOutput.value(of: publisher), !IntrospectionRegistry.isActive else { return false }
        _ = receiveImmediate(value, of: publisher)
        return true
    }

    /// A new inner publisher that is a `Just` or the like (see ``ImmediateOutput``): when the
    /// subscriber has demand for its value, the value goes to the subscriber without subscribing
    /// to the inner: one trip through the lock (two when the demand is finite) instead of four or
    /// five, and no inner subscription.
    /// Without demand, the inner is subscribed to, and holds its value until a request reaches
    /// it, as usual. The subscriber's answer would go back to the inner, which has nothing more
    /// to send: only the emitter counts it.
    @inlinable
    func receiveImmediate(_ value: P.Output, of publisher: P) -> Subscribers.Demand {
        var ticket: DeliveryTickets.Ticket?
        var previous: any Subscription = PlaceholderSubscription()
        let (decision, offer) = withMachine { machine -> (Machine.ImmediateSwitch, Offer) in
            let decision = machine.switchToImmediate(nested: emittingHereLocked, handingOver: &previous)
            switch decision {
            case .ignored, .subscribe:
                return (decision, .none)
            case .offeredNested:
                return (decision, .nested)
            case .offered:
                var tookRole = false
                let delivers = acceptLocked(value, tag: (), &machine, tookRole: &tookRole, ticket: &ticket)
                return (decision, delivers ? .deliver : .queued(tookRole: tookRole))
            }
        }
        switch decision {
        case .ignored:
            break
        case .subscribe(let generation):
            previous.cancel()
            publisher.subscribe(Inner(route: InnerRoute(generation: generation), parent: self))
        case .offered, .offeredNested:
            previous.cancel()
            _ = perform(offer, value, ticket)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<P.Failure>) {
        var cancel: (any Subscription)?
        let (step, ticket) = withMachine { machine -> (Step, DeliveryTickets.Ticket?) in
            let accepted: Bool
            (accepted, cancel) = machine.receiveUpstream(completion: completion)
            guard accepted else { return (.idle, nil) }
            return settleAfterCompletionLocked(&machine)
        }
        cancel?.cancel()
        performQueued(step, ticket)
    }

    // MARK: Inner side

    @inlinable
    func receiveInner(subscription: any Subscription, generation: Int) {
        let grant = withMachine { machine -> Subscribers.Demand? in
            switch machine.core.receiveInner(subscription: subscription, generation: generation) {
            case .cancel: return nil
            case .ignore: return Subscribers.Demand.none
            // The free demand; read from the core's copy when unlimited, where the machine's
            // property would need the machine's metadata in a debug build.
            case .grant: return machine.core.emitterFlags.demandUnlimited ? .unlimited : machine.freeDemand
            }
        }
        switch grant {
        case nil: subscription.cancel()
        case .some(.none): break
        case .some(let grant): subscription.request(grant)
        }
    }

    /// Delivers an inner value and returns the subscriber's answer to the inner, as Apple's
    /// operator does, when this thread delivers it; when the value waits for another thread's
    /// delivery, that thread requests the answer from the inner instead.
    @inlinable
    func receiveInner(_ value: P.Output, generation: Int) -> Subscribers.Demand {
        var ticket: DeliveryTickets.Ticket?
        let offer = withMachine { machine -> Offer? in
            // With an unlimited demand there is nothing to count: the core decides alone.
            let nested = emittingHereLocked
            let decision =
                machine.core.emitterFlags.demandUnlimited
                ? machine.core.receiveInner(generation: generation, hasFreeDemand: true, nested: nested)
                : machine.receiveInner(generation: generation, nested: nested)
            switch decision {
            case .drop:
                return Offer.none
            case .beyondDemand:
                return nil
            case .nested:
                return .nested
            case .accept:
                var tookRole = false
                let delivers = acceptLocked(value, tag: (), &machine, tookRole: &tookRole, ticket: &ticket)
                return delivers ? .deliver : .queued(tookRole: tookRole)
            }
        }
        guard let offer else {
            APIViolation.upstreamContract(
                "switchToLatest", "received a value from its inner publisher beyond the demand it requested")
        }
        return perform(offer, value, ticket)
    }

    /// An inner's completion. Most end quietly (the inner finished, the upstream goes on): the
    /// state changes under the lock and nothing reaches the subscriber, so nothing waits for the
    /// emitter either, and a debug build handles none of the emitter's generic steps.
    @inlinable
    func receiveInner(completion: Subscribers.Completion<P.Failure>, generation: Int) {
        let finished: Bool
        if case .finished = completion { finished = true } else { finished = false }
        if withMachine({ $0.core.endInnerQuietly(finished: finished, generation: generation) }) { return }
        settleInner(completion: completion, generation: generation)
    }

    /// ``receiveInner(completion:generation:)`` when the completion may end the operator (or
    /// breaks the inner's contract): decided and settled in one critical section.
    @inlinable @inline(never)
    func settleInner(completion: Subscribers.Completion<P.Failure>, generation: Int) {
        var cancel: (any Subscription)?
        var early = false
        let settled = withMachine { machine -> (Step, DeliveryTickets.Ticket?)? in
            switch machine.receiveInner(completion: completion, generation: generation) {
            case .ignored:
                return nil
            case .beforeSubscription:
                early = true
                return nil
            case .accepted(let held):
                cancel = held
                return settleAfterCompletionLocked(&machine)
            }
        }
        guard let (step, ticket) = settled else {
            guard !early else {
                APIViolation.upstreamContract(
                    "switchToLatest", "received a completion from its inner publisher before its subscription")
            }
            return
        }
        cancel?.cancel()
        performQueued(step, ticket)
    }

    // MARK: Downstream side

    /// ``request(_:)``, in the code ``requestHook`` was compiled into: forwarded to the current
    /// inner as it is, then the queued values go out.
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a SwitchToLatest subscription")
        let (forward, step) = withMachine { machine -> ((any Subscription)?, Step) in
            let forward = machine.request(demand)
            return (forward, settleLocked(&machine))
        }
        forward?.request(demand)
        emit(step)
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "SwitchToLatest" }
}

extension SwitchToLatestSubscription {
    /// The subscriber attached to one inner publisher, routed by its generation.
    @usableFromInline
    typealias Inner = TaggedSubscriber<InnerRoute>

    /// The route of one inner publisher's subscriber: its generation, so that the events of an
    /// inner that has been switched away from are told apart from the current one's.
    @usableFromInline
    struct InnerRoute: ReflectedTaggedRoute {
        @usableFromInline
        let generation: Int

        @inlinable
        init(generation: Int) {
            self.generation = generation
        }

        @usableFromInline
        static var subscriberDescription: String { "SwitchToLatest" }

        @inlinable
        func receive(subscription: any Subscription, parent: SwitchToLatestSubscription) {
            parent.receiveInner(subscription: subscription, generation: generation)
        }

        @inlinable
        func receive(_ input: P.Output, parent: SwitchToLatestSubscription) -> Subscribers.Demand {
            parent.receiveInner(input, generation: generation)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<P.Failure>, parent: SwitchToLatestSubscription) {
            parent.receiveInner(completion: completion, generation: generation)
        }
    }
}

/// How a value a `switchToLatest` subscription's caller offered goes on, decided under the lock.
/// Not nested in the generic subscription, whose nested types are generic too: a debug build
/// would look up this enum's metadata, and that of the tuple the lock returns it in, for every
/// value.
@usableFromInline
enum SwitchToLatestOffer {
    /// Nothing to deliver (dropped, or the inner is to be subscribed to).
    case none
    /// This thread took the role: it delivers the value, returns the answer to its sender and
    /// then goes on as the emitter
    /// (``SwitchToLatestSubscription/finishOwnDelivery(returning:)``).
    case deliver
    /// The value's demand is spent and this thread is delivering further up its stack:
    /// deliver it at once, nested.
    case nested
    /// Queued: deliver what waits when this thread took the role
    /// (``DeliveryEmitter/performQueued(tookRole:_:)``), then wait for the ticket if another
    /// thread emits.
    case queued(tookRole: Bool)
}

import TributaryLocks

/// `combineLatest`'s engine. Every downstream request is passed on to every upstream (Apple's
/// rule), as a top-up of what each has been granted; a tuple is made only when the subscriber has
/// demand no queued tuple is already waiting to spend, so nothing piles up beyond the latest value
/// of each input.
///
/// Values are stored under the lock, so the emitter role is taken there too; it is given back
/// without the lock once values flow freely (``fastEligible``). While they do, a value that finds
/// the role free stores itself and takes the role without going through ``receive(_:into:)``.
@usableFromInline
struct FanInCombineStateMachine<Storage: FanInCombineStorage, Downstream: Subscriber>: FanInMachine
where Downstream.Input == Storage.Output {
    /// Upstreams to cancel; `nil` (the usual case) when there are none, which unlike an empty
    /// array costs no retain and release of the shared empty storage.
    @usableFromInline
    typealias CancelList = ContiguousArray<any Subscription>?

    @usableFromInline
    var slots: ContiguousArray<FanInSlot>

    @usableFromInline
    var unfinished: Int

    /// Everything the subscriber has requested so far; each upstream is granted up to this.
    @usableFromInline
    var requested: Subscribers.Demand = .none

    /// The latest value of each input.
    @usableFromInline
    var storage = Storage()

    /// Last, with `storage` before it: their sizes depend on the subscriber's types, and the
    /// fields before them are then reached at fixed offsets in a debug build, without this type's
    /// metadata.
    @usableFromInline
    var emitter: EmitterState<Downstream, Void>

    /// See ``EmitterMachine/deliverAtOnce(_:tag:emitting:)``.
    @inlinable
    mutating func deliverAtOnce(_ value: Downstream.Input, tag: Void, emitting: Bool) -> Bool {
        emitter.deliverAtOnce(value, tag: tag, emitting: emitting)
    }

    @inlinable
    init(box: SubscriberBox<Downstream>, arity: Int) {
        emitter = EmitterState(box: box)
        slots = ContiguousArray(repeating: FanInSlot(), count: arity)
        unfinished = arity
    }

    /// Whether a delivered tuple needs no bookkeeping afterwards: open, nothing queued, unlimited
    /// demand.
    @inlinable
    var fastEligible: Bool { emitter.flowsFreely }

    @inlinable
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction {
        slots[index].attach(subscription, accepting: emitter.isOpen, grantingUpTo: requested)
    }

    /// Stores a value; returns the tuple it completes when the subscriber has demand for one that
    /// no queued tuple is already waiting to spend (at most one tuple per arriving value).
    @inlinable
    mutating func receive<Input: FanInCombineInput>(_ value: Input.Value, into input: Input.Type) -> Storage.Output?
    where Input.Storage == Storage {
        guard emitter.isOpen, !slots[Input.index].finished else { return nil }
        Input.store(value, in: &storage)
        guard emitter.freeDemand > 0 else { return nil }
        return storage.takeOutput()
    }

    /// An upstream's completion: whether it decided the combineLatest's completion, and the
    /// upstreams to cancel.
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int
    ) -> (decided: Bool, cancel: CancelList) {
        guard emitter.isOpen, !slots[index].finished else { return (false, nil) }
        _ = slots[index].close()
        unfinished -= 1
        switch completion {
        case .failure(let error):
            emitter.fail(error)
            return (true, closeAll())
        case .finished:
            if storage.isExhausted(arity: slots.count, unfinished: unfinished, isFinished: { slots[$0].finished }) {
                emitter.finish()
                storage.removeAll()
            }
            return (true, nil)
        }
    }

    /// Adds the subscriber's demand; returns whether upstream grants must be topped up.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Bool {
        guard !emitter.terminated else { return false }
        _ = emitter.request(demand)
        return grant(demand)
    }

    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        guard emitter.delivered(additional: additional) else { return false }
        return grant(additional)
    }

    /// Adds `more` to what the upstreams may be granted; returns whether that grew.
    @inlinable
    mutating func grant(_ more: Subscribers.Demand) -> Bool {
        let grows = requested != .unlimited
        requested += more
        return grows && emitter.isOpen
    }

    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        guard emitter.isOpen else { return nil }
        return slots[index].topUp(to: requested)
    }

    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        emitter.cancel()
        return closeAll()
    }

    @inlinable
    mutating func closeAll() -> ContiguousArray<any Subscription> {
        storage.removeAll()
        return slots.closeAll()
    }
}

/// The subscription `combineLatest` hands its subscriber (see ``DeliveryEmitter``).
@usableFromInline
final class FanInCombineSubscription<Storage: FanInCombineStorage, Downstream: Subscriber>:
    DeliveryEmitter<FanInCombineStateMachine<Storage, Downstream>>, Subscription, ReflectsAsOperator
where Downstream.Input == Storage.Output {
    @usableFromInline
    typealias Machine = FanInCombineStateMachine<Storage, Downstream>

    @inlinable
    init(downstream: Downstream, arity: Int) {
        let box = SubscriberBox(downstream)
        super.init(
            box: box, machine: Machine(box: box, arity: arity), upstreamCount: arity, racingLockFreeTakers: false,
            requestHook: { emitter, demand in
                unsafeDowncast(emitter, to: FanInCombineSubscription.self).requestNow(demand)
            })
    }

    /// ``request(_:)``, in the code `requestHook` was compiled into.
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a \(Storage.subscriptionDescription) subscription")
        add(demand)
    }

    /// A value of `input`: the side returns `.none`, as Apple's do (the subscriber's demand
    /// reaches the upstreams as requests).
    @inlinable
    func receive<Input: FanInCombineInput>(
        _ value: Input.Value, into input: Input.Type
    ) -> Subscribers.Demand where Input.Storage == Storage {
        accept(value, into: input)
        return .none
    }

    /// Stores `value` as `input`'s latest and delivers the tuple it completes if the subscriber
    /// wants it. Apart from ``receive(_:into:)``, which returns the side's answer: with the answer
    /// in the same body the compiler outlines the clean-up of `step`, a call per value.
    @inlinable
    func accept<Input: FanInCombineInput>(_ value: Input.Value, into input: Input.Type) where Input.Storage == Storage {
        var step = Step.idle
        var ticket: DeliveryTickets.Ticket?
        let deliverNow = state.withLock { machine -> Storage.Output? in
            // A free role with the attention flag clear means that values flow freely (open,
            // nothing queued, unlimited demand: everyone who changes those republishes the flag
            // under this lock), so the value needs only its own upstream's check before its tuple
            // goes out, and no demand is counted.
            if role.currentForTaking == 0 {
                assert(machine.fastEligible)
                guard !machine.slots[Input.index].finished else { return nil }
                Input.store(value, in: &machine.storage)
                guard let output = machine.storage.takeOutput() else { return nil }
                role.storeLocked(AtomicDeliveryRole.heldByCurrentThread())
                return output
            }
            return receiveCountedLocked(value, into: input, &machine, step: &step, ticket: &ticket)
        }
        if let deliverNow {
            finishDelivery(returning: deliver(deliverNow))
        } else {
            performQueued(step, ticket)
        }
    }

    /// Under the mutex, a value that needs the state machine's checks and bookkeeping: returns its
    /// tuple when this thread is to deliver it at once (see ``DeliveryEmitter/acceptLocked(_:tag:_:step:ticket:)``).
    /// Never inlined, so that the locked closure of ``accept(_:into:)``, which holds the
    /// free-flowing path, stays small enough for the optimiser to inline it there.
    @inlinable @inline(never)
    func receiveCountedLocked<Input: FanInCombineInput>(
        _ value: Input.Value, into input: Input.Type, _ machine: inout Machine, step: inout Step,
        ticket: inout DeliveryTickets.Ticket?
    ) -> Storage.Output? where Input.Storage == Storage {
        guard let output = machine.receive(value, into: input),
            acceptLocked(output, tag: (), &machine, step: &step, ticket: &ticket)
        else { return nil }
        return output
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        receiveCompletion { $0.receive(completion: completion, at: index) }
    }

    @usableFromInline
    var description: String { Storage.subscriptionDescription }

    /// The mirror shows the demand outstanding.
    @usableFromInline
    var customMirror: Mirror { demandMirror }
}

extension FanInCombineSubscription: DescribedFanInEventReceiver {}

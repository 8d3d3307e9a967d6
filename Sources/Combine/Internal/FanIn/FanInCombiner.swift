import TributaryLocks

/// What `combineLatest` and `zip` (2, 3 and 4 inputs) share: upstreams of different output types
/// whose values are stored per input and turned into tuples.
///
/// The per-input storage and the rule that makes tuples differ between the two operators and are
/// described by a ``FanInCombineStorage``. Their demand protocols differ too, so each has its own
/// engine: ``FanInCombineStateMachine`` below for `combineLatest`, ``ZipStateMachine`` for `zip`.
/// Both fail on the first failure and cancel the upstreams; `combineLatest` finishes once every
/// upstream has finished, `zip` as soon as an upstream has finished and none of its values is left
/// to pair.
@usableFromInline
protocol FanInCombineStorage {
    /// The tuple delivered downstream.
    associatedtype Output

    /// Empty storage: no input has sent anything.
    init()

    /// `true` for zip (values pair one to one, and are kept until paired), `false` for
    /// combineLatest (one tuple per arriving value, made from the latest value of every input).
    /// It decides when the inputs that have finished leave nothing to combine (``isExhausted``).
    static var pairsStrictly: Bool { get }

    /// The subscription's `description`, as Apple prints it.
    static var subscriptionDescription: String { get }

    /// The next tuple, if every input can contribute one; zip consumes what it uses.
    mutating func takeOutput() -> Output?

    /// Whether input `index` has nothing stored (only meaningful for zip).
    func isEmpty(at index: Int) -> Bool

    /// Releases every stored value.
    mutating func removeAll()
}

extension FanInCombineStorage {
    /// Whether no further tuple can be made now that some inputs have finished (`unfinished` of
    /// `arity` are still running; `isFinished` says which have finished). A zip can make none once
    /// a finished input has no value left to pair; a combineLatest still makes one for every value
    /// of a running input, so it is exhausted only when every input has finished.
    @inlinable
    func isExhausted(arity: Int, unfinished: Int, isFinished: (Int) -> Bool) -> Bool {
        guard Self.pairsStrictly else { return unfinished == 0 }
        return (0..<arity).contains { isFinished($0) && isEmpty(at: $0) }
    }
}

/// `combineLatest`'s engine. Every downstream request is passed on to every upstream (Apple's
/// rule), as a top-up of what each has been granted; a tuple is made only when the subscriber has
/// demand no queued tuple is already waiting to spend, so nothing piles up beyond the latest value
/// of each input.
@usableFromInline
struct FanInCombineStateMachine<Storage: FanInCombineStorage, Downstream: Subscriber>
where Downstream.Input == Storage.Output {
    @usableFromInline
    typealias Step = FanInGate<Downstream>.Step

    /// Upstreams to cancel; `nil` (the usual case) when there are none, which unlike an empty
    /// array costs no retain and release of the shared empty storage.
    @usableFromInline
    typealias CancelList = ContiguousArray<any Subscription>?

    /// A step to perform, whether upstream grants must be topped up, and upstreams to cancel.
    @usableFromInline
    typealias Action = (step: Step, topUp: Bool, cancel: CancelList)

    @usableFromInline
    var gate: FanInGate<Downstream>

    @usableFromInline
    var storage = Storage()

    @usableFromInline
    var slots: ContiguousArray<FanInSlot>

    @usableFromInline
    var unfinished: Int

    /// Everything the subscriber has requested so far; each upstream is granted up to this.
    @usableFromInline
    var requested: Subscribers.Demand = .none

    @inlinable
    init(downstream: Downstream, arity: Int) {
        gate = FanInGate(downstream: downstream)
        slots = ContiguousArray(repeating: FanInSlot(), count: arity)
        unfinished = arity
    }

    @inlinable
    mutating func receive(subscription: any Subscription, at index: Int) -> FanInSubscriptionAction {
        slots[index].attach(subscription, accepting: gate.isOpen, grantingUpTo: requested)
    }

    @inlinable
    mutating func receive<Input>(
        _ value: Input, at index: Int, store: (inout Storage, Input) -> Void
    ) -> Action {
        guard gate.isOpen, !slots[index].finished else { return (.idle, false, nil) }
        store(&storage, value)
        // At most one tuple per arriving value, handed straight out if possible.
        guard gate.freeDemand > 0, let output = storage.takeOutput() else { return (.idle, false, nil) }
        return (gate.canHandOut ? gate.handOut(output) : gate.offer(output), false, nil)
    }

    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int
    ) -> Action {
        guard gate.isOpen, !slots[index].finished else { return (.idle, false, nil) }
        _ = slots[index].close()
        unfinished -= 1
        switch completion {
        case .failure(let error):
            gate.fail(error)
            return (gate.kickAfterSending(), false, closeAll())
        case .finished:
            if storage.isExhausted(arity: slots.count, unfinished: unfinished, isFinished: { slots[$0].finished }) {
                gate.finish()
                storage.removeAll()
            }
            return (gate.kickAfterSending(), false, nil)
        }
    }

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Action {
        guard !gate.isTerminated else { return (.idle, false, nil) }
        gate.request(demand)
        let grows = requested != .unlimited
        requested += demand
        return (gate.kick(), grows && gate.isOpen, nil)
    }

    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Action {
        gate.noteDelivered()
        guard additional != .none, !gate.isTerminated else { return (gate.next(), false, nil) }
        gate.request(additional)
        let grows = requested != .unlimited
        requested += additional
        return (gate.next(), grows && gate.isOpen, nil)
    }

    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        guard gate.isOpen else { return nil }
        return slots[index].topUp(to: requested)
    }

    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        gate.cancel()
        return closeAll()
    }

    @inlinable
    mutating func closeAll() -> ContiguousArray<any Subscription> {
        storage.removeAll()
        return slots.closeAll()
    }
}

/// The subscription `combineLatest` hands its subscriber.
@usableFromInline
final class FanInCombineSubscription<Storage: FanInCombineStorage, Downstream: Subscriber>: Subscription,
    ReflectsAsOperator
where Downstream.Input == Storage.Output {
    @usableFromInline
    typealias Machine = FanInCombineStateMachine<Storage, Downstream>

    @usableFromInline
    let state: LockedState<Machine>

    @usableFromInline
    let arity: Int

    @inlinable
    init(downstream: Downstream, arity: Int) {
        self.arity = arity
        state = LockedState(Machine(downstream: downstream, arity: arity))
    }

    /// The subscriber for input `index`; `store` puts its value into the storage.
    @inlinable
    func side<Input>(_ index: Int, store: @escaping (inout Storage, Input) -> Void) -> Side<Input> {
        Side(index: index, parent: self, store: store)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a \(Storage.subscriptionDescription) subscription")
        perform(state.withLock { $0.request(demand) })
    }

    @inlinable
    func cancel() {
        let held = state.withLock { $0.cancel() }
        for subscription in held { subscription.cancel() }
    }

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        state.withLock { $0.receive(subscription: subscription, at: index) }.perform()
    }

    @inlinable
    func receive<Input>(_ value: Input, at index: Int, store: (inout Storage, Input) -> Void) {
        perform(state.withLock { $0.receive(value, at: index, store: store) })
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        perform(state.withLock { $0.receive(completion: completion, at: index) })
    }

    @inlinable
    func perform(_ action: consuming Machine.Action) {
        // Taken apart so the step moves into `drain` rather than being copied out of the tuple.
        let (step, topUp, cancel) = action
        if let cancel {
            for subscription in cancel { subscription.cancel() }
        }
        if topUp { topUpAll() }
        FanInGate<Downstream>.drain(step) { additional in
            let next = state.withLock { $0.delivered(additional: additional) }
            if let cancel = next.cancel {
                for subscription in cancel { subscription.cancel() }
            }
            if next.topUp { topUpAll() }
            return next.step
        } wait: { ticket in
            state.waitUntilSettled(ticket)
        }
    }

    @usableFromInline
    func topUpAll() {
        for index in 0..<arity {
            if let (held, demand) = state.withLock({ $0.topUp(at: index) }) {
                held.request(demand)
            }
        }
    }

    @usableFromInline
    var description: String { Storage.subscriptionDescription }

    @usableFromInline
    var customMirror: Mirror {
        let demand = state.withLock { $0.gate.demand }
        return Mirror(self, children: ["demand": demand])
    }

    /// The subscriber attached to one input.
    @usableFromInline
    struct Side<Input>: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let index: Int

        @usableFromInline
        let parent: FanInCombineSubscription

        @usableFromInline
        let store: (inout Storage, Input) -> Void

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(index: Int, parent: FanInCombineSubscription, store: @escaping (inout Storage, Input) -> Void) {
            self.index = index
            self.parent = parent
            self.store = store
        }

        @usableFromInline
        var description: String { Storage.subscriptionDescription }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, at: index)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receive(input, at: index, store: store)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receive(completion: completion, at: index)
        }
    }
}

extension FanInCombineStateMachine: DeliveryTicketing {
    /// The gate's tickets, for the senders that wait on this state's lock.
    @usableFromInline
    var tickets: DeliveryTickets {
        get { gate.tickets }
        set { gate.tickets = newValue }
    }
}

import Synchronization

/// The states of a flat map's direct delivery (see ``FlatMapSubscription``).
@usableFromInline
enum FlatMapDirectDelivery {
    /// No direct delivery outstanding: the gate's `emitting` flag is accurate.
    @inlinable static var idle: UInt8 { 0 }
    /// A thread is handing a value to the subscriber outside the lock.
    @inlinable static var active: UInt8 { 1 }
    /// As `active`, and someone took the lock meanwhile: the delivering thread must come back
    /// through the lock to pick up whatever changed.
    @inlinable static var dirty: UInt8 { 2 }
    /// The delivering thread finished without the lock: the gate's `emitting` flag is stale.
    @inlinable static var released: UInt8 { 3 }
}

/// The subscription `flatMap` hands its subscriber. It is also the upstream's subscriber; each
/// inner publisher is subscribed through an ``Inner`` tagged with its slot.
///
/// An inner value that finds nobody emitting, nothing queued and demand left is handed to the
/// subscriber by its own thread ("direct delivery"): it becomes the emitter under the lock, calls
/// the subscriber outside it, and then, if the subscriber asked for nothing more and nobody took
/// the lock meanwhile, steps down with one atomic exchange on ``direct`` rather than a second
/// lock. Whoever takes the lock next first settles that state (``settleDirectDelivery(_:)``):
/// it either learns the emitter has stepped down, or marks the delivery `dirty` so that the
/// delivering thread comes back through the lock and delivers whatever was queued meanwhile.
@usableFromInline
final class FlatMapSubscription<UpstreamOutput, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    @usableFromInline
    typealias Machine = FlatMapStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<Machine>

    @usableFromInline
    let transform: (UpstreamOutput) -> NewPublisher

    @usableFromInline
    let maxPublishers: Subscribers.Demand

    /// A ``FlatMapDirectDelivery`` state; written under the lock, except by the delivering thread
    /// stepping down (`active` to `released`).
    @usableFromInline
    let direct = Atomic<UInt8>(FlatMapDirectDelivery.idle)

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (UpstreamOutput) -> NewPublisher) {
        self.transform = transform
        self.maxPublishers = maxPublishers
        state = LockedState(Machine(downstream: downstream, maxPublishers: maxPublishers))
    }

    // MARK: Upstream side

    @inlinable
    func receiveUpstream(subscription: any Subscription) {
        guard let downstream = state.withLock({ $0.receiveUpstream(subscription: subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        // The subscriber may have cancelled from `receive(subscription:)`.
        if maxPublishers != .none, state.withLock({ $0.acceptsUpstreamValues }) {
            subscription.request(maxPublishers)
        }
    }

    @inlinable
    func receiveUpstream(_ value: UpstreamOutput) {
        guard state.withLock({ $0.acceptsUpstreamValues }) else { return }
        let publisher = transform(value)
        guard let (index, generation) = state.withLock({ $0.registerInner() }) else { return }
        publisher.receive(subscriber: Inner(index: index, generation: generation, parent: self))
    }

    @inlinable
    func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) {
        perform(state.withLock { machine in
            settleDirectDelivery(&machine)
            return machine.receiveUpstream(completion: completion)
        })
    }

    // MARK: Inner side

    @inlinable
    func receiveInner(subscription: any Subscription, at index: Int, generation: Int) {
        switch state.withLock({ $0.receiveInner(subscription: subscription, at: index, generation: generation) }) {
        case .keep: break
        case .request(let demand): subscription.request(demand)
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    func receiveInner(_ value: Downstream.Input, at index: Int, generation: Int) {
        var step = Machine.Step.idle
        let target = state.withLock { machine -> Downstream? in
            settleDirectDelivery(&machine)
            guard let downstream = machine.receiveInner(value, at: index, generation: generation, otherwise: &step)
            else { return nil }
            direct.store(FlatMapDirectDelivery.active, ordering: .relaxed)
            return downstream
        }
        guard let target else {
            drain(step)
            return
        }
        let additional = target.receive(value)
        if additional == .none,
            direct.compareExchange(
                expected: FlatMapDirectDelivery.active, desired: FlatMapDirectDelivery.released,
                ordering: .acquiringAndReleasing
            ).exchanged
        {
            return
        }
        let (next, topUp) = state.withLock { machine -> (Machine.Step, Bool) in
            direct.store(FlatMapDirectDelivery.idle, ordering: .relaxed)
            return machine.delivered(additional: additional)
        }
        if topUp { topUpAll() }
        drain(next)
    }

    /// Run first under the lock by everything that may rely on the gate's `emitting` flag or
    /// change what an emitter must deliver (see the type's documentation).
    @inlinable
    func settleDirectDelivery(_ machine: inout Machine) {
        var current = direct.load(ordering: .acquiring)
        if current == FlatMapDirectDelivery.active {
            let (exchanged, original) = direct.compareExchange(
                expected: FlatMapDirectDelivery.active, desired: FlatMapDirectDelivery.dirty,
                ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
        if current == FlatMapDirectDelivery.released {
            direct.store(FlatMapDirectDelivery.idle, ordering: .relaxed)
            machine.gate.emitting = false
        }
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, at index: Int, generation: Int) {
        if case .finished = completion,
            state.withLock({ machine in
                settleDirectDelivery(&machine)
                return machine.finishInnerQuietly(at: index, generation: generation)
            })
        {
            return
        }
        perform(state.withLock { machine in
            settleDirectDelivery(&machine)
            return machine.receiveInner(completion: completion, at: index, generation: generation)
        })
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a FlatMap subscription")
        perform(state.withLock { machine in
            settleDirectDelivery(&machine)
            return machine.request(demand)
        })
    }

    @inlinable
    func cancel() {
        let held = state.withLock { machine in
            settleDirectDelivery(&machine)
            return machine.cancel()
        }
        for subscription in held { subscription.cancel() }
    }

    // MARK: Performing actions

    @inlinable
    func perform(_ action: Machine.Action) {
        for subscription in action.cancel { subscription.cancel() }
        if action.topUp { topUpAll() }
        action.requestOne?.request(.max(1))
        drain(action.step)
    }

    /// Performs `first` and, as the emitter, every delivery after it.
    @inlinable
    func drain(_ first: Machine.Step) {
        FanInGate<Downstream>.drain(first) { additional in
            let (step, topUp) = state.withLock { $0.delivered(additional: additional) }
            if topUp { topUpAll() }
            return step
        }
    }

    @usableFromInline
    func topUpAll() {
        var index = 0
        while true {
            let (more, grant) = state.withLock { machine -> (Bool, (any Subscription, Subscribers.Demand)?) in
                (index < machine.inners.count, machine.topUp(at: index))
            }
            guard more else { return }
            if let (held, demand) = grant { held.request(demand) }
            index += 1
        }
    }

    // MARK: Descriptions

    @usableFromInline
    var description: String { "FlatMap" }

    @usableFromInline
    var playgroundDescription: Any { description }

    @usableFromInline
    var customMirror: Mirror {
        let (demand, inners) = state.withLock { ($0.gate.demand, $0.activeInners) }
        return Mirror(self, children: ["demand": demand, "activeInners": inners])
    }

    /// The upstream's subscriber.
    @usableFromInline
    struct Outer: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Input = UpstreamOutput
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let parent: FlatMapSubscription

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: FlatMapSubscription) {
            self.parent = parent
        }

        @usableFromInline
        var description: String { "FlatMap" }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveUpstream(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receiveUpstream(input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveUpstream(completion: completion)
        }
    }

    /// The subscriber attached to one inner publisher.
    @usableFromInline
    struct Inner: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Input = Downstream.Input
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let index: Int

        @usableFromInline
        let generation: Int

        @usableFromInline
        let parent: FlatMapSubscription

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(index: Int, generation: Int, parent: FlatMapSubscription) {
            self.index = index
            self.generation = generation
            self.parent = parent
        }

        @usableFromInline
        var description: String { "FlatMap" }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveInner(subscription: subscription, at: index, generation: generation)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receiveInner(input, at: index, generation: generation)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveInner(completion: completion, at: index, generation: generation)
        }
    }
}

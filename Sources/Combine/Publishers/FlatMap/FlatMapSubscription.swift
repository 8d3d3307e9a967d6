/// The subscription `flatMap` hands its subscriber. It is also the upstream's subscriber; each
/// inner publisher is subscribed through an ``Inner`` tagged with its slot.
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
        perform(state.withLock { $0.receiveUpstream(completion: completion) })
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
        guard let downstream = state.withLock({ $0.receiveInner(value, at: index, generation: generation, otherwise: &step) })
        else {
            drain(step)
            return
        }
        let additional = downstream.receive(value)
        let (done, next, topUp) = state.withLock { machine -> (Bool, Machine.Step, Bool) in
            if machine.deliveredDirectly(additional: additional) { return (true, .idle, false) }
            let (next, topUp) = machine.delivered(additional: additional)
            return (false, next, topUp)
        }
        if done { return }
        if topUp { topUpAll() }
        drain(next)
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, at index: Int, generation: Int) {
        perform(state.withLock { $0.receiveInner(completion: completion, at: index, generation: generation) })
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:) on a FlatMap subscription")
        perform(state.withLock { $0.request(demand) })
    }

    @inlinable
    func cancel() {
        let held = state.withLock { $0.cancel() }
        for subscription in held { subscription.cancel() }
    }

    // MARK: Performing actions

    @inlinable
    func perform(_ action: Machine.Action) {
        if action.cancel.isEmpty, !action.topUp, action.requestOne == nil, case .idle = action.step { return }
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

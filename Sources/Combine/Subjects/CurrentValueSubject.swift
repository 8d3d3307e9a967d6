/// A subject that holds a current value and gives it to each new subscriber, then republishes
/// every later value.
///
/// Read and write the current value with ``value``; writing it publishes it, exactly like
/// ``send(_:)``, which also updates ``value``. A subscriber receives the value current at the
/// moment it first asks for values, then the values sent while it has outstanding demand. After
/// ``send(completion:)`` values are ignored (``value`` no longer changes), and late subscribers
/// receive the completion at once.
///
/// Thread safety and ordering are those of ``PassthroughSubject``: any thread may send, subscribe
/// or cancel; subscribers are served in subscription order (Apple leaves the order unspecified);
/// calls into one subscriber are serialized by queueing values sent while it is busy (including
/// reentrant sends from inside its own `receive(_:)`) and delivering them right after the current
/// call returns, instead of nesting them as Apple does with a recursive lock. This cannot deadlock.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    // @unchecked Sendable: every stored property is inside `state`, guarded by its mutex.

    @usableFromInline
    typealias Conduit = SubjectConduit<Output, Failure>

    @usableFromInline
    struct State {
        @usableFromInline var value: Output
        @usableFromInline var conduits: ContiguousArray<Conduit> = []
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var upstreams: [any Subscription] = []
        @usableFromInline var hasDemand = false

        @inlinable
        init(value: Output) {
            self.value = value
        }
    }

    @usableFromInline
    let state: LockedState<State>

    /// Makes a subject whose current value is `value`.
    @inlinable
    public init(_ value: Output) {
        state = LockedState(State(value: value))
    }

    deinit {
        for upstream in state.withLock({ $0.upstreams }) {
            upstream.cancel()
        }
    }

    /// The current value. Setting it publishes the new value to the subscribers.
    @inlinable
    public var value: Output {
        get { state.withLock { $0.value } }
        set { send(newValue) }
    }

    /// Attaches `subscriber`; it receives the current value on its first demand. After completion
    /// it receives the completion immediately.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = Conduit(name: "CurrentValueSubject", parent: self) { event in
            switch event {
            case .value(let value):
                return subscriber.receive(value)
            case .completion(let completion):
                subscriber.receive(completion: completion)
                return .none
            }
        }
        let completed = state.withLock { state -> Subscribers.Completion<Failure>? in
            if let completion = state.completion { return completion }
            state.conduits.append(conduit)
            return nil
        }
        if let completed {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completed)
            return
        }
        subscriber.receive(subscription: conduit)
        conduit.subscriptionDelivered()
    }

    /// Makes `input` the current value and sends it to every subscriber with outstanding demand.
    /// Ignored after completion.
    @inlinable
    public func send(_ input: Output) {
        let conduits = state.withLock { state -> ContiguousArray<Conduit>? in
            guard state.completion == nil else { return nil }
            state.value = input
            return state.conduits
        }
        guard let conduits else { return }
        for conduit in conduits {
            conduit.offer(input)
        }
    }

    /// Ends the stream for every subscriber, current and future; later calls are ignored.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        let taken = state.withLock { state -> (ContiguousArray<Conduit>, [any Subscription])? in
            guard state.completion == nil else { return nil }
            state.completion = completion
            defer {
                state.conduits = []
                state.upstreams = []
            }
            return (state.conduits, state.upstreams)
        }
        guard let (conduits, _) = taken else { return }
        for conduit in conduits {
            conduit.offer(completion: completion)
        }
    }

    /// Keeps `subscription` as an upstream and asks it for unlimited values once any subscriber
    /// of this subject has asked for values (at once if one already has).
    ///
    /// The subject is where demand aggregates: it does not pass its subscribers' individual
    /// demands upstream, it asks for everything as soon as anyone wants something, and drops
    /// values for subscribers without outstanding demand. Until the first demand it asks for
    /// nothing, so an upstream connected before any subscriber does not start producing into the
    /// void.
    @inlinable
    public func send(subscription: any Subscription) {
        let demanded = state.withLock { state -> Bool in
            state.upstreams.append(subscription)
            return state.hasDemand
        }
        if demanded {
            subscription.request(.unlimited)
        }
    }
}

extension CurrentValueSubject: SubjectConduitParent {
    @inlinable
    func conduitReceivedFirstDemand() -> Output? {
        let (value, upstreams) = state.withLock { state -> (Output?, [any Subscription]) in
            guard state.completion == nil else { return (nil, []) }
            if state.hasDemand { return (state.value, []) }
            state.hasDemand = true
            return (state.value, state.upstreams)
        }
        for upstream in upstreams {
            upstream.request(.unlimited)
        }
        return value
    }

    @inlinable
    func conduitCancelled(_ conduit: SubjectConduit<Output, Failure>) {
        state.withLock { state in
            if let index = state.conduits.firstIndex(where: { $0 === conduit }) {
                state.conduits.remove(at: index)
            }
        }
    }
}

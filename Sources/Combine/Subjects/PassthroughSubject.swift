import Synchronization

/// A subject that republishes the values sent into it to its current subscribers, keeping no
/// value of its own.
///
/// Use it to bridge imperative code (callbacks, delegates, user actions) into a pipeline. A
/// subscriber receives only the values sent after it subscribed and while it has outstanding
/// demand; values sent with no subscriber are lost. After ``send(completion:)`` the subject
/// ignores further values, and a subscriber that arrives later receives the completion at once.
///
/// Thread safety: `send`, `send(completion:)`, subscribing and cancelling may happen on any threads
/// at once. Subscribers are served in the order they subscribed (Apple leaves the order
/// unspecified). Calls into each subscriber are serialized: a value sent while that subscriber is
/// still busy with an earlier one (on another thread, or reentrantly from inside its own
/// `receive(_:)`) is queued and delivered by the busy thread right after the current call returns.
/// Apple nests such reentrant deliveries with a recursive lock; queueing instead can never
/// deadlock, and no lock is held while a subscriber runs.
///
/// When the subject subscribes to a publisher itself (``Publisher/subscribe(_:)-3fk20``), it asks
/// that upstream for unlimited values as soon as one of its own subscribers asks for anything.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    // @unchecked Sendable: the stored state is inside `state`, guarded by its mutex, except
    // `published`, which `sendFlags` hands to one thread at a time.

    @usableFromInline
    typealias Conduit = SubjectConduit<Output, Failure>

    @usableFromInline
    struct State {
        @usableFromInline var conduits: ContiguousArray<Conduit> = []
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var upstreams: [any Subscription] = []
        @usableFromInline var hasDemand = false

        @inlinable
        init() {}
    }

    @usableFromInline
    let state = LockedState(State())

    /// Bits of `sendFlags`.
    @usableFromInline static var sendingFlag: UInt8 { 1 }
    @usableFromInline static var staleFlag: UInt8 { 2 }

    /// Lets one thread at a time send without the mutex: `sendingFlag` is held by the thread that
    /// is walking `published`, `staleFlag` says `published` no longer matches `state.conduits`.
    ///
    /// Every change to the subscriber list (subscribe, cancel, completion) happens under the mutex
    /// and then either rewrites `published` itself (nobody is sending, and nobody can start while
    /// `staleFlag` is set) or leaves `staleFlag` for the sending thread, whose give-back then fails
    /// and which rewrites `published` under the mutex. A send that finds the flag taken (another
    /// thread sending, or a subscriber sending reentrantly) takes the mutex and copies the list, as
    /// every send did before; the conduits serialize what reaches each subscriber either way.
    @usableFromInline
    let sendFlags = Atomic<UInt8>(0)

    /// The conduits as of the last change (empty after completion). Read only by the holder of
    /// `sendingFlag`; written under the mutex while nobody holds it.
    @usableFromInline
    let published: UnsafeMutablePointer<ContiguousArray<Conduit>> = {
        let pointer = UnsafeMutablePointer<ContiguousArray<Conduit>>.allocate(capacity: 1)
        pointer.initialize(to: [])
        return pointer
    }()

    /// Makes a subject with no subscribers.
    @inlinable
    public init() {}

    deinit {
        for upstream in state.withLock({ $0.upstreams }) {
            upstream.cancel()
        }
        published.deinitialize(count: 1)
        published.deallocate()
    }

    /// Changes the subscriber list; called under the mutex. Refreshes `published` unless a thread
    /// is sending from it, in which case that thread does it when it is done.
    ///
    /// `published` shares its buffer with `state.conduits`; it lets go of it before the change,
    /// so that the change happens in place instead of copying the list (an allocation per
    /// subscribe or cancel).
    @inlinable
    func changeSubscribers(_ state: inout State, _ change: (inout ContiguousArray<Conduit>) -> Void) {
        let before = sendFlags.bitwiseOr(Self.staleFlag, ordering: .acquiringAndReleasing).oldValue
        guard before & Self.sendingFlag == 0 else {
            change(&state.conduits)
            return
        }
        published.pointee = []
        change(&state.conduits)
        published.pointee = state.completion == nil ? state.conduits : []
        sendFlags.bitwiseAnd(~Self.staleFlag, ordering: .releasing)
    }

    /// Attaches `subscriber`; after completion it receives the completion immediately.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = Conduit(name: "PassthroughSubject", parent: self) { event in
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
            changeSubscribers(&state) { $0.append(conduit) }
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

    /// Sends `input` to every subscriber that has outstanding demand.
    @inlinable
    public func send(_ input: Output) {
        if sendFlags.compareExchange(expected: 0, desired: Self.sendingFlag, ordering: .acquiring).exchanged {
            for conduit in published.pointee {
                conduit.offer(input)
            }
            if sendFlags.compareExchange(expected: Self.sendingFlag, desired: 0, ordering: .releasing).exchanged {
                return
            }
            state.withLock { state in
                published.pointee = state.completion == nil ? state.conduits : []
                sendFlags.store(0, ordering: .releasing)
            }
            return
        }
        guard let conduits = state.withLock({ $0.completion == nil ? $0.conduits : nil }) else { return }
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
            var conduits = ContiguousArray<Conduit>()
            changeSubscribers(&state) { swap(&conduits, &$0) }
            defer { state.upstreams = [] }
            return (conduits, state.upstreams)
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

extension PassthroughSubject: SubjectConduitParent {
    @inlinable
    func conduitReceivedFirstDemand() -> Output? {
        let upstreams = state.withLock { state -> [any Subscription] in
            if state.hasDemand { return [] }
            state.hasDemand = true
            return state.upstreams
        }
        for upstream in upstreams {
            upstream.request(.unlimited)
        }
        return nil
    }

    @inlinable
    func conduitCancelled(_ conduit: SubjectConduit<Output, Failure>) {
        state.withLock { state in
            if let index = state.conduits.firstIndex(where: { $0 === conduit }) {
                changeSubscribers(&state) { _ = $0.remove(at: index) }
            }
        }
    }
}

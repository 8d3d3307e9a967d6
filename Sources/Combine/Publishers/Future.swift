import TributaryLocks

/// A publisher that eventually produces one value and finishes, or fails.
///
/// The closure passed to ``init(_:)`` runs at once, exactly once, when the future is created, not
/// when someone subscribes. It receives a ``Promise`` to call when the work is done. The future
/// stores the result and hands it to every subscriber, those present when it arrives and those
/// that come later, without running the work again. A success value waits until the subscriber
/// asks for it; a failure is delivered immediately. Only the first call of the promise counts.
///
/// To run the work once per subscriber, or only on subscription, wrap the future in `Deferred`.
public final class Future<Output, Failure: Error>: Publisher {
    /// The callback the work calls with its result.
    public typealias Promise = (Result<Output, Failure>) -> Void

    /// The lock, the phase and the subscriptions waiting for the result. Every subscription of
    /// this future shares the lock, which guards the subscription's own fields too
    /// (``FutureConduit``): one lock fewer per subscription, and one critical section where the
    /// two had to be taken in turn.
    @usableFromInline
    let state = LockedState(FutureState())

    /// The result once the promise has been called, written once, under the lock, as the phase
    /// leaves `pending`, and never again; read only by a subscription that has seen under the lock
    /// that the phase did, while it holds the future. Kept out of ``state`` so that the lock's
    /// state is not generic: in a debug build, where this code runs unspecialised, every step
    /// over a generic state (each copy, each test of an optional result) looked up the type
    /// metadata of the state, of `Result` and of its `Optional` at run time.
    @usableFromInline
    @exclusivity(unchecked)
    var outcome = FutureOutcome<Output, Failure>.unknown

    /// Runs `attemptToFulfill` now, with the promise that completes this future.
    @inlinable
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            self.fulfill(result)
        }
    }

    @inlinable
    func fulfill(_ result: Result<Output, Failure>) {
        let waiting = state.withLock { state -> ContiguousArray<FutureConduit> in
            guard case .pending = state.phase else { return [] }
            switch result {
            case .success(let value):
                outcome = .success(value)
                return state.settle(.succeeded)
            case .failure(let error):
                outcome = .failure(error)
                return state.settle(.failed)
            }
        }
        // By index: a `for … in` over the array (or its `indices`) looks up the metadata of its
        // iterator at run time in a debug build, even when no subscription waits.
        for index in 0 ..< waiting.count where waiting[index].claimFulfilled() {
            waiting[index].deliver(from: self)
        }
    }

    /// Attaches `subscriber`; it receives the result once it is known (a value only on demand).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = SubscriberConduit(parent: self, downstream: subscriber)
        conduit.attach()
        subscriber.receive(subscription: conduit)
        conduit.subscriptionDelivered(from: self)
    }
}

/// Where a ``Future`` stands. A plain enum, apart from the result itself
/// (``Future/outcome``), so that the checks made under the lock need no type metadata.
@usableFromInline
enum FuturePhase {
    case pending
    case succeeded
    case failed
}

/// A ``Future``'s result, or none yet. Its own enum rather than `Result<Output, Failure>?`: in a
/// debug build, each function that touches an optional result looks up the metadata of `Result`
/// and then of its `Optional`, and this one needs one look-up.
@usableFromInline
enum FutureOutcome<Output, Failure: Error> {
    case unknown
    case success(Output)
    case failure(Failure)
}

/// The state a ``Future``'s lock guards (its subscriptions' fields aside, see ``FutureConduit``).
/// Not generic: the lock is taken by code that runs unspecialised in a debug build, and a generic
/// state would cost a look-up of its type metadata at each step.
@usableFromInline
struct FutureState {
    @usableFromInline var phase = FuturePhase.pending
    /// The subscriptions attached while the result was not known; emptied when it arrives.
    @usableFromInline var waiting: ContiguousArray<FutureConduit> = []

    @inlinable
    init() {}

    /// Records the result's kind and hands over the waiting subscriptions.
    @inlinable
    mutating func settle(_ phase: FuturePhase) -> ContiguousArray<FutureConduit> {
        self.phase = phase
        defer { waiting = [] }
        return waiting
    }
}

/// What a ``Future``'s subscription knows of its subscriber, under the future's lock.
@usableFromInline
struct FutureConduitFlags {
    /// The subscriber is still held: neither served nor cancelled. Whoever clears this, under the
    /// lock, owns the subscriber from then on.
    @usableFromInline var live = true
    @usableFromInline var hasDemand = false
    /// False until the subscriber has its subscription; nothing is delivered before.
    @usableFromInline var ready = false

    @inlinable
    init() {}

    /// Claims the subscriber when the result can go out now: it is known, the subscriber has its
    /// subscription, and it asked for a value unless the result is a failure.
    @inlinable
    mutating func claim(_ phase: FuturePhase) -> Bool {
        guard ready, live else { return false }
        switch phase {
        case .pending:
            return false
        case .succeeded:
            guard hasDemand else { return false }
        case .failed:
            break
        }
        live = false
        return true
    }
}

/// One subscriber's subscription to a ``Future``, as the future sees it: everything that does not
/// depend on the future's or the subscriber's types. The subscriber itself is kept by the subclass
/// `Future.SubscriberConduit`, generic over its type, and reached through ``deliverHook``, made in
/// that subclass's specialised `init`.
///
/// Not generic, so that the bookkeeping (attaching, requests, the claim on the subscriber,
/// cancelling) runs without type metadata in a debug build, and so that `request(_:)` and
/// `cancel()`, which arrive through the `Subscription` existential, are compiled once rather than
/// run as unspecialised generic code (the reason the generic subscription kept a hook for
/// `request(_:)`: `switchToLatest` over `Future`s looked up type metadata for every one).
///
/// Its fields are guarded by its future's lock, ``lock``, which it shares: the future's result is
/// known under the same lock that tells the subscription whether it may deliver.
@usableFromInline
class FutureConduit: Subscription, ReflectsAsOperator {
    /// The future's lock (the storage of ``Future/state``).
    @usableFromInline
    let lock: LockedState<FutureState>

    /// Guarded by ``lock``.
    @usableFromInline
    @exclusivity(unchecked)
    var flags = FutureConduitFlags()

    /// The future, until the result has gone out or the subscription is cancelled; guarded by
    /// ``lock``. The future stays here while the result is being delivered, so that the mirror
    /// shows it meanwhile, as Apple's does.
    @usableFromInline
    @exclusivity(unchecked)
    var parent: AnyObject?

    /// Hands the future's result to the subscriber the caller has claimed (the future is given
    /// as the second argument, held by the caller for the call), or, given `nil` (a cancel), lets
    /// go of the subscriber.
    @usableFromInline
    let deliverHook: (FutureConduit, AnyObject?) -> Void

    @inlinable
    init(parent: AnyObject, lock: LockedState<FutureState>, deliverHook: @escaping (FutureConduit, AnyObject?) -> Void) {
        self.lock = lock
        self.parent = parent
        self.deliverHook = deliverHook
    }

    /// Joins the future's waiting subscriptions unless the result is already known.
    @inlinable
    final func attach() {
        lock.withLock { state in
            if case .pending = state.phase { state.waiting.append(self) }
        }
    }

    /// The subscriber has its subscription: delivers the result if it is known and may go out.
    @inlinable
    final func subscriptionDelivered(from future: AnyObject) {
        let claimed = lock.withLock { state -> Bool in
            flags.ready = true
            return flags.claim(state.phase)
        }
        if claimed { deliver(from: future) }
    }

    /// The result has just arrived (the caller took this subscription from the waiting ones):
    /// whether the caller now owns the subscriber and must ``deliver(from:)``.
    @inlinable
    final func claimFulfilled() -> Bool {
        lock.withLock { state in flags.claim(state.phase) }
    }

    @usableFromInline
    final func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Future subscription request(_:)")
        // The future is taken out with the claim: a cancel may let go of `parent` meanwhile.
        let future = lock.withLock { state -> AnyObject? in
            flags.hasDemand = true
            return flags.claim(state.phase) ? parent : nil
        }
        if let future { deliver(from: future) }
    }

    /// Hands the result to the subscriber this call claimed, then lets go of the future. (Apple
    /// keeps the future after a delivery that a request set off: a leak, not copied.)
    @inlinable
    final func deliver(from future: AnyObject) {
        deliverHook(self, future)
        let parent = lock.withLock { _ in self.parent.take() }
        withExtendedLifetime(parent) {}
    }

    @usableFromInline
    final func cancel() {
        let (claimed, parent) = lock.withLock { state -> (Bool, AnyObject?) in
            let claimed = flags.live
            flags.live = false
            let parent = self.parent.take()
            if parent != nil, case .pending = state.phase,
               let index = state.waiting.firstIndex(where: { $0 === self }) {
                state.waiting.remove(at: index)
            }
            return (claimed, parent)
        }
        if claimed { deliverHook(self, nil) }
        withExtendedLifetime(parent) {}
    }

    /// The subscriber, for the mirror; read under the lock while it is still held.
    var heldSubscriber: Any? { nil }

    /// `parent` as the mirror shows it: an optional of the future's own type.
    func mirrorParent(_ parent: AnyObject?) -> Any { parent as Any }

    @usableFromInline
    final var description: String { "Future" }

    /// Apple's shape: `parent` and `downstream` are `nil` once the result has gone out or the
    /// subscription was cancelled; while the result is being delivered, `parent` is still
    /// the future and `downstream` is already `nil`.
    @usableFromInline
    final var mirrorChildren: KeyValuePairs<String, Any> {
        let (parent, downstream, hasDemand) = lock.withLock { _ in
            (self.parent, flags.live ? heldSubscriber : nil, flags.hasDemand)
        }
        let shown = mirrorParent(parent)
        return ["parent": shown, "downstream": downstream as Any, "hasAnyDemand": hasDemand, "subject": shown]
    }
}

extension Future {
    /// A ``FutureConduit`` holding a subscriber of type `Downstream`. `Slot` is always
    /// `Downstream?`, a type parameter for the reason `OneValueSubscription` gives: the
    /// unspecialised deinit would otherwise look up the metadata of `Optional<Downstream>`.
    @usableFromInline
    final class SubscriberConduit<Downstream: Subscriber, Slot>: FutureConduit
    where Downstream.Input == Output, Downstream.Failure == Failure {
        /// Touched only by whoever claimed the subscriber (``FutureConduitFlags/live``), and by
        /// the mirror under the lock before that; hence `@exclusivity(unchecked)`.
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: Slot

        @inlinable
        init(parent: Future, downstream: Downstream) where Slot == Downstream? {
            self.downstream = downstream
            super.init(parent: parent, lock: parent.state) { conduit, future in
                // Unchecked casts through `Unmanaged`: the hook is only ever stored in a
                // `SubscriberConduit` of these types and given its future. `unsafeDowncast` checks
                // the type, which in a debug build looks up the class's metadata at run time.
                let conduit = Unmanaged<SubscriberConduit>
                    .fromOpaque(Unmanaged.passUnretained(conduit).toOpaque()).takeUnretainedValue()
                if let future {
                    conduit.deliver(
                        from: Unmanaged<Future>.fromOpaque(Unmanaged.passUnretained(future).toOpaque())
                            .takeUnretainedValue())
                } else {
                    conduit.letGo()
                }
            }
        }

        @inlinable
        func deliver(from future: Future) where Slot == Downstream? {
            guard let downstream = downstream.take() else { return }
            switch future.outcome {
            case .success(let value):
                _ = downstream.receive(value)
                downstream.receive(completion: .finished)
            case .failure(let error):
                downstream.receive(completion: .failure(error))
            case .unknown:
                APIViolation.unexpected("Future delivered before its result was known")
            }
        }

        /// Lets go of the subscriber after a cancel has claimed it.
        @inlinable
        func letGo() where Slot == Downstream? {
            downstream = nil
        }

        /// The subscriber itself, not wrapped in `Slot`'s optional, so that the mirror shows one
        /// `Optional` around it, as Apple's does.
        override var heldSubscriber: Any? { (downstream as Any) as? Downstream }

        override func mirrorParent(_ parent: AnyObject?) -> Any {
            parent.map { unsafeDowncast($0, to: Future.self) } as Any
        }
    }
}

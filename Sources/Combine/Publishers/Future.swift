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

    @usableFromInline
    struct State {
        @usableFromInline var result: Result<Output, Failure>?
        @usableFromInline var waiting: ContiguousArray<Conduit> = []

        @inlinable
        init() {}
    }

    @usableFromInline
    let state = LockedState(State())

    /// Runs `attemptToFulfill` now, with the promise that completes this future.
    @inlinable
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            self.fulfill(result)
        }
    }

    @inlinable
    func fulfill(_ result: Result<Output, Failure>) {
        let waiting = state.withLock { state -> ContiguousArray<Conduit> in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiting = [] }
            return state.waiting
        }
        for conduit in waiting {
            conduit.fulfill(result)
        }
    }

    /// Attaches `subscriber`; it receives the result once it is known (a value only on demand).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = SubscriberConduit(parent: self, downstream: subscriber)
        let known = state.withLock { state -> Result<Output, Failure>? in
            if let result = state.result { return result }
            state.waiting.append(conduit)
            return nil
        }
        subscriber.receive(subscription: conduit)
        conduit.subscriptionDelivered(known)
    }

    @inlinable
    func remove(_ conduit: Conduit) {
        state.withLock { state in
            if let index = state.waiting.firstIndex(where: { $0 === conduit }) {
                state.waiting.remove(at: index)
            }
        }
    }
}

extension Future {
    /// One subscriber's subscription, as the future sees it. The subscriber itself is kept by the
    /// subclass ``SubscriberConduit``, generic over its type, and reached through hooks made in
    /// that subclass's specialised `init`: the future's list of waiting subscriptions needs one
    /// type for all of them, and a closure capturing the subscriber (what this used to keep)
    /// cost an allocation per subscription, and another for the thunk that re-abstracted it
    /// when it was taken out of the generic state.
    @usableFromInline
    class Conduit: Subscription, ReflectsAsOperator {
        @usableFromInline
        struct State {
            /// The subscriber is still held: neither served nor cancelled. Whoever clears this,
            /// under the lock, owns the subscriber from then on.
            @usableFromInline var live = true
            @usableFromInline var parent: Future?
            @usableFromInline var result: Result<Output, Failure>?
            @usableFromInline var hasDemand = false
            /// False until the subscriber has its subscription; nothing is delivered before.
            @usableFromInline var ready = false

            @inlinable
            init(parent: Future) {
                self.parent = parent
            }

            /// Claims the subscriber when the result can go out now, and returns the result. The
            /// future stays `parent` until the delivery is over (``Conduit/handOver(_:)``), so that
            /// the mirror shows it meanwhile, as Apple's does.
            @inlinable
            mutating func takeIfDeliverable() -> Result<Output, Failure>? {
                guard ready, live, let result else { return nil }
                if case .success = result, !hasDemand { return nil }
                live = false
                return result
            }
        }

        @usableFromInline
        let state: LockedState<State>

        /// Reaches ``requestNow(_:)`` in code specialised by the subclass's `init`, as
        /// `OneValueSubscription.requestHook` does, and for the same reason: a subscriber's
        /// `request(_:)` arrives through the `Subscription` existential, whose witness is the
        /// generic code (`switchToLatest` over `Future`s looked up type metadata for every one).
        @usableFromInline
        let requestHook: (Conduit, Subscribers.Demand) -> Void

        /// Hands the result to the subscriber the caller has claimed, or, given `nil` (a cancel),
        /// lets go of it.
        @usableFromInline
        let deliverHook: (Conduit, Result<Output, Failure>?) -> Void

        @inlinable
        init(
            parent: Future,
            requestHook: @escaping (Conduit, Subscribers.Demand) -> Void,
            deliverHook: @escaping (Conduit, Result<Output, Failure>?) -> Void
        ) {
            state = LockedState(State(parent: parent))
            self.requestHook = requestHook
            self.deliverHook = deliverHook
        }

        @inlinable
        final func subscriptionDelivered(_ known: Result<Output, Failure>?) {
            let result = state.withLock { state -> Result<Output, Failure>? in
                state.ready = true
                if let known, state.result == nil { state.result = known }
                return state.takeIfDeliverable()
            }
            if let result { handOver(result) }
        }

        @inlinable
        final func fulfill(_ result: Result<Output, Failure>) {
            let deliverable = state.withLock { state -> Result<Output, Failure>? in
                guard state.live else { return nil }
                state.result = result
                return state.takeIfDeliverable()
            }
            if let deliverable { handOver(deliverable) }
        }

        @inlinable
        final func request(_ demand: Subscribers.Demand) {
            requestHook(self, demand)
        }

        @inlinable
        final func requestNow(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Future subscription request(_:)")
            let result = state.withLock { state -> Result<Output, Failure>? in
                state.hasDemand = true
                return state.takeIfDeliverable()
            }
            if let result { handOver(result) }
        }

        /// Hands `result` to the subscriber this call claimed, then lets go of the future. (Apple
        /// keeps the future after a delivery that a request set off: a leak, not copied.)
        @inlinable
        final func handOver(_ result: Result<Output, Failure>) {
            deliverHook(self, result)
            let parent = state.withLock { $0.parent.take() }
            withExtendedLifetime(parent) {}
        }

        @inlinable
        final func cancel() {
            let (claimed, parent) = state.withLock { state in
                defer {
                    state.live = false
                    state.parent = nil
                }
                return (state.live, state.parent)
            }
            if claimed { deliverHook(self, nil) }
            parent?.remove(self)
        }

        /// The subscriber, for the mirror; read under the lock while it is still held.
        @usableFromInline
        var heldSubscriber: Any? { nil }

        @usableFromInline
        final var description: String { "Future" }

        /// Apple's shape: `parent` and `downstream` are `nil` once the result has gone out or the
        /// subscription was cancelled; while the result is being delivered, `parent` is still
        /// the future and `downstream` is already `nil`.
        @usableFromInline
        final var mirrorChildren: KeyValuePairs<String, Any> {
            let (parent, downstream, hasDemand) = state.withLock {
                ($0.parent, $0.live ? heldSubscriber : nil, $0.hasDemand)
            }
            return ["parent": parent as Any, "downstream": downstream as Any, "hasAnyDemand": hasDemand,
                    "subject": parent as Any]
        }
    }

    /// A ``Conduit`` holding a subscriber of type `Downstream`. `Slot` is always `Downstream?`,
    /// a type parameter for the reason `OneValueSubscription` gives: the unspecialised deinit
    /// would otherwise look up the metadata of `Optional<Downstream>`.
    @usableFromInline
    final class SubscriberConduit<Downstream: Subscriber, Slot>: Conduit
    where Downstream.Input == Output, Downstream.Failure == Failure {
        /// Touched only by whoever claimed the subscriber (``Conduit/State/live``), and by the
        /// mirror under the lock before that; hence `@exclusivity(unchecked)`.
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: Slot

        @inlinable
        init(parent: Future, downstream: Downstream) where Slot == Downstream? {
            self.downstream = downstream
            super.init(
                parent: parent,
                requestHook: { conduit, demand in conduit.requestNow(demand) },
                deliverHook: { conduit, result in unsafeDowncast(conduit, to: SubscriberConduit.self).deliver(result) }
            )
        }

        @inlinable
        func deliver(_ result: Result<Output, Failure>?) where Slot == Downstream? {
            guard let downstream = downstream.take() else { return }
            switch result {
            case .success(let value)?:
                _ = downstream.receive(value)
                downstream.receive(completion: .finished)
            case .failure(let error)?:
                downstream.receive(completion: .failure(error))
            case nil:
                break
            }
        }

        /// The subscriber itself, not wrapped in `Slot`'s optional, so that the mirror shows one
        /// `Optional` around it, as Apple's does.
        @usableFromInline
        override var heldSubscriber: Any? { (downstream as Any) as? Downstream }
    }
}

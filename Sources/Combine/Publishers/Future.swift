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
        let conduit = Conduit(parent: self) { result in
            switch result {
            case .success(let value):
                _ = subscriber.receive(value)
                subscriber.receive(completion: .finished)
            case .failure(let error):
                subscriber.receive(completion: .failure(error))
            }
        }
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
    /// One subscriber's subscription. The subscriber is reached through a closure built in
    /// `receive(subscriber:)`; whoever takes that closure out under the lock delivers the result.
    @usableFromInline
    final class Conduit: Subscription, ReflectsAsOperator {
        @usableFromInline
        typealias Deliver = (Result<Output, Failure>) -> Void

        @usableFromInline
        struct State {
            @usableFromInline var deliver: Deliver?
            @usableFromInline var parent: Future?
            @usableFromInline var result: Result<Output, Failure>?
            @usableFromInline var hasDemand = false
            /// False until the subscriber has its subscription; nothing is delivered before.
            @usableFromInline var ready = false

            @inlinable
            init(deliver: @escaping Deliver, parent: Future) {
                self.deliver = deliver
                self.parent = parent
            }

            /// Takes the delivery closure when the result can go out now.
            @inlinable
            mutating func takeIfDeliverable() -> (Deliver, Result<Output, Failure>)? {
                guard ready, let result, let deliver else { return nil }
                if case .success = result, !hasDemand { return nil }
                self.deliver = nil
                parent = nil
                return (deliver, result)
            }
        }

        @usableFromInline
        let state: LockedState<State>

        /// Reaches ``requestNow(_:)`` in code specialised by `init`, as
        /// `OneValueSubscription.requestHook` does, and for the same reason: a subscriber's
        /// `request(_:)` arrives through the `Subscription` existential, whose witness is the
        /// generic code (`switchToLatest` over `Future`s looked up type metadata for every one).
        @usableFromInline
        let requestHook: (Conduit, Subscribers.Demand) -> Void

        @inlinable
        init(parent: Future, deliver: @escaping Deliver) {
            state = LockedState(State(deliver: deliver, parent: parent))
            requestHook = { conduit, demand in conduit.requestNow(demand) }
        }

        @inlinable
        func subscriptionDelivered(_ known: Result<Output, Failure>?) {
            let action = state.withLock { state -> (Deliver, Result<Output, Failure>)? in
                state.ready = true
                if let known, state.result == nil { state.result = known }
                return state.takeIfDeliverable()
            }
            if let (deliver, result) = action { deliver(result) }
        }

        @inlinable
        func fulfill(_ result: Result<Output, Failure>) {
            let action = state.withLock { state -> (Deliver, Result<Output, Failure>)? in
                guard state.deliver != nil else { return nil }
                state.result = result
                return state.takeIfDeliverable()
            }
            if let (deliver, result) = action { deliver(result) }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            requestHook(self, demand)
        }

        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Future subscription request(_:)")
            let action = state.withLock { state -> (Deliver, Result<Output, Failure>)? in
                state.hasDemand = true
                return state.takeIfDeliverable()
            }
            if let (deliver, result) = action { deliver(result) }
        }

        @inlinable
        func cancel() {
            let released = state.withLock { state in
                defer {
                    state.deliver = nil
                    state.parent = nil
                }
                return (state.deliver, state.parent)
            }
            released.1?.remove(self)
        }

        @usableFromInline
        var description: String { "Future" }

        /// Apple's shape: `parent` and `downstream` (the delivery, here) are `nil` once the
        /// result has gone out or the subscription was cancelled.
        @usableFromInline
        var mirrorChildren: KeyValuePairs<String, Any> {
            let (parent, deliver, hasDemand) = state.withLock { ($0.parent, $0.deliver, $0.hasDemand) }
            return ["parent": parent as Any, "downstream": deliver as Any, "hasAnyDemand": hasDemand,
                    "subject": parent as Any]
        }
    }
}

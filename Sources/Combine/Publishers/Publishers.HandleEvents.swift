import Synchronization
import TributaryLocks

extension Publishers {
    /// A publisher that runs side-effect closures when events pass through it, without changing
    /// the events.
    ///
    /// The closures run in the order the events happen: `receiveSubscription` first, then
    /// `receiveRequest` whenever the subscriber asks for more, `receiveOutput` per value, and
    /// finally `receiveCompletion` or `receiveCancel`. Typical uses: an activity indicator,
    /// logging, counting attempts before a `retry`.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's values, each shown to `receiveOutput` before the subscriber gets it.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream

        /// Runs when the upstream hands over its subscription, before the subscriber sees it.
        public var receiveSubscription: ((any Subscription) -> Void)?

        /// Runs for each value, before the subscriber receives it.
        public var receiveOutput: ((Upstream.Output) -> Void)?

        /// Runs when the upstream completes, before the subscriber is told.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        /// Runs when the subscriber cancels, before the cancellation goes upstream.
        public var receiveCancel: (() -> Void)?

        /// Runs when the subscriber asks for more values, with the demand, before the request
        /// goes upstream; also for a non-zero demand the subscriber returns for a value.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Makes a publisher that runs the given closures as events pass; `nil` ones are skipped.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Publishers.HandleEvents<Upstream>.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Publishers.HandleEvents<Upstream>.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber` through a stage that calls the closures.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, handlers: self))
        }
    }
}

extension Publisher {
    /// Runs the given closures when events pass this point of the pipeline, leaving the events
    /// unchanged.
    ///
    /// ```swift
    /// dataPublisher
    ///     .handleEvents(receiveSubscription: { _ in print("Network request will start") },
    ///                   receiveCancel: { print("Network request cancelled") })
    /// ```
    ///
    /// All closures are optional. Their order: `receiveSubscription`, then `receiveRequest` (each
    /// request), `receiveOutput` (each value), then `receiveCompletion` or `receiveCancel`.
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Self.Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Self.Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest)
    }
}

extension Publishers.HandleEvents {
    /// The observing stage; wraps the upstream subscription so requests and cancellation can be
    /// seen, and shows itself to the subscriber as `HandleEvents`.
    ///
    /// As Apple's, it has no terminal state for the events it forwards: values and completions
    /// are passed on whatever came before. A cancel silences every closure from then on.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline
        struct State {
            @usableFromInline var status = SubscriptionStatus.awaitingSubscription

            @inlinable init() {}
        }

        @usableFromInline let downstream: Downstream
        @usableFromInline let receiveSubscription: ((any Subscription) -> Void)?
        /// The value closure, or one that does nothing when there is none. Kept non-optional:
        /// calling a closure stored in a `let` of the stage needs no reference counting, while
        /// unwrapping an optional one retains and releases its context around every call.
        @usableFromInline let receiveOutput: (Upstream.Output) -> Void
        @usableFromInline let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        @usableFromInline let receiveCancel: (() -> Void)?
        @usableFromInline let receiveRequest: ((Subscribers.Demand) -> Void)?
        @usableFromInline let state = LockedState(State())
        /// Set by a cancel made while subscribed, or a completion: no closure runs after it. An
        /// atomic flag, so that the per-value path takes no lock.
        @usableFromInline let silenced = Atomic<Bool>(false)
        /// ``request(_:)``, compiled for the concrete types: the subscriber reaches `request(_:)`
        /// through the `Subscription` existential, whose witness runs the generic stage, looking
        /// up type metadata as it goes. A subscriber that asks one value at a time (`values`
        /// behind a `buffer`) pays that on every value.
        @usableFromInline let requestHook: (Inner, Subscribers.Demand) -> Void

        @inlinable
        init(downstream: Downstream, handlers: Publishers.HandleEvents<Upstream>) {
            self.downstream = downstream
            receiveSubscription = handlers.receiveSubscription
            // Unwrapped with `if let`, not `??`: the generic `??` would wrap the closure in a
            // pair of reabstraction thunks, paid on every value.
            if let receiveOutput = handlers.receiveOutput {
                self.receiveOutput = receiveOutput
            } else {
                self.receiveOutput = { _ in }
            }
            receiveCompletion = handlers.receiveCompletion
            receiveCancel = handlers.receiveCancel
            receiveRequest = handlers.receiveRequest
            requestHook = { inner, demand in inner.requestNow(demand) }
        }

        @inlinable
        var isCancelled: Bool { silenced.load(ordering: .acquiring) }

        @inlinable
        func receive(subscription: any Subscription) {
            // The closure sees every subscription, duplicates included, as Apple's does.
            if !isCancelled { receiveSubscription?(subscription) }
            guard state.withLock({ $0.status.accept(subscription) }) else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if !isCancelled { receiveOutput(input) }
            let more = downstream.receive(input)
            if let receiveRequest, more != .none, !isCancelled { receiveRequest(more) }
            return more
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if !isCancelled { receiveCompletion?(completion) }
            // The upstream subscription is let go of before the subscriber hears; a subscription
            // arriving later is refused.
            silenced.store(true, ordering: .releasing)
            state.withLock { $0.status = .terminal }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            requestHook(self, demand)
        }

        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream. A request made
            // before the upstream's subscription arrived is reported, not forwarded, and is no
            // misuse here (spec §10.1).
            guard !isCancelled else { return }
            let upstream = state.withLock { $0.status.subscription }
            receiveRequest?(demand)
            upstream?.request(demand)
        }

        @usableFromInline
        func cancel() {
            let upstream: (any Subscription)?? = state.withLock { state in
                if silenced.load(ordering: .relaxed) { return nil }
                guard case .subscribed(let subscription) = state.status else { return .some(nil) }
                silenced.store(true, ordering: .releasing)
                state.status = .terminal
                return .some(subscription)
            }
            guard let upstream else { return }
            receiveCancel?()
            upstream?.cancel()
        }

        /// Shown as `HandleEvents`, with no mirror children, as Apple's.
        @usableFromInline var description: String { "HandleEvents" }
    }
}

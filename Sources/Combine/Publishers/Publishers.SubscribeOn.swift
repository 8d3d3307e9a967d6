import TributaryLocks

extension Publishers {
    /// A publisher that performs the work of subscribing to its upstream — `receive(subscriber:)`,
    /// and later every `request` and `cancel` — on a given scheduler.
    ///
    /// Values are not moved: a publisher that produces values on its own thread or run loop (a
    /// timer, a network task) keeps doing so. Use `receive(on:)` to choose where values arrive.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values, on whatever thread the upstream sends them; only subscribing,
        /// requests and cancellation move to the scheduler.
        public typealias Output = Upstream.Output
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to on `scheduler`.
        public let upstream: Upstream
        /// Where subscription, requests and cancellation run.
        public let scheduler: Context
        /// Options passed to `scheduler` for each of those actions.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that subscribes to `upstream` on `scheduler`.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) {
                upstream.subscribe(inner)
            }
        }
    }
}

extension Publisher {
    /// Subscribes to this publisher, and sends it every later `request` and `cancel`, on
    /// `scheduler`: useful to start expensive synchronous work (a `Just` of a computed value, a
    /// `Deferred`) off the calling thread.
    @inlinable
    public func subscribe<S: Scheduler>(
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers.SubscribeOn {
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline
        struct State: HoldsUpstreamAndSubscriber {
            @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
            /// Released on cancel and completion.
            @usableFromInline var downstream: Downstream?

            @inlinable
            init(downstream: Downstream) {
                self.downstream = downstream
            }

            @inlinable
            mutating func terminate() -> (any Subscription)? {
                downstream = nil
                return upstream.terminate()
            }
        }

        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?
        @usableFromInline let state: LockedState<State>

        @inlinable
        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            state = LockedState(State(downstream: downstream))
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.subscribed(subscription) }) else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            guard let downstream = state.withLock({ $0.upstream.isSubscribed ? $0.downstream : nil }) else {
                return .none
            }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            // Apple lets go of the upstream before delivering the completion.
            let downstream = state.withLock { state -> Downstream? in
                guard state.upstream.isSubscribed else { return nil }
                defer { state.downstream = nil }
                return state.downstream
            }
            guard let downstream else { return }
            _ = state.withLock { $0.upstream.terminate() }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
            guard let upstream = state.withLock({ $0.upstream.subscription }) else { return }
            // The action keeps the operator, and so its subscriber, alive until it runs, as
            // Apple's does.
            scheduler.schedule(options: options) { [self] in
                withExtendedLifetime(self) {}
                upstream.request(demand)
            }
        }

        @inlinable
        func cancel() {
            // Before the subscription a cancel does nothing (Apple takes a late subscription as
            // if there had been no cancel).
            guard let upstream = state.withLock({ $0.upstream.isSubscribed ? $0.terminate() : nil })
            else { return }
            scheduler.schedule(options: options) {
                upstream.cancel()
            }
        }

        @usableFromInline var description: String { "SubscribeOn" }
    }
}

// Sendable when everything it stores is.
extension Publishers.SubscribeOn: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerOptions: Sendable {}

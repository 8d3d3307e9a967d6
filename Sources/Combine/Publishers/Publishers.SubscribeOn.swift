extension Publishers {
    /// A publisher that performs the work of subscribing to its upstream — `receive(subscriber:)`,
    /// and later every `request` and `cancel` — on a given scheduler.
    ///
    /// Values are not moved: a publisher that produces values on its own thread or run loop (a
    /// timer, a network task) keeps doing so. Use `receive(on:)` to choose where values arrive.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to on `scheduler`.
        public let upstream: Upstream
        /// Where subscription, requests and cancellation run.
        public let scheduler: Context
        /// Options passed to `scheduler` for each of those actions.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that subscribes to `upstream` on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

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
    public func subscribe<S: Scheduler>(
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers.SubscribeOn {
    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        let scheduler: Context
        let options: Context.SchedulerOptions?
        let state = LockedState(SubscriptionStatus.awaitingSubscription)

        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.options = options
        }

        func receive(subscription: any Subscription) {
            let accepted = state.withLock { status -> Bool in
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                return true
            }
            guard accepted else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard state.withLock({ $0.subscription != nil }) else { return .none }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.terminate() }) != nil else { return }
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:) on subscribe(on:)")
            guard let upstream = state.withLock({ $0.subscription }) else { return }
            scheduler.schedule(options: options) {
                upstream.request(demand)
            }
        }

        func cancel() {
            guard let upstream = state.withLock({ $0.terminate() }) else { return }
            scheduler.schedule(options: options) {
                upstream.cancel()
            }
        }

        var description: String { "SubscribeOn" }
        var customMirror: Mirror { Mirror(self, children: [:]) }
        var playgroundDescription: Any { description }
    }
}

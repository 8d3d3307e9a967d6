import TributaryLocks

extension Publishers {
    /// A publisher that ends the stream when its upstream stays silent for longer than `interval`.
    ///
    /// The clock starts at subscription and restarts with every value. When it runs out the
    /// upstream is cancelled and the subscriber receives `.failure(customError())`, or — when no
    /// `customError` was given — a normal `.finished`: a timeout is not an error unless you make it
    /// one. Values and completion are delivered on `scheduler`.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values, published on the scheduler while the upstream keeps within `interval`.
        public typealias Output = Upstream.Output
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher being watched.
        public let upstream: Upstream
        /// The longest allowed silence.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where time is measured and events are delivered.
        public let scheduler: Context
        /// Options passed to `scheduler`.
        public let options: Context.SchedulerOptions?
        /// Makes the error to fail with on timeout; `nil` finishes normally instead.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that times out after `interval` of silence.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Ends the stream if no value arrives for `interval` (counted from the subscription, then from
    /// each value). It finishes normally, or fails with `customError()` when one is given.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Self.Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers.Timeout {
    /// Timeout's bookkeeping, free of side effects.
    struct Machine<Downstream> {
        var upstream: SubscriptionStatus = .awaitingSubscription
        /// Released when the stream ends, so nothing outlives the subscription.
        var downstream: Downstream?
        /// Which timer is current; older timers that fire are ignored.
        var generation: UInt64 = 0
        /// Nothing more goes downstream (timed out, completed or cancelled).
        var done = false
        /// The upstream completed; its completion is on its way through the scheduler.
        var upstreamCompleted = false

        mutating func subscribed(_ subscription: any Subscription) -> (Downstream, UInt64)? {
            guard case .awaitingSubscription = upstream, !done, let downstream else { return nil }
            upstream = .subscribed(subscription)
            generation &+= 1
            return (downstream, generation)
        }

        mutating func received() -> UInt64? {
            guard upstream.subscription != nil, !done else { return nil }
            generation &+= 1
            return generation
        }

        /// When the timer of `fired` runs out: if this is a timeout, the subscriber to notify and
        /// the subscription to cancel.
        mutating func timerEnded(_ fired: UInt64) -> (Downstream, (any Subscription)?)? {
            guard fired == generation, !done, !upstreamCompleted, let downstream else { return nil }
            done = true
            self.downstream = nil
            return (downstream, upstream.terminate())
        }

        mutating func completed() -> Bool {
            guard upstream.subscription != nil, !done else { return false }
            upstreamCompleted = true
            upstream = .terminal
            return true
        }

        mutating func deliverCompletion() -> Downstream? {
            guard !done else { return nil }
            done = true
            defer { downstream = nil }
            return downstream
        }

        mutating func cancelled() -> (any Subscription)? {
            done = true
            downstream = nil
            return upstream.terminate()
        }
    }

    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let interval: Context.SchedulerTimeType.Stride
        let scheduler: Context
        let options: Context.SchedulerOptions?
        let customError: (() -> Failure)?
        let state: LockedState<Machine<Downstream>>

        init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
            state = LockedState(Machine(downstream: downstream))
            interval = publisher.interval
            scheduler = publisher.scheduler
            options = publisher.options
            customError = publisher.customError
        }

        private func startTimer(_ generation: UInt64) {
            scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                tolerance: scheduler.minimumTolerance,
                options: options
            ) { [self] in
                guard let (downstream, upstream) = state.withLock({ $0.timerEnded(generation) }) else { return }
                upstream?.cancel()
                if let customError {
                    downstream.receive(completion: .failure(customError()))
                } else {
                    downstream.receive(completion: .finished)
                }
            }
        }

        func receive(subscription: any Subscription) {
            guard let (downstream, generation) = state.withLock({ $0.subscribed(subscription) }) else {
                subscription.cancel()
                return
            }
            startTimer(generation)
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard let generation = state.withLock({ $0.received() }) else { return .none }
            scheduler.schedule(options: options) { [self] in
                guard let downstream = state.withLock({ $0.done ? nil : $0.downstream }) else { return }
                let more = downstream.receive(input)
                guard more > .none else { return }
                state.withLock { $0.upstream.subscription }?.request(more)
            }
            startTimer(generation)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.completed() }) else { return }
            scheduler.schedule(options: options) { [self] in
                state.withLock { $0.deliverCompletion() }?.receive(completion: completion)
            }
        }

        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
            state.withLock { $0.upstream.subscription }?.request(demand)
        }

        func cancel() {
            state.withLock { $0.cancelled() }?.cancel()
        }

        var description: String { "Timeout" }
    }
}

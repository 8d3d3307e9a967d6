import TributaryLocks

extension Publishers {
    /// A publisher that waits for a pause: it publishes a value only once `dueTime` has passed
    /// without a newer value.
    ///
    /// Every value restarts the quiet window; only the last value of a burst survives. Values and
    /// completion are delivered on `scheduler`. Behaviour matching Apple's:
    /// - The upstream is asked for unlimited values; a value whose window ends while the subscriber
    ///   has no outstanding demand is dropped.
    /// - When the upstream completes, the completion is delivered on the scheduler right away and a
    ///   value still waiting out its quiet window is discarded.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's value type; of each burst only the last value is published, once the
        /// upstream has been quiet for `dueTime`.
        public typealias Output = Upstream.Output
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher being debounced.
        public let upstream: Upstream
        /// How long the upstream must stay quiet before the latest value is published.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// Where the quiet window is timed and events are delivered.
        public let scheduler: Context
        /// Options passed to `scheduler`.
        public let options: Context.SchedulerOptions?

        /// Creates a debouncing publisher.
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Publishes a value only after `dueTime` has passed with no newer value — the classic
    /// search-field filter: `$query.debounce(for: .milliseconds(300), scheduler: RunLoop.main)`.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers.Debounce {
    /// Debounce's bookkeeping, free of side effects: each event returns what to do once the lock
    /// is released.
    struct Machine<Downstream> {
        var upstream: SubscriptionStatus = .awaitingSubscription
        /// Released when the stream ends, so nothing outlives the subscription.
        var downstream: Downstream?
        var demand: Subscribers.Demand = .none
        /// The latest value and the generation it belongs to; a timer only fires its own generation.
        var pending: Output?
        var generation: UInt64 = 0
        /// No more events go downstream (completed or cancelled).
        var finished = false

        enum ValueAction {
            case ignore
            case startTimer(generation: UInt64)
        }

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        mutating func subscribed(_ subscription: any Subscription) -> Downstream? {
            guard case .awaitingSubscription = upstream, !finished else { return nil }
            upstream = .subscribed(subscription)
            return downstream
        }

        mutating func received(_ value: Output) -> ValueAction {
            guard upstream.subscription != nil, !finished else { return .ignore }
            generation &+= 1
            pending = value
            return .startTimer(generation: generation)
        }

        /// The value to send when the timer of `fired` ends, if it is still current and wanted.
        mutating func timerEnded(_ fired: UInt64) -> (Downstream, Output)? {
            guard fired == generation, !finished, let value = pending, let downstream else { return nil }
            pending = nil
            guard demand > .none else { return nil }
            demand -= 1
            return (downstream, value)
        }

        /// Upstream completed: drop the waiting value; the caller schedules the completion.
        mutating func upstreamCompleted() -> Bool {
            guard upstream.subscription != nil, !finished else { return false }
            upstream = .terminal
            pending = nil
            generation &+= 1
            return true
        }

        /// Whether the completion may still be delivered (not cancelled meanwhile).
        mutating func deliverCompletion() -> Downstream? {
            guard !finished else { return nil }
            finished = true
            defer { downstream = nil }
            return downstream
        }

        mutating func cancelled() -> (any Subscription)? {
            finished = true
            pending = nil
            downstream = nil
            return upstream.terminate()
        }
    }

    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let dueTime: Context.SchedulerTimeType.Stride
        let scheduler: Context
        let options: Context.SchedulerOptions?
        let state: LockedState<Machine<Downstream>>

        init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
            state = LockedState(Machine(downstream: downstream))
            dueTime = publisher.dueTime
            scheduler = publisher.scheduler
            options = publisher.options
        }

        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.subscribed(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard case .startTimer(let generation) = state.withLock({ $0.received(input) }) else { return .none }
            scheduler.schedule(
                after: scheduler.now.advanced(by: dueTime),
                tolerance: scheduler.minimumTolerance,
                options: options
            ) { [self] in
                guard let (downstream, value) = state.withLock({ $0.timerEnded(generation) }) else { return }
                let more = downstream.receive(value)
                if more > .none { state.withLock { $0.demand += more } }
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.upstreamCompleted() }) else { return }
            scheduler.schedule(options: options) { [self] in
                state.withLock { $0.deliverCompletion() }?.receive(completion: completion)
            }
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:) on debounce")
            state.withLock { $0.demand += demand }
        }

        func cancel() {
            state.withLock { $0.cancelled() }?.cancel()
        }

        var description: String { "Debounce" }
    }
}

// Sendable when everything it stores is.
extension Publishers.Debounce: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerOptions: Sendable, Context.SchedulerTimeType.Stride: Sendable {}

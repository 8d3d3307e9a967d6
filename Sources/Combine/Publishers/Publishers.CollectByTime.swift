import TributaryLocks

extension Publishers {
    /// How `collect(_:options:)` decides when to publish the values it has gathered.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Publish whatever arrived during each `Stride` of the scheduler's time.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Publish every `Stride`, or as soon as `Int` values have arrived, whichever comes first.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that groups its upstream's values into arrays by time (and optionally count).
    ///
    /// A timer repeats every interval from the subscription on; at each tick the values gathered
    /// since the previous group are published as one array (empty intervals publish nothing). With
    /// `.byTimeOrCount` a full group is published at once and the timer starts over. On `.finished`
    /// the partial group is published before the completion; on failure it is discarded. Groups and
    /// completion are delivered on the strategy's scheduler; a group due while the subscriber has no
    /// demand waits (and keeps growing) until demand arrives.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Each group of values, in arrival order.
        public typealias Output = [Upstream.Output]
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are grouped.
        public let upstream: Upstream
        /// When groups are published.
        public let strategy: TimeGroupingStrategy<Context>
        /// Options passed to the scheduler.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher grouping `upstream`'s values by `strategy`.
        @inlinable
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Groups values into arrays by time, or by time or count: `collect(.byTime(queue, 1.0))`
    /// publishes what arrived in each second; `collect(.byTimeOrCount(queue, 1.0, 5))` also
    /// publishes as soon as 5 values are in.
    @inlinable
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers.CollectByTime {
    /// CollectByTime's bookkeeping, free of side effects.
    @usableFromInline
    struct Machine<Downstream>: HoldsUpstreamAndSubscriber {
        @usableFromInline let maxCount: Int?
        /// Released when the stream ends, so nothing outlives the subscription.
        @usableFromInline var downstream: Downstream?
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        @usableFromInline var demand: Subscribers.Demand = .none
        @usableFromInline var buffer: [Upstream.Output] = []
        /// Counts timers so a restarted timer silences the old one's ticks.
        @usableFromInline var timerGeneration: UInt64 = 0
        @usableFromInline var timer: (any Cancellable)?
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var done = false

        @inlinable
        init(maxCount: Int?, downstream: Downstream) {
            self.maxCount = maxCount
            self.downstream = downstream
        }

        @usableFromInline
        enum ValueAction {
            case none
            /// The group is full: publish it through the scheduler and restart the timer.
            case flushAndRestart(UInt64, (any Cancellable)?)
        }

        @inlinable
        mutating func received(_ value: Upstream.Output) -> ValueAction {
            guard upstream.isSubscribed, !done else { return .none }
            buffer.append(value)
            guard let maxCount, buffer.count >= maxCount else { return .none }
            timerGeneration &+= 1
            let old = timer
            timer = nil
            return .flushAndRestart(timerGeneration, old)
        }

        /// The group to publish now, if there is one and the subscriber wants it.
        @inlinable
        mutating func takeGroup() -> (Downstream, [Upstream.Output])? {
            guard !done, !buffer.isEmpty, demand > .none, let downstream else { return nil }
            demand -= 1
            defer { buffer = [] }
            return (downstream, buffer)
        }

        /// After the upstream completed: the last group (if wanted) and the completion.
        @inlinable
        mutating func takeFinal() -> (
            Downstream, [Upstream.Output]?, Subscribers.Completion<Failure>, (any Cancellable)?
        )? {
            guard !done, let completion, let downstream else { return nil }
            done = true
            self.downstream = nil
            var group: [Upstream.Output]?
            if case .finished = completion, !buffer.isEmpty, demand > .none { group = buffer }
            buffer = []
            defer { timer = nil }
            return (downstream, group, completion, timer)
        }

        @inlinable
        mutating func cancelled() -> ((any Subscription)?, (any Cancellable)?) {
            done = true
            buffer = []
            downstream = nil
            defer { timer = nil }
            return (upstream.terminate(), timer)
        }
    }

    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let scheduler: Context
        @usableFromInline let interval: Context.SchedulerTimeType.Stride
        @usableFromInline let maxCount: Int?
        @usableFromInline let options: Context.SchedulerOptions?
        @usableFromInline let state: LockedState<Machine<Downstream>>

        @inlinable
        init(downstream: Downstream, publisher: Publishers.CollectByTime<Upstream, Context>) {
            switch publisher.strategy {
            case .byTime(let scheduler, let interval):
                self.scheduler = scheduler
                self.interval = interval
                maxCount = nil
            case .byTimeOrCount(let scheduler, let interval, let count):
                self.scheduler = scheduler
                self.interval = interval
                maxCount = Swift.max(1, count)
            }
            options = publisher.options
            state = LockedState(Machine(maxCount: maxCount, downstream: downstream))
        }

        @inlinable
        func startTimer(generation: UInt64) {
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                interval: interval,
                tolerance: scheduler.minimumTolerance,
                options: options
            ) { [weak self] in
                self?.tick(generation)
            }
            let stale = state.withLock { state -> Bool in
                guard !state.done, state.timerGeneration == generation else { return true }
                state.timer = timer
                return false
            }
            if stale { timer.cancel() }
        }

        @inlinable
        func tick(_ generation: UInt64) {
            let group = state.withLock { state -> (Downstream, [Upstream.Output])? in
                guard state.timerGeneration == generation else { return nil }
                return state.takeGroup()
            }
            if let (downstream, group) = group { send(group, to: downstream) }
        }

        @inlinable
        func send(_ group: [Upstream.Output], to downstream: Downstream) {
            let more = downstream.receive(group)
            guard more > .none else { return }
            request(more)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.subscribed(subscription) }) else { return subscription.cancel() }
            downstream.receive(subscription: self)
            startTimer(generation: 0)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            guard case .flushAndRestart(let generation, let old) = state.withLock({ $0.received(input) }) else {
                return .none
            }
            old?.cancel()
            scheduler.schedule(options: options) { [self] in
                if let (downstream, group) = state.withLock({ $0.takeGroup() }) { send(group, to: downstream) }
            }
            startTimer(generation: generation)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            let live = state.withLock { state -> Bool in
                guard state.upstream.isSubscribed, !state.done else { return false }
                state.upstream = .terminal
                state.completion = completion
                return true
            }
            guard live else { return }
            scheduler.schedule(options: options) { [self] in
                guard let (downstream, group, completion, timer) = state.withLock({ $0.takeFinal() }) else { return }
                timer?.cancel()
                if let group { _ = downstream.receive(group) }
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:) on collect(_:options:)")
            let upstream = state.withLock { state -> (any Subscription)? in
                state.demand += demand
                return state.upstream.subscription
            }
            guard let upstream else { return }
            if let maxCount {
                // Enough values to fill every group the subscriber asked for.
                upstream.request(demand == .unlimited ? .unlimited : demand * maxCount)
            } else {
                upstream.request(.unlimited)
            }
        }

        @inlinable
        func cancel() {
            let (upstream, timer) = state.withLock { $0.cancelled() }
            timer?.cancel()
            upstream?.cancel()
        }

        @usableFromInline var description: String { "CollectByTime" }
    }
}

// Sendable when everything it stores is.
extension Publishers.TimeGroupingStrategy: Sendable where Context: Sendable, Context.SchedulerTimeType.Stride: Sendable {}
extension Publishers.CollectByTime: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerOptions: Sendable, Context.SchedulerTimeType.Stride: Sendable {}

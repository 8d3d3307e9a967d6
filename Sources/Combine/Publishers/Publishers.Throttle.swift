import TributaryLocks

extension Publishers {
    /// A publisher that lets at most one value through per `interval`: the first or the latest one
    /// received during the interval.
    ///
    /// Unlike `debounce`, it does not wait for a pause: while values keep coming it still publishes
    /// one every `interval`. The timing follows Apple's current behaviour (since iOS 14; iOS 13.2
    /// and 13.3 behaved differently, see the notes of *Using Combine*):
    /// - A value that arrives when nothing was published during the last `interval` (in particular
    ///   the very first value) is published at once, on `scheduler`.
    /// - Values arriving sooner are held until `interval` after the previous publication; then the
    ///   latest of them (`latest: true`) or the first of them (`latest: false`) is published.
    /// - A window with no values publishes nothing; the next value is published at once again.
    ///
    /// Values and completion are delivered on `scheduler`. The upstream is asked for unlimited
    /// values; a value due while the subscriber has no demand is dropped. When the upstream
    /// finishes, a held value is published before the completion; a failure discards it.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's value type; at most one value per `interval` is published.
        public typealias Output = Upstream.Output
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher being throttled.
        public let upstream: Upstream
        /// The minimum time between two published values.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where time is measured and events are delivered.
        public let scheduler: Context
        /// Whether the latest (`true`) or the first (`false`) value of an interval is published.
        public let latest: Bool

        /// Creates a throttling publisher.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Publishes at most one value per `interval` — the latest one (`latest: true`) or the first
    /// one (`latest: false`) received in that time — for example to limit requests made while
    /// someone types.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers.Throttle {
    /// Throttle's bookkeeping, free of side effects.
    struct Machine<Downstream> {
        let latest: Bool
        /// Released when the stream ends, so nothing outlives the subscription.
        var downstream: Downstream?
        let interval: Context.SchedulerTimeType.Stride
        var upstream: SubscriptionStatus = .awaitingSubscription
        var demand: Subscribers.Demand = .none
        /// The value waiting for its emission.
        var held: Output?
        /// When the last value was published; `nil` until the first one.
        var lastEmission: Context.SchedulerTimeType?
        /// An emission is already scheduled.
        var emissionScheduled = false
        /// The upstream finished; deliver `held`, then `.finished`, at the next emission.
        var completion: Subscribers.Completion<Failure>?
        /// Nothing more goes downstream.
        var done = false

        init(latest: Bool, interval: Context.SchedulerTimeType.Stride, downstream: Downstream) {
            self.downstream = downstream
            self.latest = latest
            self.interval = interval
        }

        enum Schedule {
            case nothing
            case now
            case at(Context.SchedulerTimeType)
        }

        mutating func subscribed(_ subscription: any Subscription) -> Downstream? {
            guard case .awaitingSubscription = upstream, !done else { return nil }
            upstream = .subscribed(subscription)
            return downstream
        }

        mutating func received(_ value: Output, now: Context.SchedulerTimeType) -> Schedule {
            guard upstream.subscription != nil, !done else { return .nothing }
            if latest || held == nil { held = value }
            guard !emissionScheduled else { return .nothing }
            emissionScheduled = true
            if let last = lastEmission, last.distance(to: now) < interval {
                return .at(last.advanced(by: interval))
            }
            return .now
        }

        /// At an emission: the value to publish (if any and wanted) and the completion to send after.
        mutating func emit(
            now: Context.SchedulerTimeType
        ) -> (Downstream, Output?, Subscribers.Completion<Failure>?)? {
            emissionScheduled = false
            guard !done, let downstream else { return nil }
            var value: Output?
            if let held {
                self.held = nil
                lastEmission = now
                if demand > .none {
                    demand -= 1
                    value = held
                }
            }
            if let completion {
                done = true
                self.downstream = nil
                return (downstream, value, completion)
            }
            return (downstream, value, nil)
        }

        mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Bool {
            guard upstream.subscription != nil, !done else { return false }
            upstream = .terminal
            if case .failure = completion { held = nil }
            self.completion = completion
            // The completion rides on an emission scheduled right away, after any pending one.
            emissionScheduled = true
            return true
        }

        mutating func cancelled() -> (any Subscription)? {
            done = true
            held = nil
            downstream = nil
            return upstream.terminate()
        }
    }

    fileprivate final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let scheduler: Context
        let state: LockedState<Machine<Downstream>>

        init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
            scheduler = publisher.scheduler
            state = LockedState(Machine(latest: publisher.latest, interval: publisher.interval, downstream: downstream))
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
            let now = scheduler.now
            switch state.withLock({ $0.received(input, now: now) }) {
            case .nothing:
                break
            case .now:
                scheduler.schedule { [self] in emit() }
            case .at(let date):
                scheduler.schedule(after: date) { [self] in emit() }
            }
            return .none
        }

        private func emit() {
            let now = scheduler.now
            guard let (downstream, value, completion) = state.withLock({ $0.emit(now: now) }) else { return }
            if let value {
                let more = downstream.receive(value)
                if more > .none { state.withLock { $0.demand += more } }
            }
            if let completion {
                downstream.receive(completion: completion)
            }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.upstreamCompleted(completion) }) else { return }
            scheduler.schedule { [self] in emit() }
        }

        func request(_ demand: Subscribers.Demand) {
            // Apple ignores request(.none) on this subscription: no trap, nothing forwarded.
            guard demand != .none else { return }
            state.withLock { $0.demand += demand }
        }

        func cancel() {
            state.withLock { $0.cancelled() }?.cancel()
        }

        var description: String { "Throttle" }
    }
}

// Sendable when everything it stores is.
extension Publishers.Throttle: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerTimeType.Stride: Sendable {}

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
    /// values; a value that arrives while the subscriber has no demand is dropped. When the
    /// upstream completes while a value is held, the held value is published first and the
    /// completion right after it, at the time already planned; this holds for a failure too.
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
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Publishes at most one value per `interval` — the latest one (`latest: true`) or the first
    /// one (`latest: false`) received in that time — for example to limit requests made while
    /// someone types.
    @inlinable
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
    ///
    /// The order of the scheduler calls is Apple's: `now` when the subscriber is made and again
    /// when the subscription arrives, `now` once per value and per completion, `now` again at
    /// each emission.
    @usableFromInline
    struct Machine<Downstream>: HoldsUpstreamAndSubscriber {
        @usableFromInline let latest: Bool
        /// Released when the stream ends, so nothing outlives the subscription.
        @usableFromInline var downstream: Downstream?
        @usableFromInline let interval: Context.SchedulerTimeType.Stride
        /// Kept until the completion has been delivered (or the subscriber cancels).
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        @usableFromInline var demand: Subscribers.Demand = .none
        /// The value waiting for the planned emission; its demand is already counted.
        @usableFromInline var held: Output?
        /// When the last value was published; `nil` until the first one.
        @usableFromInline var lastEmission: Context.SchedulerTimeType?
        /// An emission is planned on the scheduler.
        @usableFromInline var emissionScheduled = false
        /// The upstream completed: nothing more is taken from it.
        @usableFromInline var upstreamCompleted = false
        /// The completion waiting behind the planned emission.
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        /// The subscription has been handed downstream. Apple asks the upstream first; a value the
        /// upstream sends at once (a `@Published` property's current value) comes before the
        /// subscriber could ask for anything.
        @usableFromInline var subscriptionSent = false
        /// The held value came before the subscriber could ask for anything: its demand is
        /// counted at the emission instead (the value is dropped then if none has come).
        @usableFromInline var demandAtEmission = false

        @inlinable
        init(latest: Bool, interval: Context.SchedulerTimeType.Stride, downstream: Downstream) {
            self.downstream = downstream
            self.latest = latest
            self.interval = interval
        }

        @usableFromInline
        enum Schedule {
            case nothing
            case now
            case at(Context.SchedulerTimeType)
        }

        /// Whether a value or completion from the upstream is taken at all (Apple does not even
        /// read the clock otherwise).
        @inlinable
        var acceptsUpstreamEvents: Bool {
            upstream.isSubscribed && !upstreamCompleted
        }

        @inlinable
        mutating func received(_ value: Output, now: Context.SchedulerTimeType) -> Schedule {
            guard acceptsUpstreamEvents else { return .nothing }
            // A planned emission has its demand counted already: the latest value takes its place.
            if emissionScheduled {
                if latest { held = value }
                return .nothing
            }
            if !subscriptionSent {
                demandAtEmission = true
            } else {
                // Nothing wanted: the value is dropped, nothing is planned.
                guard demand > .none else { return .nothing }
                demand -= 1
            }
            held = value
            emissionScheduled = true
            if let last = lastEmission, last.distance(to: now) < interval {
                return .at(last.advanced(by: interval))
            }
            return .now
        }

        /// Whether a planned emission still has anything to do (after a cancel it reads nothing).
        @inlinable var live: Bool { downstream != nil }

        /// At an emission: the value to publish, and the completion to send after it, which ends
        /// the subscription. `now` is `nil` when the clock was not read (a completion waited
        /// behind the emission, so nothing is timed after it).
        @inlinable
        mutating func emit(
            now: Context.SchedulerTimeType?
        ) -> (Downstream, Output?, Subscribers.Completion<Failure>?)? {
            emissionScheduled = false
            guard let downstream else { return nil }
            var value = held
            held = nil
            if demandAtEmission {
                demandAtEmission = false
                if demand > .none { demand -= 1 } else { value = nil }
            }
            if value != nil, let now { lastEmission = now }
            guard let completion else { return (downstream, value, nil) }
            self.completion = nil
            self.downstream = nil
            return (downstream, value, completion)
        }

        /// The upstream completed. `true`: deliver it through the scheduler now; `false`: it waits
        /// behind the planned emission, or is ignored.
        @inlinable
        mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Bool {
            guard acceptsUpstreamEvents else { return false }
            upstreamCompleted = true
            if emissionScheduled {
                self.completion = completion
                return false
            }
            return true
        }

        /// Delivering a completion that did not wait for an emission.
        @inlinable
        mutating func finish() -> Downstream? {
            defer { downstream = nil }
            return downstream
        }

        /// A cancel is remembered even before the subscription arrives (Apple cancels a late one).
        @inlinable
        mutating func cancelled() -> (any Subscription)? {
            held = nil
            completion = nil
            downstream = nil
            return upstream.terminate()
        }
    }

    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let scheduler: Context
        @usableFromInline let state: LockedState<Machine<Downstream>>

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
            scheduler = publisher.scheduler
            state = LockedState(Machine(latest: publisher.latest, interval: publisher.interval, downstream: downstream))
            // Apple reads the clock when the subscriber is made (spec §20).
            _ = scheduler.now
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.subscribed(subscription) }) else { return subscription.cancel() }
            _ = scheduler.now
            // Apple asks the upstream first, then hands the subscription downstream (spec §7).
            subscription.request(.unlimited)
            state.withLock { $0.subscriptionSent = true }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            guard state.withLock({ $0.acceptsUpstreamEvents }) else { return .none }
            let now = scheduler.now
            switch state.withLock({ $0.received(input, now: now) }) {
            case .nothing:
                break
            case .now:
                scheduler.schedule { [weak self] in self?.emit() }
            case .at(let date):
                scheduler.schedule(after: date, tolerance: scheduler.minimumTolerance) { [weak self] in self?.emit() }
            }
            return .none
        }

        /// A planned emission: the held value, then a completion that waited behind it.
        @inlinable
        func emit() {
            // Apple reads the clock for an emission, except one that a completion waits behind:
            // nothing is timed after that.
            guard let readsClock = state.withLock({ $0.live ? $0.completion == nil : nil }) else { return }
            let now = readsClock ? scheduler.now : nil
            guard let (downstream, value, completion) = state.withLock({ $0.emit(now: now) }) else { return }
            // Apple lets go of the upstream before delivering the completion.
            if completion != nil { _ = state.withLock { $0.upstream.terminate() } }
            if let value {
                let more = downstream.receive(value)
                if more > .none { state.withLock { $0.demand += more } }
            }
            if let completion {
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.acceptsUpstreamEvents }) else { return }
            _ = scheduler.now
            guard state.withLock({ $0.upstreamCompleted(completion) }) else { return }
            scheduler.schedule { [weak self] in
                guard let self, let downstream = self.state.withLock({ $0.finish() }) else { return }
                _ = self.state.withLock { $0.upstream.terminate() }
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple ignores request(.none) on this subscription: no trap, nothing forwarded.
            guard demand != .none else { return }
            state.withLock { $0.demand += demand }
        }

        @inlinable
        func cancel() {
            state.withLock { $0.cancelled() }?.cancel()
        }

        @usableFromInline var description: String { "Throttle" }
    }
}

// Sendable when everything it stores is.
extension Publishers.Throttle: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerTimeType.Stride: Sendable {}

import TributaryLocks

extension Publishers {
    /// A publisher that replaces each value with the time elapsed since the previous one (or, for
    /// the first value, since the subscription), measured by a scheduler's clock.
    ///
    /// Nothing is scheduled: the measurement is taken when the value arrives and published on the
    /// same thread. For `DispatchQueue` the stride's `magnitude` counts nanoseconds; for `RunLoop`
    /// it counts seconds.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The elapsed time, in the scheduler's own stride type.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose timing is measured.
        public let upstream: Upstream
        /// The clock used for the measurements.
        public let scheduler: Context

        /// Creates a publisher measuring the intervals between `upstream`'s values.
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

extension Publisher {
    /// Publishes, for each value, how much time passed since the previous value (since the
    /// subscription for the first), as `scheduler` measures it.
    @inlinable
    public func measureInterval<S: Scheduler>(
        using scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers.MeasureInterval {
    @usableFromInline
    struct Machine<Downstream>: HoldsUpstreamAndSubscriber {
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        @usableFromInline var last: Context.SchedulerTimeType?
        /// Released when the stream ends, so nothing outlives the subscription.
        @usableFromInline var downstream: Downstream?

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        /// Ends the stream, unless no subscription has arrived yet: a completion or a cancel then
        /// does nothing, as Apple's does, and a later subscription is taken as usual.
        @inlinable
        var isAwaitingSubscription: Bool {
            if case .awaitingSubscription = upstream { return true }
            return false
        }

        @inlinable
        mutating func terminate() -> (Downstream?, (any Subscription)?) {
            guard upstream.isSubscribed else { return (nil, nil) }
            defer { downstream = nil }
            return (downstream, upstream.terminate())
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
        init(downstream: Downstream, scheduler: Context) {
            state = LockedState(Machine(downstream: downstream))
            self.scheduler = scheduler
        }

        @inlinable
        func receive(subscription: any Subscription) {
            // A second subscription is cancelled without reading the clock.
            guard state.withLock({ $0.isAwaitingSubscription }) else {
                subscription.cancel()
                return
            }
            let now = scheduler.now
            let downstream = state.withLock { state -> Downstream? in
                guard let downstream = state.subscribed(subscription) else { return nil }
                state.last = now
                return downstream
            }
            guard let downstream else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            // Before the subscription and after the end, the clock is not even read (Apple gates).
            guard state.withLock({ $0.upstream.isSubscribed }) else { return .none }
            let now = scheduler.now
            let step = state.withLock { state -> (Downstream, Context.SchedulerTimeType.Stride)? in
                guard state.upstream.isSubscribed, let last = state.last, let downstream = state.downstream
                else { return nil }
                state.last = now
                return (downstream, last.distance(to: now))
            }
            guard let (downstream, elapsed) = step else { return .none }
            // As Apple's: the subscriber's answer is requested upstream after the delivery, not
            // returned, so a value the upstream sends from inside that request is delivered too.
            let more = downstream.receive(elapsed)
            if more != .none { state.withLock { $0.upstream.subscription }?.request(more) }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            // Apple lets go of the upstream before delivering the completion.
            guard let downstream = state.withLock({ $0.terminate() }).0 else { return }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
            state.withLock { $0.upstream.subscription }?.request(demand)
        }

        @inlinable
        func cancel() {
            state.withLock { $0.terminate() }.1?.cancel()
        }

        @usableFromInline var description: String { "MeasureInterval" }
    }
}

// Sendable when everything it stores is.
extension Publishers.MeasureInterval: Sendable where Upstream: Sendable, Context: Sendable {}

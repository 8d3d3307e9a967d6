import TributaryLocks

extension Publishers {
    /// A publisher that shifts every value and the completion later by a fixed interval, delivering
    /// them on a scheduler.
    ///
    /// The subscription reaches the subscriber immediately and demand goes straight upstream; only
    /// the downstream events wait. A failure is delayed like everything else.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values, each published `interval` later on the scheduler.
        public typealias Output = Upstream.Output
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are delayed.
        public let upstream: Upstream
        /// How long each event is held back.
        public let interval: Context.SchedulerTimeType.Stride
        /// The allowed lateness of each delivery.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// Where the delayed events are delivered.
        public let scheduler: Context
        /// Options passed to `scheduler`.
        public let options: Context.SchedulerOptions?

        /// Creates a delaying publisher.
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
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
    /// Delivers every value and the completion `interval` later, on `scheduler`. Without a
    /// `tolerance` the scheduler's `minimumTolerance` is used.
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self,
            interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler,
            options: options)
    }
}

extension Publishers.Delay {
    @usableFromInline
    struct Machine<Downstream>: HoldsUpstreamAndSubscriber {
        /// Kept until the upstream's completion has been delivered (a value delivered before it
        /// still has the subscriber's answer requested upstream), or until the subscriber cancels.
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        /// The upstream completed; its completion is on its way through the scheduler.
        @usableFromInline var upstreamCompleted = false
        /// Cleared by `cancel()` (deliveries already scheduled are then dropped) and after the
        /// completion, so nothing outlives the subscription.
        @usableFromInline var downstream: Downstream?

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        /// Whether the upstream's events are taken: not before the subscription, nor after its
        /// completion or a cancel.
        @inlinable var live: Bool { upstream.isSubscribed && !upstreamCompleted }

        @inlinable
        mutating func completed() -> Bool {
            guard live else { return false }
            upstreamCompleted = true
            return true
        }

        /// Delivering the completion: the subscriber, unless it cancelled. The upstream
        /// subscription is returned to be released outside the lock.
        @inlinable
        mutating func completing() -> (Downstream, (any Subscription)?)? {
            guard let downstream else { return nil }
            self.downstream = nil
            return (downstream, upstream.terminate())
        }

        /// A cancel before the subscription arrives does nothing (Apple handles a late
        /// subscription as if there had been no cancel).
        @inlinable
        mutating func cancelled() -> (any Subscription)? {
            guard let subscription = upstream.subscription else { return nil }
            downstream = nil
            upstream = .terminal
            return upstreamCompleted ? nil : subscription
        }
    }

    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let interval: Context.SchedulerTimeType.Stride
        @usableFromInline let tolerance: Context.SchedulerTimeType.Stride
        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?
        @usableFromInline let state: LockedState<Machine<Downstream>>

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
            state = LockedState(Machine(downstream: downstream))
            interval = publisher.interval
            tolerance = publisher.tolerance
            scheduler = publisher.scheduler
            options = publisher.options
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.subscribed(subscription) }) else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        /// Schedules `action` `interval` from now. The action keeps the subscriber alive until it
        /// runs, as Apple's does; a cancel in between only stops the delivery.
        @inlinable
        func later(_ action: @escaping () -> Void) {
            let downstream = state.withLock { $0.downstream }
            scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                tolerance: tolerance,
                options: options
            ) {
                withExtendedLifetime(downstream) {}
                action()
            }
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            guard state.withLock({ $0.live }) else { return .none }
            later { [self] in
                guard let downstream = state.withLock({ $0.downstream }) else { return }
                let more = downstream.receive(input)
                guard more > .none else { return }
                state.withLock { $0.upstream.subscription }?.request(more)
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.completed() }) else { return }
            // The delivery lets go of the upstream before delivering the completion; this call
            // keeps it until it returns (as Apple's does: on an immediate scheduler the upstream
            // goes after the completion).
            let upstream = state.withLock { $0.upstream.subscription }
            later { [self] in
                guard let downstream = state.withLock({ $0.completing() })?.0 else { return }
                downstream.receive(completion: completion)
            }
            withExtendedLifetime(upstream) {}
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream; after the
            // upstream's completion nothing is forwarded.
            state.withLock { $0.live ? $0.upstream.subscription : nil }?.request(demand)
        }

        @inlinable
        func cancel() {
            state.withLock { $0.cancelled() }?.cancel()
        }
    }
}

// Sendable when everything it stores is.
extension Publishers.Delay: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerOptions: Sendable, Context.SchedulerTimeType.Stride: Sendable {}

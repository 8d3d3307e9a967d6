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
        @inlinable
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
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Ends the stream if no value arrives for `interval` (counted from the subscription, then from
    /// each value). It finishes normally, or fails with `customError()` when one is given.
    @inlinable
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
    ///
    /// The timer is a repeating scheduler action (Apple's choice: `now`, `minimumTolerance`, then
    /// `schedule(after:interval:tolerance:options:)`), armed when the subscription arrives, again at
    /// the first request, and again after each value. A generation counter marks which timer is
    /// current, so a timer whose token ignores `cancel()` still fires only once, for its own turn.
    @usableFromInline
    struct Machine<Downstream> {
        /// Kept until the upstream's completion has been delivered, the timer fired or the
        /// subscriber cancelled.
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        /// Released when the stream ends (Apple keeps it; see "Where we deliberately differ").
        @usableFromInline var downstream: Downstream?
        /// The current timer's token.
        @usableFromInline var timer: (any Cancellable)?
        /// Which timer is current; older timers that fire are ignored.
        @usableFromInline var generation: UInt64 = 0
        /// The first request re-arms the timer; later ones do not.
        @usableFromInline var firstRequestSeen = false
        /// The subscription has gone downstream.
        @usableFromInline var subscriptionSent = false
        /// The timer fired before the subscription went downstream (an immediate scheduler): the
        /// completion follows the subscription.
        @usableFromInline var timedOutEarly = false
        /// Nothing more goes downstream (timed out, completion delivered or cancelled).
        @usableFromInline var done = false

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @inlinable var live: Bool { upstream.isSubscribed && !done }

        @inlinable
        mutating func subscribed(_ subscription: any Subscription) -> UInt64? {
            guard case .awaitingSubscription = upstream, !done else { return nil }
            upstream = .subscribed(subscription)
            generation &+= 1
            return generation
        }

        /// Keeps the token of the timer armed for `armed`; the previous one is returned to be
        /// cancelled and released outside the lock. A stale token is returned too.
        @inlinable
        mutating func store(_ token: any Cancellable, armed: UInt64) -> (any Cancellable)? {
            guard armed == generation, !done else { return token }
            defer { timer = token }
            return timer
        }

        /// A request: the subscription to forward it to, and the generation to arm the timer for
        /// when this is the first request.
        @inlinable
        mutating func requested() -> ((any Subscription), UInt64?)? {
            guard let subscription = upstream.subscription, !done else { return nil }
            guard !firstRequestSeen else { return (subscription, nil) }
            firstRequestSeen = true
            generation &+= 1
            return (subscription, generation)
        }

        /// A value or completion from the upstream: the new generation (the caller then takes
        /// the old timer to cancel it).
        @inlinable
        mutating func restart() -> UInt64? {
            guard live else { return nil }
            generation &+= 1
            return generation
        }

        @inlinable
        mutating func takeTimer() -> (any Cancellable)? {
            defer { timer = nil }
            return timer
        }

        @usableFromInline
        enum Fired {
            case ignore
            /// Cancel the upstream; deliver the completion when the subscriber is given.
            case timedOut(any Subscription, Downstream?, (any Cancellable)?)
        }

        @inlinable
        mutating func fired(_ armed: UInt64) -> Fired {
            guard armed == generation, live, let subscription = upstream.terminate() else { return .ignore }
            done = true
            defer { timer = nil }
            guard subscriptionSent else {
                // The subscriber is kept until its subscription has been sent.
                timedOutEarly = true
                return .timedOut(subscription, nil, timer)
            }
            defer { downstream = nil }
            return .timedOut(subscription, downstream, timer)
        }

        /// The subscription has gone downstream: the subscriber, if the timer already fired.
        @inlinable
        mutating func sentSubscription() -> Downstream? {
            subscriptionSent = true
            guard timedOutEarly else { return nil }
            defer { downstream = nil }
            return downstream
        }

        /// Delivering the upstream's completion: the subscriber, unless it cancelled meanwhile.
        /// The upstream subscription and the timer are returned to be released outside the lock.
        @inlinable
        mutating func completing() -> (Downstream, (any Subscription)?, (any Cancellable)?)? {
            guard !done, let downstream else { return nil }
            done = true
            self.downstream = nil
            defer { timer = nil }
            return (downstream, upstream.terminate(), timer)
        }

        /// A cancel before the subscription arrives does nothing (Apple handles a late
        /// subscription as if there had been no cancel).
        /// The caller then takes the timer to cancel it.
        @inlinable
        mutating func cancelled() -> (any Subscription)? {
            guard let subscription = upstream.subscription, !done else { return nil }
            done = true
            upstream = .terminal
            downstream = nil
            return subscription
        }
    }

    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let interval: Context.SchedulerTimeType.Stride
        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?
        @usableFromInline let customError: (() -> Failure)?
        @usableFromInline let state: LockedState<Machine<Downstream>>

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
            state = LockedState(Machine(downstream: downstream))
            interval = publisher.interval
            scheduler = publisher.scheduler
            options = publisher.options
            customError = publisher.customError
        }

        /// Arms the timer for `generation`: `now`, `minimumTolerance`, then the repeating schedule.
        @inlinable
        func arm(_ generation: UInt64) {
            let start = scheduler.now.advanced(by: interval)
            let token = scheduler.schedule(
                after: start, interval: interval, tolerance: scheduler.minimumTolerance, options: options
            ) { [self] in fire(generation) }
            // Apple only releases the token it replaces, which stops the timer on its own
            // schedulers; cancelling it first also stops it on a scheduler whose tokens do not
            // cancel when released.
            state.withLock { $0.store(token, armed: generation) }?.cancel()
        }

        @inlinable
        func fire(_ generation: UInt64) {
            guard case .timedOut(let upstream, let downstream, let timer) = state.withLock({ $0.fired(generation) })
            else { return }
            upstream.cancel()
            // The timer repeats: stop it.
            timer?.cancel()
            if let downstream { deliverTimeout(to: downstream) }
        }

        @inlinable
        func deliverTimeout(to downstream: Downstream) {
            if let customError {
                downstream.receive(completion: .failure(customError()))
            } else {
                downstream.receive(completion: .finished)
            }
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let generation = state.withLock({ $0.subscribed(subscription) }) else {
                subscription.cancel()
                return
            }
            arm(generation)
            guard let downstream = state.withLock({ $0.downstream }) else { return }
            downstream.receive(subscription: self)
            // On an immediate scheduler the timer fires while it is armed: the completion waits
            // for the subscription (Apple crashes there).
            if let timedOut = state.withLock({ $0.sentSubscription() }) {
                deliverTimeout(to: timedOut)
            }
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            guard let generation = state.withLock({ $0.restart() }) else { return .none }
            // Cancelled and released before the new timer is armed, as Apple does.
            state.withLock { $0.takeTimer() }?.cancel()
            arm(generation)
            // The action keeps the subscriber alive until it runs, as Apple's does; a cancel in
            // between only stops the delivery.
            let downstream = state.withLock { $0.downstream }
            scheduler.schedule(options: options) { [self] in
                withExtendedLifetime(downstream) {}
                guard let downstream = state.withLock({ $0.done ? nil : $0.downstream }) else { return }
                let more = downstream.receive(input)
                guard more > .none else { return }
                state.withLock { $0.upstream.subscription }?.request(more)
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.restart() }) != nil else { return }
            state.withLock { $0.takeTimer() }?.cancel()
            let downstream = state.withLock { $0.downstream }
            scheduler.schedule(options: options) { [self] in
                withExtendedLifetime(downstream) {}
                // A value after the completion may have armed a timer again.
                state.withLock { $0.done ? nil : $0.takeTimer() }?.cancel()
                // Apple lets go of the upstream before delivering the completion.
                guard let downstream = state.withLock({ $0.completing() })?.0 else { return }
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
            guard let (upstream, generation) = state.withLock({ $0.requested() }) else { return }
            if let generation { arm(generation) }
            upstream.request(demand)
        }

        @inlinable
        func cancel() {
            guard let upstream = state.withLock({ $0.cancelled() }) else { return }
            state.withLock { $0.takeTimer() }?.cancel()
            upstream.cancel()
        }

        @usableFromInline var description: String { "Timeout" }
    }
}

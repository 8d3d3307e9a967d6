import Synchronization
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
        @inlinable
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
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Publishes a value only after `dueTime` has passed with no newer value — the classic
    /// search-field filter: `$query.debounce(for: .milliseconds(300), scheduler: RunLoop.main)`.
    @inlinable
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
    ///
    /// Each value arms a repeating scheduler action (`now`, `minimumTolerance`, then
    /// `schedule(after:interval:tolerance:options:)`, as Apple does) and cancels the previous one.
    /// The timer is armed before the value enters the lock, so that the value, its timer's token
    /// and the previous token all change hands in one turn of the lock (the scheduler is never
    /// called under it). A generation counter marks the current timer, so only the latest value
    /// is published even when the scheduler's tokens ignore `cancel()`.
    @usableFromInline
    struct Machine<Downstream>: HoldsUpstreamAndSubscriber {
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        /// Released when the stream ends, so nothing outlives the subscription.
        @usableFromInline var downstream: Downstream?
        @usableFromInline var demand: Subscribers.Demand = .none
        /// The latest value, waiting for its quiet window to pass.
        @usableFromInline var pending: Output?
        /// Which timer is current.
        @usableFromInline var generation: UInt64 = 0
        /// The current timer's token.
        @usableFromInline var timer: (any Cancellable)?
        /// A timer that fired before its value entered the lock, and the thread it fired on: a
        /// scheduler that runs actions inside `schedule` fires it on the value's own thread.
        @usableFromInline var firedEarly: (generation: UInt64, thread: UInt)?
        /// Nothing more goes downstream (cancelled, or the completion delivered).
        @usableFromInline var finished = false

        /// What a value leaves to do outside the lock, in this order: deliver `emission`, then
        /// cancel and release `replaced` and `emitted`.
        @usableFromInline
        struct Arrival {
            /// The token this value's timer replaces, or the value's own token when the stream no
            /// longer takes values.
            @usableFromInline var replaced: (any Cancellable)?
            /// The value's own token, when its timer already emitted.
            @usableFromInline var emitted: (any Cancellable)?
            /// The value, when its timer already fired on this thread and the subscriber wants it.
            @usableFromInline var emission: (Downstream, Output)?

            @inlinable
            init(replaced: (any Cancellable)?, emitted: (any Cancellable)? = nil, emission: (Downstream, Output)? = nil) {
                self.replaced = replaced
                self.emitted = emitted
                self.emission = emission
            }
        }

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        /// A value whose timer, armed for `generation`, already exists as `token`.
        ///
        /// Normally the value waits for that timer and the token becomes the current one. If the
        /// timer already fired on `thread` (the scheduler ran the action inside `schedule`), the
        /// value is due now, exactly as it would have been had it been stored first; if it fired
        /// on another thread, the repeating timer's next firing delivers it.
        @inlinable
        mutating func received(
            _ value: Output, generation: UInt64, timer token: any Cancellable, thread: @autoclosure () -> UInt
        ) -> Arrival {
            guard upstream.isSubscribed, !finished else { return Arrival(replaced: token) }
            self.generation = generation
            let replaced = timer
            if let early = firedEarly, early.generation == generation, early.thread == thread() {
                firedEarly = nil
                pending = nil
                timer = nil
                guard let downstream, demand > .none else { return Arrival(replaced: replaced, emitted: token) }
                demand -= 1
                return Arrival(replaced: replaced, emitted: token, emission: (downstream, value))
            }
            pending = value
            timer = token
            return Arrival(replaced: replaced)
        }

        /// When the timer of `fired` ends: its token (cancelled and released, as Apple does) and
        /// the value to send, if it is still current and wanted. A timer whose value has not yet
        /// entered the lock is noted as fired early, on `thread`.
        @inlinable
        mutating func timerEnded(
            _ fired: UInt64, thread: @autoclosure () -> UInt
        ) -> ((any Cancellable)?, (Downstream, Output)?)? {
            guard fired <= generation else {
                firedEarly = (fired, thread())
                return nil
            }
            guard fired == generation, !finished, let value = pending, let downstream else { return nil }
            pending = nil
            defer { timer = nil }
            guard demand > .none else { return (timer, nil) }
            demand -= 1
            return (timer, (downstream, value))
        }

        /// What the upstream's completion leaves to do outside the lock: release the upstream's
        /// subscription at once, cancel the timer, and schedule the completion for the subscriber.
        @usableFromInline
        struct Completing {
            @usableFromInline var upstream: (any Subscription)?
            @usableFromInline var timer: (any Cancellable)?
            @usableFromInline var downstream: Downstream?

            @inlinable
            init(upstream: (any Subscription)?, timer: (any Cancellable)?, downstream: Downstream?) {
                self.upstream = upstream
                self.timer = timer
                self.downstream = downstream
            }
        }

        /// The upstream completed: the waiting value is dropped, and the upstream's subscription,
        /// the timer and the subscriber are handed out together (`nil` when the stream already
        /// ended).
        @inlinable
        mutating func upstreamCompleted() -> Completing? {
            guard upstream.isSubscribed, !finished else { return nil }
            pending = nil
            return Completing(upstream: upstream.terminate(), timer: takeTimer(), downstream: downstream)
        }

        @inlinable
        mutating func takeTimer() -> (any Cancellable)? {
            defer { timer = nil }
            return timer
        }

        /// A cancel: `nil` before the subscription arrives (Apple handles a late subscription as
        /// if there had been no cancel, and so does nothing); otherwise the timer and the
        /// upstream's subscription, to cancel and release outside the lock.
        @inlinable
        mutating func cancel() -> (timer: (any Cancellable)?, upstream: (any Subscription)?)? {
            guard cancelled() else { return nil }
            return (takeTimer(), upstream.terminate())
        }

        /// Whether the completion may still be delivered (not cancelled meanwhile).
        @inlinable
        mutating func deliverCompletion() -> Downstream? {
            guard !finished else { return nil }
            finished = true
            defer { downstream = nil }
            return downstream
        }

        /// A cancel before the subscription arrives does nothing (Apple handles a late
        /// subscription as if there had been no cancel).
        @inlinable
        mutating func cancelled() -> Bool {
            if case .awaitingSubscription = upstream { return false }
            finished = true
            pending = nil
            downstream = nil
            return true
        }
    }

    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let dueTime: Context.SchedulerTimeType.Stride
        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?
        @usableFromInline let state: LockedState<Machine<Downstream>>
        /// Whether values are taken: set once the subscription arrives, cleared by a cancel or
        /// the upstream's completion.
        @usableFromInline let takesValues = Atomic<Bool>(false)
        /// The generation of the last timer armed. Only the upstream's calls, which Combine
        /// serialises, touch it.
        @usableFromInline var armedGenerations: UInt64 = 0

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
            state = LockedState(Machine(downstream: downstream))
            dueTime = publisher.dueTime
            scheduler = publisher.scheduler
            options = publisher.options
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.subscribed(subscription) }) else { return subscription.cancel() }
            takesValues.store(true, ordering: .relaxed)
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            // A hint only (the lock decides): spares the scheduler a timer after a cancel.
            guard takesValues.load(ordering: .relaxed) else { return .none }
            armedGenerations &+= 1
            let generation = armedGenerations
            let token = scheduler.schedule(
                after: scheduler.now.advanced(by: dueTime),
                interval: dueTime,
                tolerance: scheduler.minimumTolerance,
                options: options
            ) { [self] in timerEnded(generation) }
            var arrival = state.withLock { $0.received(input, generation: generation, timer: token, thread: currentThreadToken()) }
            if let (downstream, value) = arrival.emission.take() { publish(value, to: downstream) }
            // The previous timer is cancelled once the new one exists, and released.
            arrival.replaced?.cancel()
            arrival.emitted?.cancel()
            return .none
        }

        @inlinable
        func timerEnded(_ generation: UInt64) {
            guard let (token, delivery) = state.withLock({ $0.timerEnded(generation, thread: currentThreadToken()) }) else {
                return
            }
            token?.cancel()
            withExtendedLifetime(token) {}
            guard let (downstream, value) = delivery else { return }
            publish(value, to: downstream)
        }

        /// Hands a value whose quiet window has passed to the subscriber and adds what it asks
        /// for to the demand.
        @inlinable
        func publish(_ value: Output, to downstream: Downstream) {
            let more = downstream.receive(value)
            if more > .none { state.withLock { $0.demand += more } }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            takesValues.store(false, ordering: .relaxed)
            guard var completing = state.withLock({ $0.upstreamCompleted() }) else { return }
            // Apple lets go of the upstream first.
            completing.upstream = nil
            let timer = completing.timer
            timer?.cancel()
            // Apple delivers the completion without the options. The action keeps the subscriber
            // alive until it runs; a cancel in between only stops the delivery.
            let downstream = completing.downstream
            completing.downstream = nil
            scheduler.schedule { [self] in
                withExtendedLifetime(downstream) {}
                state.withLock { $0.deliverCompletion() }?.receive(completion: completion)
            }
            withExtendedLifetime(timer) {}
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:) on debounce")
            state.withLock { $0.demand += demand }
        }

        @inlinable
        func cancel() {
            guard let (timer, upstream) = state.withLock({ $0.cancel() }) else { return }
            takesValues.store(false, ordering: .relaxed)
            // Apple's order: the timer is cancelled, the upstream cancelled, then the timer released
            // and the upstream released.
            timer?.cancel()
            upstream?.cancel()
            withExtendedLifetime(timer) {}
            withExtendedLifetime(upstream) {}
        }

        @usableFromInline var description: String { "Debounce" }

        @usableFromInline
        var mirrorChildren: KeyValuePairs<String, Any> {
            let (downstream, demand, pending) = state.withLock { ($0.downstream, $0.demand, $0.pending) }
            return ["downstream": downstream as Any, "downstreamDemand": demand, "currentValue": pending as Any]
        }
    }
}

// Sendable when everything it stores is.
extension Publishers.Debounce: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerOptions: Sendable, Context.SchedulerTimeType.Stride: Sendable {}

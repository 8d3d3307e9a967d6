import Synchronization
import TributaryLocks
#if canImport(Dispatch)
import Dispatch
#endif

extension Publishers {
    /// A publisher that delivers its upstream's values and completion on a given scheduler.
    ///
    /// Only the downstream-bound events move: the subscription itself reaches the subscriber
    /// synchronously, and `request`/`cancel` go upstream on whatever thread calls them (use
    /// `subscribe(on:)` to move those). Each event is scheduled separately and in arrival order, so
    /// on a serial scheduler the subscriber sees values in order, one at a time.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values, delivered on the scheduler.
        public typealias Output = Upstream.Output
        /// Failures pass through with their type unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are moved.
        public let upstream: Upstream
        /// Where values and completion are delivered.
        public let scheduler: Context
        /// Options passed to `scheduler` for every delivery.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher delivering `upstream`'s events on `scheduler`.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            if Context.self == ImmediateScheduler.self {
                // Nothing moves: a lighter stage that takes no lock per value (the test folds away
                // in specialised code).
                upstream.subscribe(ImmediateInner(downstream: subscriber))
            } else {
                upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
            }
        }
    }
}

extension Publisher {
    /// Delivers this publisher's values and completion on `scheduler`, e.g. `receive(on:
    /// RunLoop.main)` before updating a UI model. It affects what comes after it in the pipeline,
    /// not the work done upstream.
    @inlinable
    public func receive<S: Scheduler>(
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers.ReceiveOn {
    /// The stage for real schedulers: every event is scheduled on its own, and the scheduled
    /// actions hand the events over one at a time, in arrival order.
    ///
    /// On a serial scheduler each action delivers its own event, exactly as scheduling each
    /// delivery would. On a concurrent one (`DispatchQueue.global()`), two actions may run at
    /// once; the second then leaves its event to the first, which delivers it right after its
    /// own. So the subscriber is never called concurrently and sees the events in order,
    /// completion last. (Apple schedules each delivery independently, so on a concurrent queue its
    /// subscriber can be called from two threads at once and see values after the completion; the
    /// operators below it assume serial calls, as Combine's contract says.)
    ///
    /// What one value costs: the event waits in the stage's queue (no allocation once the queue
    /// has grown to the burst's size), and the action handed to the scheduler captures nothing but
    /// the stage, so the closure needs no context of its own. One lock to queue the event, two in
    /// the action (take the event, then give the delivery back). A subscriber that cancels while
    /// actions are pending stays alive, in the stage, until the last of them has run, as it would
    /// if every action kept it.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: QueueAction, Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline
        enum Event {
            case value(Input)
            case completion(Subscribers.Completion<Failure>)
        }

        @usableFromInline
        struct State: HoldsUpstreamAndSubscriber {
            /// Kept until the upstream's completion has been delivered (a value delivered before it
            /// still has the subscriber's answer requested upstream), or until the subscriber cancels.
            @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
            /// The upstream completed; its completion waits among the events.
            @usableFromInline var upstreamCompleted = false
            /// Released after the completion's delivery and on cancel (then kept in `kept` while
            /// actions are pending), so nothing outlives the subscription.
            @usableFromInline var downstream: Downstream?
            /// The subscriber after a cancel, until every action handed to the scheduler has run:
            /// Apple's actions each keep the subscriber, ours keep only the stage. A scheduler
            /// that lets go of its actions without running them leaves it here until the stage
            /// itself goes, so a subscriber that still holds its cancelled subscription then
            /// stays with it.
            @usableFromInline var kept: Downstream?
            /// Events received and not yet delivered, oldest first.
            @usableFromInline var events = DeliveryQueue<Event>()
            /// Actions handed to the scheduler that have not run yet.
            @usableFromInline var scheduled = 0
            /// Held by the action delivering right now.
            @usableFromInline var role = DeliveryFlag()
            /// The upstream subscription let go of at the completion's delivery, to be released
            /// outside the lock.
            @usableFromInline var released: (any Subscription)?
            /// Actions that ran while another was delivering and left their event to it.
            @usableFromInline var owed = 0

            @inlinable
            init(downstream: Downstream) {
                self.downstream = downstream
            }

            /// Whether the upstream's events are taken: not before the subscription, nor after its
            /// completion or a cancel.
            @inlinable
            var live: Bool { upstream.isSubscribed && !upstreamCompleted }

            /// A scheduled action starts: it takes the delivery and the oldest event (`.some`), or
            /// leaves its event to the action already delivering (`.none`). `tidy` is set when
            /// something waits to be released outside the lock (``takeLeftovers()``).
            @inlinable
            mutating func begin(_ tidy: inout Bool) -> (Event, Downstream)?? {
                scheduled -= 1
                if scheduled == 0, kept != nil { tidy = true }
                guard role.tryTake() else {
                    owed += 1
                    return .none
                }
                return .some(next(&tidy))
            }

            /// After a delivery: the event of an action that ran meanwhile (`.some`), or the
            /// delivery given back (`.none`).
            @inlinable
            mutating func advance(_ tidy: inout Bool) -> (Event, Downstream)?? {
                guard owed > 0 else {
                    role.release()
                    return .none
                }
                owed -= 1
                return .some(next(&tidy))
            }

            /// The oldest waiting event and the subscriber to give it to.
            @inlinable
            mutating func next(_ tidy: inout Bool) -> (Event, Downstream)? {
                guard let downstream, let event = events.popFirst() else {
                    events.removeAll()
                    return nil
                }
                if case .completion = event {
                    self.downstream = nil
                    // Apple lets go of the upstream before delivering the completion.
                    released = upstream.terminate()
                    tidy = true
                }
                return (event, downstream)
            }

            /// What waits to be released outside the lock: the upstream subscription after the
            /// completion, the cancelled subscriber once no action is pending.
            @inlinable
            mutating func takeLeftovers() -> ((any Subscription)?, Downstream?) {
                (released.take(), scheduled == 0 ? kept.take() : nil)
            }
        }

        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?
        @usableFromInline let state: LockedState<State>

        @inlinable
        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            state = LockedState(State(downstream: downstream))
            self.scheduler = scheduler
            self.options = options
            // Only `Inner`s are given this closure, so the downcast cannot fail.
            super.init(perform: { action in unsafeDowncast(action, to: Inner.self).deliverScheduled() })
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.subscribed(subscription) }) else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            let accepted = state.withLock { state -> Bool in
                // While the upstream is live, the subscriber is there (a cancel ends both).
                guard state.live else { return false }
                state.events.append(.value(input))
                state.scheduled += 1
                return true
            }
            if accepted { schedule() }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            let accepted = state.withLock { state -> Bool in
                guard state.live else { return false }
                // Pending deliveries still run; the upstream is let go of at the completion's.
                state.upstreamCompleted = true
                state.events.append(.completion(completion))
                state.scheduled += 1
                return true
            }
            if accepted { schedule() }
        }

        /// Hands one delivery to the scheduler. The action keeps the stage alive until it runs, and
        /// the stage keeps the subscriber until its last pending action has run, as Apple's actions
        /// keep theirs; a cancel in between only stops the delivery.
        @inlinable
        func schedule() {
            #if canImport(Dispatch)
            // A `DispatchQueue` without options gets the stage itself as its work (see
            // `DispatchQueue.async(_: QueueAction)`): the same one work item per event that
            // `schedule(options:_:)` submits, without the `@Sendable` wrapper it allocates. In
            // specialised code the cast is decided at compile time.
            if options == nil, let queue = scheduler as? DispatchQueue {
                queue.async(self)
                return
            }
            #endif
            // Capturing only `self`, the closure's context is the stage itself: no allocation.
            scheduler.schedule(options: options) { [self] in deliverScheduled() }
        }

        /// One scheduled action: delivers the oldest event, then those of actions that ran
        /// meanwhile, unless another action is already delivering (it then takes this one's).
        @inlinable
        func deliverScheduled() {
            var tidy = false
            var next = state.withLock { $0.begin(&tidy) }
            while true {
                if tidy {
                    tidy = false
                    releaseLeftovers()
                }
                // Left to the action that is delivering, or nothing owed any more.
                guard let current = next else { return }
                if let (event, downstream) = current {
                    switch event {
                    case .value(let value):
                        let more = downstream.receive(value)
                        if more > .none {
                            state.withLock { $0.upstream.subscription }?.request(more)
                        }
                    case .completion(let completion):
                        downstream.receive(completion: completion)
                    }
                }
                next = state.withLock { $0.advance(&tidy) }
            }
        }

        /// Lets go, outside the lock, of what the lock handed over (rare: after the completion,
        /// or after a cancel).
        @usableFromInline
        func releaseLeftovers() {
            let leftovers = state.withLock { $0.takeLeftovers() }
            withExtendedLifetime(leftovers) {}
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream; after the
            // upstream's completion nothing is forwarded.
            state.withLock { $0.live ? $0.upstream.subscription : nil }?.request(demand)
        }

        @inlinable
        func cancel() {
            var dropped = DeliveryQueue<Event>()
            var subscriber: Downstream?
            let upstream = state.withLock { state -> (any Subscription)? in
                // Before the subscription a cancel does nothing (Apple takes a late subscription
                // as if there had been no cancel).
                if case .awaitingSubscription = state.upstream { return nil }
                subscriber = state.downstream.take()
                // Pending actions keep the subscriber until the last of them has run.
                if state.scheduled > 0, state.kept == nil { state.kept = subscriber.take() }
                swap(&dropped, &state.events)
                let completed = state.upstreamCompleted
                let held = state.upstream.terminate()
                // After the upstream's completion there is nothing to cancel upstream.
                return completed ? nil : held
            }
            upstream?.cancel()
            _ = dropped
            _ = subscriber
        }

        @usableFromInline var description: String { "ReceiveOn" }
    }
}

extension Publishers.ReceiveOn {
    /// The stage used with `ImmediateScheduler`, where every "scheduled" event runs at once on the
    /// upstream's thread: events go straight through, in the upstream's (serialised) calls.
    ///
    /// Per value it costs one atomic load: no lock, no retain. The lock guards only the upstream
    /// subscription, for subscribe, `request` and `cancel`. Like `map` and `filter`, the stage
    /// keeps its subscriber for as long as the upstream keeps the stage: `cancel` closes the stage
    /// and cancels the upstream, which lets go of the stage and so of the subscriber. (Clearing the
    /// subscriber on `cancel` would need a lock or an atomic exchange around every delivery, since
    /// `cancel` may run on another thread in the middle of one.)
    @usableFromInline
    final class ImmediateInner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let upstream: LockedState<SubscriptionStatus>

        /// `waiting` until the subscription arrives (values before it are ignored), `open` while
        /// events go through, `closed` after `cancel` or the upstream's completion.
        @usableFromInline
        let phase = Atomic<UInt8>(0)  // waiting

        @usableFromInline static var waiting: UInt8 { 0 }
        @usableFromInline static var open: UInt8 { 1 }
        @usableFromInline static var closed: UInt8 { 2 }

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
            upstream = LockedState(.awaitingSubscription)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let accepted = upstream.withLock { status -> Bool in
                guard status.accept(subscription) else { return false }
                phase.store(Self.open, ordering: .releasing)
                return true
            }
            guard accepted else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            if phase.load(ordering: .acquiring) != Self.open { return .none }
            let more = downstream.receive(input)
            if more > .none { forward(more) }
            return .none
        }

        /// Hands demand to the upstream. Demand the subscriber returns from `receive(_:)` goes this
        /// way too, as a separate request, like every scheduled delivery of `receive(on:)`.
        @usableFromInline
        func forward(_ demand: Subscribers.Demand) {
            upstream.withLock { $0.subscription }?.request(demand)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            // Before the subscription (and after the end) a completion is ignored.
            guard phase.compareExchange(expected: Self.open, desired: Self.closed, ordering: .acquiringAndReleasing)
                .exchanged
            else { return }
            let upstream = upstream.withLock { $0.terminate() }
            // Held until the completion is delivered, as Apple's does.
            withExtendedLifetime(upstream) {
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
            forward(demand)
        }

        @inlinable
        func cancel() {
            let held = upstream.withLock { status -> (any Subscription)? in
                // Before the subscription a cancel does nothing (Apple takes a late subscription
                // as if there had been no cancel).
                if case .awaitingSubscription = status { return nil }
                phase.store(Self.closed, ordering: .releasing)
                return status.terminate()
            }
            held?.cancel()
        }

        @usableFromInline var description: String { "ReceiveOn" }
    }
}

// Sendable when everything it stores is.
extension Publishers.ReceiveOn: Sendable where Upstream: Sendable, Context: Sendable, Context.SchedulerOptions: Sendable {}

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
                upstream.subscribe(
                    Inner<S, DeliveryQueue<Output>>(downstream: subscriber, scheduler: scheduler, options: options))
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
    /// What one value costs: the value waits in the stage's queue (no allocation once the queue
    /// has grown to the burst's size), and the action handed to the scheduler captures nothing but
    /// the stage, so the closure needs no context of its own. One lock to queue the value, two in
    /// the action (take the value, then give the delivery back). A subscriber that cancels while
    /// actions are pending stays alive, in the stage, until the last of them has run, as it would
    /// if every action kept it.
    ///
    /// The bookkeeping is a ``ReceiveOnStateMachine``, which does not depend on the stage's types;
    /// the stage keeps beside it, under the same lock, only what does: the waiting values, the
    /// upstream's completion and the subscriber. A debug build runs this class unspecialised, and
    /// there every value, optional or tuple of a type that depends on the stage's generic
    /// parameters costs a look-up of its type metadata at run time (300 to 450 instructions
    /// each), as does every call of a method of a generic struct: so the checks made for every
    /// value are calls of the state machine's plain methods, the values wait as themselves (the
    /// completion, which comes last, waits in a field of its own) rather than as an enum of
    /// both, and the action delivering reads the subscriber where it is stored instead of taking
    /// a copy out of the lock with the event.
    @usableFromInline
    final class Inner<Downstream: Subscriber, Values: ReceiveOnWaitingValues>: QueueAction, Subscriber, Subscription,
        ReflectsAsOperator
    where Downstream.Input == Output, Downstream.Failure == Failure, Values.Element == Output {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        // The fields whose size does not depend on the generic parameters come first, so that a
        // debug build finds them at fixed offsets. Every `var` below is read and written only
        // under `lock` (the subscriber: see `subscriber`), so none of them needs the run-time
        // exclusivity check.

        /// Guards the stored properties below.
        @usableFromInline let lock: LockedState<Void>

        /// Where the stage stands: phase, pending actions, delivery role, upstream subscription.
        @usableFromInline @exclusivity(unchecked) var state = ReceiveOnStateMachine()

        #if canImport(Dispatch)
        /// The scheduler when it is a `DispatchQueue` used without options: the stage is then its
        /// own work item (see ``schedule()``). Decided once here rather than by a cast per value.
        @usableFromInline let dispatchQueue: DispatchQueue?
        #endif

        /// Values received and not yet delivered, oldest first: always a `DeliveryQueue` of them,
        /// typed with a type parameter of the stage (see ``ReceiveOnWaitingValues``).
        @usableFromInline @exclusivity(unchecked) var values = Values()

        /// The subscriber, from the start until the stage lets go of it: after the completion's
        /// delivery, or after a cancel once no scheduled action is pending (Apple's actions each
        /// keep the subscriber, ours keep only the stage). A scheduler that lets go of its actions
        /// without running them leaves it here until the stage itself goes, so a subscriber that
        /// still holds its cancelled subscription then stays with it.
        ///
        /// Written only under `lock`, and only by the action holding the delivery role or while no
        /// action holds it; so the action delivering reads it in place, outside the lock, without
        /// a copy.
        @usableFromInline @exclusivity(unchecked) var subscriber: Downstream?

        /// The upstream's completion, waiting behind the values until its delivery.
        @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?

        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?

        @inlinable
        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            lock = LockedState()
            #if canImport(Dispatch)
            // In specialised code the cast is decided at compile time.
            dispatchQueue = options == nil ? scheduler as? DispatchQueue : nil
            #endif
            subscriber = downstream
            self.scheduler = scheduler
            self.options = options
            // Only `Inner`s are given this closure, so the cast cannot fail. Through `Unmanaged`
            // it needs neither the retain of `takeUnretainedValue()` in a release build nor, in a
            // debug build, the type metadata and the checked cast of `unsafeDowncast` (about 550
            // instructions per value).
            super.init(perform: { action in
                Unmanaged<Inner>.fromOpaque(Unmanaged.passUnretained(action).toOpaque())
                    ._withUnsafeGuaranteedRef { $0.deliverScheduled() }
            })
        }

        @inlinable
        func receive(subscription: any Subscription) {
            lock.lock()
            let downstream = state.subscribe(subscription) ? subscriber : nil
            lock.unlock()
            guard let downstream else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            let lock = self.lock  // see `deliverScheduled()`
            lock.lock()
            let accepted = state.admitValue()
            if accepted { values.append(input) }
            lock.unlock()
            if accepted { schedule() }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            // Pending deliveries still run; the upstream is let go of at the completion's.
            let accepted = state.admitCompletion()
            if accepted { self.completion = completion }
            lock.unlock()
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
            // `schedule(options:_:)` submits, without the `@Sendable` wrapper it allocates.
            if let dispatchQueue {
                dispatchQueue.async(self)
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
            // Once in a local: a debug build retains a stored property's value at every use.
            let lock = self.lock
            lock.lock()
            var step = state.begin()
            while true {
                switch step {
                case .deliverValue:
                    let value = values.popFirst()!
                    lock.unlock()
                    // The delivery role keeps `subscriber` in place (see its comment). Optional
                    // chaining calls it where it is stored; `subscriber!` would copy it out first,
                    // through the `Optional`'s type metadata.
                    if let more = subscriber?.receive(value), more > .none { forward(more) }
                case .deliverCompletion:
                    deliverCompletion()
                case .finished:
                    lock.unlock()
                    return
                case .finishedLettingGoOfSubscriber:
                    letGoOfSubscriber()
                    return
                }
                lock.lock()
                step = state.advance()
            }
        }

        /// The upstream's completion, once the values before it are delivered: called under the
        /// lock, which it gives back. The subscriber is let go of when the delivery role is given
        /// back, after this returns.
        @inlinable
        @inline(never)
        func deliverCompletion() {
            let completion = self.completion.take()
            do {
                // Apple lets go of the upstream before delivering the completion (the scope ends
                // its lifetime here in a debug build too).
                let upstream = state.upstream.terminate()
                lock.unlock()
                withExtendedLifetime(upstream) {}
            }
            if let completion { subscriber?.receive(completion: completion) }
        }

        /// Lets go of the subscriber, outside the lock, which this is called under and gives back
        /// (rare: after the completion, or after a cancel).
        @inlinable
        @inline(never)
        func letGoOfSubscriber() {
            let subscriber = self.subscriber.take()
            lock.unlock()
            withExtendedLifetime(subscriber) {}
        }

        /// Hands demand that the subscriber returned from a delivery to the upstream.
        @usableFromInline
        func forward(_ demand: Subscribers.Demand) {
            lock.lock()
            let upstream = state.upstream.subscription
            lock.unlock()
            upstream?.request(demand)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream; after the
            // upstream's completion nothing is forwarded.
            lock.lock()
            let upstream = state.isLive ? state.upstream.subscription : nil
            lock.unlock()
            upstream?.request(demand)
        }

        @inlinable
        func cancel() {
            lock.lock()
            // Before the subscription a cancel does nothing (Apple takes a late subscription as if
            // there had been no cancel), nor once the completion's delivery has begun, nor twice.
            guard let ending = state.cancel() else { return lock.unlock() }
            var dropped = Values()
            swap(&dropped, &values)
            let completion = self.completion.take()
            // Pending actions keep the subscriber until the last of them has run.
            let subscriber = ending.letsGoOfSubscriber ? self.subscriber.take() : nil
            lock.unlock()
            // After the upstream's completion there is nothing to cancel upstream.
            if ending.cancelsUpstream { ending.upstream?.cancel() }
            withExtendedLifetime((dropped, completion, subscriber)) {}
        }

        @usableFromInline var description: String { "ReceiveOn" }
    }
}

/// The queue in which values wait in `receive(on:)`'s stage: a `DeliveryQueue` of them, which
/// the stage names by a type parameter of its own (`Values`) rather than as
/// `DeliveryQueue<Output>`.
///
/// In a debug build a call of a method of a generic struct passes the struct's type metadata, and
/// a caller that names it `DeliveryQueue<Output>` looks that metadata up at run time (about 330
/// instructions) at every call: two per value, the append and the pop. Named by a type parameter,
/// it is read from the stage's own metadata, and the calls reach the queue through this
/// protocol's witnesses. Specialised code calls the queue's methods directly either way.
@usableFromInline
protocol ReceiveOnWaitingValues {
    associatedtype Element
    init()
    mutating func append(_ element: Element)
    mutating func popFirst() -> Element?
}

extension DeliveryQueue: ReceiveOnWaitingValues {}

/// The bookkeeping of `receive(on:)`'s stage for a real scheduler, as a pure value that does not
/// depend on the stage's types: it is reached at fixed offsets and compiled once, so a debug build
/// runs it without looking up type metadata. The stage keeps the values, the completion and the
/// subscriber beside it, under the same lock, and acts on its answers.
@usableFromInline
struct ReceiveOnStateMachine {
    @usableFromInline
    enum Phase {
        /// The upstream's subscription has not arrived: events are ignored.
        case awaitingSubscription
        /// Events are taken and delivered.
        case live
        /// The upstream completed; its completion waits behind the values.
        case completing
        /// The completion is being delivered; the subscriber is let go of after it.
        case completed
        /// The subscriber cancelled; it is kept until no scheduled action is pending.
        case cancelled
        /// The stage has let go of its subscriber.
        case ended
    }

    /// What a scheduled action does next.
    @usableFromInline
    enum Step {
        /// Deliver the oldest waiting value.
        case deliverValue
        /// Deliver the upstream's completion, every value before it being delivered.
        case deliverCompletion
        /// Nothing more: the event was left to the action delivering, or the delivery was given
        /// back.
        case finished
        /// The same, and the subscriber is to be let go of, outside the lock.
        case finishedLettingGoOfSubscriber
    }

    /// What a cancel ends.
    @usableFromInline
    struct Ending {
        /// The upstream subscription the stage held.
        @usableFromInline var upstream: (any Subscription)?
        /// Whether it is to be cancelled: not after the upstream's completion.
        @usableFromInline var cancelsUpstream: Bool
        /// Whether the subscriber goes now: no scheduled action is pending or running.
        @usableFromInline var letsGoOfSubscriber: Bool
    }

    @usableFromInline var phase: Phase = .awaitingSubscription
    /// Actions handed to the scheduler that have not started yet.
    @usableFromInline var scheduled = 0
    /// Actions that ran while another was delivering and left their event to it.
    @usableFromInline var owed = 0
    /// Values waiting in the stage.
    @usableFromInline var waiting = 0
    /// Held by the action delivering right now.
    @usableFromInline var role = DeliveryFlag()
    /// Kept until the upstream's completion is delivered (a value delivered before it still has
    /// the subscriber's answer requested upstream), or until the subscriber cancels.
    @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription

    @inlinable
    init() {}

    /// Whether the upstream's events are taken: not before the subscription, nor after its
    /// completion or a cancel.
    @inlinable
    var isLive: Bool {
        if case .live = phase { return true }
        return false
    }

    /// Keeps the upstream's `subscription`; `false` when one has arrived already or the stage
    /// has ended, and the caller cancels it.
    @usableFromInline
    mutating func subscribe(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = phase, upstream.accept(subscription) else { return false }
        phase = .live
        return true
    }

    /// A value arrives: whether it is taken, and then scheduled.
    @inlinable
    mutating func admitValue() -> Bool {
        guard case .live = phase else { return false }
        waiting += 1
        scheduled += 1
        return true
    }

    /// The upstream's completion arrives: whether it is taken, and then scheduled.
    @inlinable
    mutating func admitCompletion() -> Bool {
        guard case .live = phase else { return false }
        phase = .completing
        scheduled += 1
        return true
    }

    /// A scheduled action starts: it takes the delivery role, or leaves its event to the action
    /// already delivering.
    @inlinable
    @inline(__always)
    mutating func begin() -> Step {
        scheduled -= 1
        guard role.tryTake() else {
            owed += 1
            return .finished
        }
        return next()
    }

    /// After a delivery: the event of an action that ran meanwhile, or the delivery given back.
    @inlinable
    mutating func advance() -> Step {
        guard owed > 0 else { return giveBack() }
        owed -= 1
        return next()
    }

    /// The event the action holding the role delivers now.
    @inlinable
    mutating func next() -> Step {
        switch phase {
        case .live where waiting > 0, .completing where waiting > 0:
            waiting -= 1
            return .deliverValue
        case .completing:
            phase = .completed
            return .deliverCompletion
        case .awaitingSubscription, .live, .completed, .cancelled, .ended:
            break
        }
        // Nothing is left to deliver, for this action or those that left theirs to it.
        owed = 0
        return giveBack()
    }

    /// The delivery role goes back; the subscriber goes too once the stream is over and no
    /// action is pending.
    @inlinable
    mutating func giveBack() -> Step {
        role.release()
        switch phase {
        case .completed:
            phase = .ended
            return .finishedLettingGoOfSubscriber
        case .cancelled where scheduled == 0:
            phase = .ended
            return .finishedLettingGoOfSubscriber
        case .awaitingSubscription, .live, .completing, .cancelled, .ended:
            return .finished
        }
    }

    /// The subscriber cancels: `nil` before the subscription (Apple takes a late subscription as
    /// if there had been no cancel), after the completion's delivery has started, and after a
    /// first cancel.
    @usableFromInline
    mutating func cancel() -> Ending? {
        let completed: Bool
        switch phase {
        case .live: completed = false
        case .completing: completed = true
        case .awaitingSubscription, .completed, .cancelled, .ended: return nil
        }
        // The action delivering, if any, lets go of the subscriber when it gives the role back.
        let idle = scheduled == 0 && !role.isHeld
        phase = idle ? .ended : .cancelled
        // The stage drops the values.
        waiting = 0
        return Ending(upstream: upstream.terminate(), cancelsUpstream: !completed, letsGoOfSubscriber: idle)
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

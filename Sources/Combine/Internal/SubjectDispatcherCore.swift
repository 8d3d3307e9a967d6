import Synchronization

import TributaryLocks

/// The half of a subject's dispatcher that does not depend on the subject's `Output` or
/// `Failure`: the mutex and what it guards (the subscriber list, the job queue, the waiting
/// senders' tickets, what waits for a handshake, the subject's upstreams), the emitter role, the
/// published list the emitter walks, and every decision that needs only those: subscribing,
/// cancelling, a subscriber's request, completion, the end of the emitter's turn.
///
/// ``SubjectDispatcher`` is its generic subclass, with the current value and the code that
/// touches values and calls subscribers. Users' release builds specialise that code for every
/// value type they use; this class is compiled once, in the library, so its methods are not
/// `@inlinable` on purpose. Being non-generic, it runs at full speed unspecialised (it needs no
/// type metadata), where unspecialised generic code would look its types up at every step.
/// Where it must reach the subscribers with a value it goes through closures the subclass makes
/// in its specialised `init` (``runJob``, ``requestHook``), or through the conduit's class
/// methods for the completion (once per subscription).
///
/// See ``SubjectDispatcher`` for the delivery protocol itself.
@usableFromInline
class SubjectDispatcherCore: @unchecked Sendable {
    // @unchecked Sendable: `state` is guarded by its mutex; the `published…` fields are written
    // under the mutex while nobody emits, or by the emitter under the mutex, and read by the
    // emitter only. The subclass's fields follow the same rules.

    /// What a thread that wants to call the subscribers may do: ``AtomicDeliveryRole/Claim``, whose
    /// three answers the atomic role word below gives without the mutex. `.taken`: it calls the
    /// subscribers, then gives the role back. `.nested`: a call from inside a subscriber, made
    /// now, nested in the delivery in progress (the outer call keeps the role). `.busy`: the job
    /// is queued for the thread that holds the role, and the caller waits until it has run.
    @usableFromInline
    typealias Grant = AtomicDeliveryRole.Claim

    @usableFromInline
    struct State: DeliveryTicketing {
        @usableFromInline var conduits: ContiguousArray<SubjectConduitCore> = []
        /// The completion, once the subject has completed: a
        /// `SubjectValueBox<Subscribers.Completion<Failure>>`, made once per subject, so that
        /// this type and the code that completes need not know `Failure`.
        @usableFromInline var completion: AnyObject?
        @usableFromInline var jobs = DeliveryQueue<SubjectJob>()
        /// `conduits` changed while someone was emitting; the published list is refreshed when
        /// the emitter next takes the mutex.
        @usableFromInline var stale = false
        /// Cancelled while someone was emitting: the emitter releases their subscribers.
        @usableFromInline var released: ContiguousArray<SubjectConduitCore> = []
        /// The queued jobs' senders wait on these until the emitter has run their job (see
        /// ``SubjectDispatcherCore/waitUntilRun(_:)``).
        @usableFromInline var tickets = DeliveryTickets()
        /// What arrived for conduits still in their handshake, in arrival order. Kept here rather
        /// than in each conduit: it is needed only when a subscriber's handshake overlaps another
        /// thread's delivery, and a field in every conduit would cost every subscription.
        @usableFromInline var pending = ContiguousArray<SubjectPendingEvent>()
        /// The subject, held while any of its subscriptions is live (accepting), as Apple's
        /// subscriptions keep their subject alive until cancelled or completed. One reference for
        /// all of them instead of one in every conduit; released with the last one.
        @usableFromInline var owner: AnyObject?
        /// How many conduits are accepting.
        @usableFromInline var live = 0
        /// The subscriptions the subject was given with `send(subscription:)`
        /// (`PassthroughSubject`, `CurrentValueSubject`).
        @usableFromInline var upstreams = SubjectUpstreams()
        /// The subscriptions `assign(to:)` made into a `@Published` property, which die with it.
        @usableFromInline var assignments: [AnyCancellable] = []

        @usableFromInline
        init() {}
    }

    @usableFromInline
    final let state = LockedState(State())

    /// The emitter role. Its attention flag is raised under the mutex when the emitter must take
    /// the mutex before giving the role back: a job is queued, the list changed, or subscribers
    /// wait to be released. Without an emitter, whoever raises it settles it before leaving the
    /// mutex, so a free role is always `0`: free and up to date.
    @usableFromInline
    final let role = AtomicDeliveryRole()

    /// How many threads are copying the subclass's `currentValue` right now.
    @usableFromInline
    final let readers = Atomic<Int>(0)

    /// Set by the emitter that delivers the completion, read by later emitters: a
    /// CurrentValueSubject's lock-free send checks it to leave the value alone once completed.
    @exclusivity(unchecked) @usableFromInline
    final var completedByEmitter = false

    /// The subscriber list the emitter walks: `publishedCount` unowned references, a copy of
    /// `state.conduits` as of the last refresh. Copying references without retaining them keeps
    /// subscribe and cancel free of reference counting on the list; the conduits stay alive
    /// because every conduit in it is also in `state.conduits`, or, once removed while someone
    /// emits, in `state.released` until the emitter refreshes the list. The buffer is only
    /// replaced by a refresh, which never happens during a walk.
    @exclusivity(unchecked) @usableFromInline
    final var publishedBase: UnsafeMutablePointer<Unmanaged<SubjectConduitCore>>?

    @exclusivity(unchecked) @usableFromInline
    final var publishedCount = 0

    @exclusivity(unchecked)
    final var publishedCapacity = 0

    /// Whether a sent value becomes the current value only once every subscriber has received
    /// it (`@Published`, whose subscribers run in the property's `willSet` and so still read the
    /// old value), rather than before the delivery (`CurrentValueSubject`). Such a dispatcher
    /// sends with `sendThenStore(_:)` and gives a new subscriber the value current when its
    /// first value is delivered, not when it was asked for: a delivery in progress on another
    /// thread may not have stored its value yet when the request is made.
    @usableFromInline
    final let storesAfterDelivery: Bool

    /// Whether `send(_:)` may take the role without the mutex. When it may not (the subject
    /// always updates its state under the mutex when sending), every role taker holds the mutex,
    /// so one that finds the role free can take it with a plain store instead of a
    /// read-modify-write.
    @usableFromInline
    final let sendsWithoutLock: Bool

    /// The subject's name as `print()` shows its subscriptions.
    @usableFromInline
    final let name: StaticString

    /// Whether a subscriber's first request, of any size, opens it to every later value
    /// (`ObservableObjectPublisher`, whose subscriptions do not count demand, as Apple's).
    @usableFromInline
    final let opensOnFirstRequest: Bool

    /// Runs a queued value, a current value for one subscriber, or the end of a handshake: the
    /// jobs that need the subscribers' value type. Made in the subclass's `init`, so compiled for
    /// the concrete types; it captures nothing. Completions the core delivers itself.
    @usableFromInline
    final let runJob: (SubjectDispatcherCore, SubjectJob) -> Void

    /// A subscriber's `request(_:)` for a subject with a current value, which it may have to
    /// give at once (made in the subclass's `init`, as ``runJob``); `nil` for the other subjects,
    /// whose request the core handles alone (``request(_:for:)``).
    @usableFromInline
    final let requestHook: ((SubjectConduitCore, Subscribers.Demand) -> Void)?

    @usableFromInline
    init(
        name: StaticString, sendsWithoutLock: Bool, opensOnFirstRequest: Bool, storesAfterDelivery: Bool,
        runJob: @escaping (SubjectDispatcherCore, SubjectJob) -> Void,
        requestHook: ((SubjectConduitCore, Subscribers.Demand) -> Void)?
    ) {
        self.name = name
        self.sendsWithoutLock = sendsWithoutLock
        self.opensOnFirstRequest = opensOnFirstRequest
        self.storesAfterDelivery = storesAfterDelivery
        self.runJob = runJob
        self.requestHook = requestHook
    }

    deinit {
        publishedBase?.deallocate()
    }

    // MARK: The published list

    /// Makes the published list match `state.conduits`. Under the mutex, by the emitter or while
    /// nobody emits.
    final func refreshLocked(_ state: inout State) {
        guard state.stale else { return }
        state.stale = false
        publish(state.conduits)
    }

    final func publish(_ conduits: ContiguousArray<SubjectConduitCore>) {
        let count = conduits.count
        if count > publishedCapacity {
            publishedBase?.deallocate()
            publishedCapacity = Swift.max(count, publishedCapacity * 2, 4)
            publishedBase = .allocate(capacity: publishedCapacity)
        }
        if let base = publishedBase {
            conduits.withUnsafeBufferPointer { buffer in
                UnsafeRawPointer(buffer.baseAddress)?.withMemoryRebound(
                    to: Unmanaged<SubjectConduitCore>.self, capacity: count
                ) {
                    base.update(from: $0, count: count)
                }
            }
        }
        publishedCount = count
    }

    /// Appends `conduit` to the published list, which matches `state.conduits` but for that last
    /// entry. By the role's holder, under the mutex. The buffer doubles when it is full, so a
    /// subscription costs the same however many there are (copying the whole list for each one
    /// made subscribing thousands of subscribers to one subject quadratic).
    final func appendPublished(_ conduit: SubjectConduitCore) {
        if publishedCount == publishedCapacity {
            let capacity = Swift.max(publishedCapacity * 2, 4)
            let grown = UnsafeMutablePointer<Unmanaged<SubjectConduitCore>>.allocate(capacity: capacity)
            if let base = publishedBase {
                grown.initialize(from: base, count: publishedCount)
                base.deallocate()
            }
            publishedBase = grown
            publishedCapacity = capacity
        }
        (publishedBase.unsafelyUnwrapped + publishedCount).initialize(to: .passUnretained(conduit))
        publishedCount += 1
    }

    /// Removes the entry at `index` from the published list, which matches `state.conduits` as
    /// it was before that entry left it. While nobody emits, under the mutex. Later entries move
    /// down one place, so subscribers keep receiving in the order they subscribed.
    final func removePublished(at index: Int) {
        guard let base = publishedBase else { return }
        (base + index).update(from: base + index + 1, count: publishedCount - index - 1)
        publishedCount -= 1
    }

    // MARK: The emitter role

    /// Under the mutex: takes the emitter role if nobody holds it, or finds that the calling
    /// thread holds it; otherwise leaves the attention flag raised for the emitter (the caller
    /// then queues its job).
    final func takeRoleLocked(_ state: inout State) -> Grant {
        let grant = role.claimLocked(racingLockFreeTakers: sendsWithoutLock)
        if grant == .taken { refreshLocked(&state) }
        return grant
    }

    /// ``takeRoleLocked(_:)``, queueing `job` when another thread holds the role (its ticket in
    /// `ticket`, for ``waitUntilRun(_:)``). A nested caller gets the list as it is now in
    /// `nestedList`: the published one may be stale (it is only refreshed between deliveries), and
    /// Apple's subjects reach subscribers added meanwhile.
    @usableFromInline
    final func takeRoleOrQueueLocked(
        _ state: inout State, _ job: SubjectJob, nestedList: inout ContiguousArray<SubjectConduitCore>,
        ticket: inout DeliveryTickets.Ticket
    ) -> Grant {
        let grant = takeRoleLocked(&state)
        switch grant {
        case .taken: break
        case .nested: nestedList = state.conduits
        case .busy: ticket = queueLocked(&state, job)
        }
        return grant
    }

    /// ``takeRoleOrQueueLocked(_:_:nestedList:ticket:)`` for a caller that does not walk the list
    /// when nested.
    @usableFromInline
    final func takeRoleOrQueueLocked(
        _ state: inout State, _ job: SubjectJob, ticket: inout DeliveryTickets.Ticket
    ) -> Grant {
        let grant = takeRoleLocked(&state)
        if grant == .busy { ticket = queueLocked(&state, job) }
        return grant
    }

    /// Queues `job` for the emitter and returns its ticket.
    final func queueLocked(_ state: inout State, _ job: SubjectJob) -> DeliveryTickets.Ticket {
        state.jobs.append(job)
        return state.tickets.enter()
    }

    /// Sleeps until the emitter has run the job with `ticket`: a thread that sends while another
    /// thread delivers returns once its own value (or completion, or handshake) has been
    /// delivered, as with Apple's subjects. The queue therefore holds at most one job per waiting
    /// thread, and the wait lasts until the emitter's current delivery ends plus the jobs queued
    /// before this one. The subjects never end a turn with a job still queued, so a ticket is
    /// settled only once its job has run: a value queued by address stays valid until then
    /// (see ``SubjectJob``).
    @usableFromInline
    final func waitUntilRun(_ ticket: DeliveryTickets.Ticket) {
        state.waitUntilSettled(ticket)
    }

    /// Gives the role back, first running every queued job.
    @inlinable @inline(__always)
    final func giveBackRole() {
        if role.tryGiveBackWithoutLock() { return }
        drain()
    }

    /// The slow end of the emitter's turn: runs queued jobs until there are none, refreshes the
    /// list, releases the subscribers of conduits cancelled meanwhile, and frees the role. The
    /// loop and its bookkeeping are the same for every subject, so they are compiled once here;
    /// a job that needs the value type goes through ``runJob``.
    @usableFromInline
    final func drain() {
        var ranJob = false
        while true {
            var released = ContiguousArray<SubjectConduitCore>()
            var completed = ContiguousArray<SubjectConduitCore>()
            var completion: AnyObject?
            let job = state.withLock { state -> SubjectJob? in
                if ranJob {
                    // The job just run is done: its sender may return.
                    state.tickets.markDelivered()
                }
                refreshLocked(&state)
                if let job = state.jobs.popFirst() {
                    if job.kind == .completion {
                        completed = takeAllLocked(&state)
                        completion = state.completion
                    }
                    return job
                }
                swap(&released, &state.released)
                role.storeLocked(0)
                return nil
            }
            guard let job else {
                // No one else touches a released conduit's subscriber: it is out of the list and
                // no longer accepting, so no later emitter looks at it.
                for conduit in released {
                    _ = conduit.takeSubscriber()
                }
                return
            }
            if let completion {
                completedByEmitter = true
                for conduit in completed {
                    emit(completion: completion, to: conduit)
                }
            } else {
                runJob(self, job)
            }
            ranJob = true
        }
    }

    // MARK: Subscribing and cancelling

    /// The bookkeeping of a new subscription, under the mutex: adds `conduit` to the list, holds
    /// `parent` for it, and takes the role for its handshake when it can. Returns `nil` when the
    /// subject has completed (the completion is then in `state.completion`, for good).
    @usableFromInline
    final func enlist(_ conduit: SubjectConduitCore, parent: AnyObject) -> Grant? {
        state.withLock { state -> Grant? in
            if state.completion != nil { return nil }
            if state.live == 0 {
                state.owner = parent
            }
            state.live += 1
            let grant = takeRoleLocked(&state)
            state.conduits.append(conduit)
            if grant == .taken {
                if !state.stale, publishedCount == state.conduits.count - 1 {
                    appendPublished(conduit)
                } else {
                    state.stale = false
                    publish(state.conduits)
                }
            } else {
                state.stale = true
            }
            if grant != .busy {
                conduit.guarded.handshaking = false
            }
            return grant
        }
    }

    /// The completion kept for subscribers that arrive after it (see ``enlist(_:parent:)``):
    /// set once under the mutex and never changed after, so a caller that found it set there may
    /// read it.
    @usableFromInline
    final var completionForLateSubscribers: AnyObject {
        state.withLock { $0.completion.unsafelyUnwrapped }
    }

    /// Ends `conduit`'s handshake. When nothing waits for delivery this is a flag flip under the
    /// mutex and the answer is `nil`; otherwise the deliveries need the emitter role: taken now
    /// (the caller delivers what waited) or left as a job, which this waits for (then `nil` too).
    final func endHandshake(_ conduit: SubjectConduitCore) -> Grant? {
        var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
        let grant = state.withLock { state -> Grant? in
            if !conduit.guarded.hasPending {
                conduit.guarded.handshaking = false
                conduit.updateFastLocked()
                return nil
            }
            return takeRoleOrQueueLocked(
                &state, SubjectJob(kind: .activate, conduit: conduit, value: nil), ticket: &ticket)
        }
        if grant == .busy {
            waitUntilRun(ticket)
            return nil
        }
        return grant
    }

    /// Ends `conduit`'s handshake after its `receive(subscription:)` returned while another
    /// thread held the role (see ``endHandshake(_:)``); what waited for it is delivered by the
    /// subclass's ``runJob``, as the job that would have done it in the queue.
    @usableFromInline
    final func activate(_ conduit: SubjectConduitCore) {
        guard let grant = endHandshake(conduit) else { return }
        runJob(self, SubjectJob(kind: .activate, conduit: conduit, value: nil))
        if grant == .taken { giveBackRole() }
    }

    /// The handshake of `conduit` is over: marks it so and takes what waited for it, in arrival
    /// order. The caller holds the role.
    @usableFromInline
    final func takeWaitingEndingHandshake(_ conduit: SubjectConduitCore) -> ContiguousArray<SubjectPendingEvent> {
        state.withLock { state in
            conduit.guarded.handshaking = false
            conduit.updateFastLocked()
            return takePendingLocked(for: conduit, &state)
        }
    }

    /// Under the mutex: `conduit`'s subscription stops accepting (and leaves the lock-free path).
    /// When it was the last live one, the dispatcher's hold on the subject moves to `owner`, for
    /// the caller to release after the mutex (it may be the subject's last reference).
    final func endLiveLocked(_ conduit: SubjectConduitCore, _ state: inout State, releasing owner: inout AnyObject?) {
        conduit.guarded.accepting = false
        conduit.updateFastLocked()
        state.live -= 1
        if state.live == 0 {
            swap(&owner, &state.owner)
        }
    }

    /// Under the mutex: keeps `event` for its conduit until the conduit's handshake is over.
    @usableFromInline
    final func holdLocked(_ event: SubjectPendingEvent, _ state: inout State) {
        state.pending.append(event)
        event.conduit.guarded.hasPending = true
    }

    /// Under the mutex: takes what waits for `conduit` out of `pending`, in arrival order.
    final func takePendingLocked(for conduit: SubjectConduitCore, _ state: inout State)
        -> ContiguousArray<SubjectPendingEvent>
    {
        var taken = ContiguousArray<SubjectPendingEvent>()
        guard conduit.guarded.hasPending else { return taken }
        conduit.guarded.hasPending = false
        var kept = ContiguousArray<SubjectPendingEvent>()
        for event in state.pending {
            if event.conduit === conduit {
                taken.append(event)
            } else {
                kept.append(event)
            }
        }
        swap(&kept, &state.pending)
        return taken
    }

    /// Removes a cancelled conduit. Returns whether the caller may release its subscriber now;
    /// otherwise the emitter does when its turn ends. The list's reference moves to `removed`, for
    /// the caller to drop after the mutex: it may be the conduit's last one, and a conduit that
    /// holds its subscriber releases it when it goes.
    final func removeLocked(_ state: inout State, _ conduit: SubjectConduitCore, removed: inout SubjectConduitCore?) -> Bool {
        // An emitter that starts after this (lock-free) never sees the conduit: it is out of the
        // published list, or was never in it.
        let emitting: Bool
        if let index = state.conduits.firstIndex(where: { $0 === conduit }) {
            // Without an emitter the change is published at once; with one, the emitter
            // publishes it when its turn ends.
            let before = role.raiseLocked(AtomicDeliveryRole.attentionFlag)
            removed = state.conduits.remove(at: index)
            if before & AtomicDeliveryRole.heldFlag != 0 {
                state.stale = true
                emitting = true
            } else {
                if !state.stale, publishedCount == state.conduits.count + 1 {
                    removePublished(at: index)
                } else {
                    state.stale = false
                    publish(state.conduits)
                }
                role.storeLocked(0)
                emitting = false
            }
        } else {
            emitting = role.isHeld
        }
        if emitting {
            state.released.append(conduit)
            _ = role.raiseLocked(AtomicDeliveryRole.attentionFlag)
            return false
        }
        return true
    }

    /// Empties the list for a completion; under the mutex, by the emitter.
    final func takeAllLocked(_ state: inout State) -> ContiguousArray<SubjectConduitCore> {
        var taken = ContiguousArray<SubjectConduitCore>()
        swap(&taken, &state.conduits)
        publish([])
        state.stale = false
        return taken
    }

    /// The subscriber's `cancel`: nothing more reaches it; everything released here (subscriber,
    /// subject, waiting values, the list's reference to the conduit) is dropped after the mutex
    /// is left.
    @usableFromInline
    final func cancel(_ conduit: SubjectConduitCore) {
        var parent: AnyObject?
        var waiting = ContiguousArray<SubjectPendingEvent>()
        var removed: SubjectConduitCore?
        let releaseNow = state.withLock { state -> Bool in
            guard conduit.guarded.accepting else { return false }
            endLiveLocked(conduit, &state, releasing: &parent)
            waiting = takePendingLocked(for: conduit, &state)
            return removeLocked(&state, conduit, removed: &removed)
        }
        if releaseNow {
            _ = conduit.takeSubscriber()
        }
        _ = parent
        _ = waiting
        _ = removed
    }

    // MARK: Demand

    /// Under the mutex: adds a subscriber's request to its conduit. Returns whether the subject's
    /// first-demand rule is due: on the subscriber's first request, or on one after values went
    /// by without demand (a subject with a current value then gives it).
    @usableFromInline
    final func recordRequestLocked(_ demand: Subscribers.Demand, for conduit: SubjectConduitCore) -> Bool {
        guard conduit.guarded.accepting else { return false }
        conduit.guarded.demand += opensOnFirstRequest ? .unlimited : demand
        conduit.updateFastLocked()
        guard !conduit.guarded.reportedDemand || conduit.guarded.missedValue else { return false }
        conduit.guarded.reportedDemand = true
        conduit.guarded.missedValue = false
        return true
    }

    /// The subscriber's `request` for a subject without a current value: adds demand; on the
    /// first demand of any subscriber, the subject asks its upstreams for values.
    final func request(_ demand: Subscribers.Demand, for conduit: SubjectConduitCore) {
        let upstreams = state.withLock { state -> [any Subscription]? in
            guard recordRequestLocked(demand, for: conduit) else { return nil }
            return state.upstreams.recordDemand()
        }
        if let upstreams {
            for upstream in upstreams {
                upstream.request(.unlimited)
            }
        }
    }

    /// Under the mutex: whether a value goes to `conduit` now, counting it against the
    /// subscriber's demand. A conduit in its handshake keeps it (`hold` boxes it) until the
    /// handshake is over; one without demand drops it and notes that it missed a value. The
    /// emitter's path for subscribers without unlimited demand; the caller holds the role.
    @usableFromInline
    final func countForDelivery(_ conduit: SubjectConduitCore, hold: () -> AnyObject) -> Bool {
        state.withLock { state -> Bool in
            guard conduit.guarded.accepting, conduit.guarded.demand.rawValue != 0 else {
                if conduit.guarded.accepting { conduit.guarded.missedValue = true }
                return false
            }
            conduit.guarded.demand -= 1
            if conduit.guarded.handshaking {
                holdLocked(SubjectPendingEvent(conduit: conduit, completion: false, payload: hold()), &state)
                return false
            }
            return true
        }
    }

    /// Adds the demand a subscriber returned from `receive(_:)`.
    @inlinable
    final func addDemand(_ extra: Subscribers.Demand, to conduit: SubjectConduitCore) {
        guard extra.rawValue != 0 else { return }
        addNonZeroDemand(extra, to: conduit)
    }

    @usableFromInline
    final func addNonZeroDemand(_ extra: Subscribers.Demand, to conduit: SubjectConduitCore) {
        state.withLock { _ in
            guard conduit.guarded.accepting else { return }
            conduit.guarded.demand += extra
            conduit.updateFastLocked()
        }
    }

    // MARK: Completion

    /// Ends the stream for every current subscriber and every later one, and lets go of the
    /// upstreams (they completed it or will be dropped with it). `completion` is the boxed
    /// completion (see `State.completion`).
    @usableFromInline
    final func complete(with completion: AnyObject) {
        var taken = ContiguousArray<SubjectConduitCore>()
        var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
        var upstreams: [any Subscription] = []
        let grant = state.withLock { state -> Grant? in
            guard state.completion == nil else { return nil }
            state.completion = completion
            // Released after the mutex: a subscription's deinit may be anyone's code.
            swap(&upstreams, &state.upstreams.subscriptions)
            let grant = takeRoleLocked(&state)
            switch grant {
            case .taken:
                taken = takeAllLocked(&state)
            case .nested:
                taken = takeAllLocked(&state)
                // The delivery this one is nested in still walks the published list.
                state.released.append(contentsOf: taken)
            case .busy:
                ticket = queueLocked(&state, SubjectJob(kind: .completion, conduit: nil, value: nil))
            }
            return grant
        }
        _ = upstreams
        guard let grant else { return }
        switch grant {
        case .busy:
            waitUntilRun(ticket)
        case .taken:
            completedByEmitter = true
            for conduit in taken {
                emit(completion: completion, to: conduit)
            }
            giveBackRole()
        case .nested:
            // Sent from inside a delivery of this subject: the subscriber being called may be
            // kept by nothing but its conduit, and its call is still running. Its subscriber is
            // let go of by the emitter when its turn ends (the conduits wait in `released`).
            completedByEmitter = true
            for conduit in taken {
                emit(completion: completion, to: conduit, releasingSubscriber: false)
            }
        }
    }

    /// Offers the completion; afterwards the conduit lets go of its subscriber (unless
    /// `releasingSubscriber` is false: the emitter does it when its turn ends), and the
    /// dispatcher of the subject if this was its last live subscription. The caller holds the
    /// role.
    final func emit(completion: AnyObject, to conduit: SubjectConduitCore, releasingSubscriber: Bool = true) {
        var parent: AnyObject?
        let deliverNow = state.withLock { state -> Bool in
            guard conduit.guarded.accepting else { return false }
            endLiveLocked(conduit, &state, releasing: &parent)
            if conduit.guarded.handshaking {
                holdLocked(SubjectPendingEvent(conduit: conduit, completion: true, payload: completion), &state)
                return false
            }
            return true
        }
        _ = parent
        guard deliverNow else { return }
        conduit.receiveCompletion(completion)
        if releasingSubscriber { _ = conduit.takeSubscriber() }
    }
}

/// Work for the emitter, queued by a thread that found another one delivering. Its sender
/// sleeps until the job has run (``SubjectDispatcherCore/waitUntilRun(_:)``), so a value is
/// queued by its address on the sender's stack rather than copied into a box: the queue needs
/// no type of value and no allocation.
@usableFromInline
struct SubjectJob {
    @usableFromInline
    enum Kind {
        /// A value for every subscriber; `value` points at an `Output`.
        case value
        /// The completion for every subscriber (in the core's state); the list is taken when the
        /// job runs, so values queued before it still reach everyone.
        case completion
        /// `conduit`'s `receive(subscription:)` has returned: it may now be called.
        case activate
        /// One value for `conduit` (a current value on its first demand); `value` points at an
        /// `Output?` that holds it.
        case single
    }

    @usableFromInline let kind: Kind
    @usableFromInline let conduit: SubjectConduitCore?
    @usableFromInline let value: UnsafeRawPointer?

    @inlinable
    init(kind: Kind, conduit: SubjectConduitCore?, value: UnsafeRawPointer?) {
        self.kind = kind
        self.conduit = conduit
        self.value = value
    }
}

/// Something that waits for the end of a conduit's handshake: a value in a
/// `SubjectValueBox<Output>`, or the subject's boxed completion.
@usableFromInline
struct SubjectPendingEvent {
    @usableFromInline let conduit: SubjectConduitCore
    @usableFromInline let completion: Bool
    @usableFromInline let payload: AnyObject

    @inlinable
    init(conduit: SubjectConduitCore, completion: Bool, payload: AnyObject) {
        self.conduit = conduit
        self.completion = completion
        self.payload = payload
    }
}

/// A value handed to the non-generic half of a subject's dispatcher as an object: a completion
/// (once per subject) or a value that waits for a handshake (only when a subscriber's handshake
/// overlaps another thread's delivery). The generic half, which knows `Value`, unwraps it with
/// `unsafeDowncast`.
@usableFromInline
final class SubjectValueBox<Value> {
    @usableFromInline
    let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

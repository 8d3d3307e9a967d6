import Synchronization

import TributaryLocks

// The machinery every subject shares (PassthroughSubject, CurrentValueSubject,
// ObservableObjectPublisher and @Published): the subscriber list and who delivers to it.
//
// One thread at a time is the subject's *emitter*: only the emitter calls into the subscribers.
// A value sent while nobody emits makes the sending thread the emitter. One sent while another
// thread emits is queued as a job and delivered by the emitter right after what it is doing, in
// the order the jobs were queued; its sender sleeps until then (``waitUntilRun(_:)``), as Apple's
// senders wait, so the queue never holds more than one job per waiting thread. One sent by the
// emitter itself, from inside a subscriber, is
// delivered at once, nested in the delivery in progress, as Apple's subjects do (the emitter's
// thread token is kept in the role's word for that check). Completion, the end of a subscription
// handshake and a CurrentValueSubject's first value to a new subscriber follow the same rule, so
// everything that reaches one subscriber is serialized by the same role, without holding a lock
// while calling out. A subscriber's handshake (`receive(subscription:)`) runs with the role held by the
// subscribing thread when it can, so what the subscriber asks for there arrives at once too.
//
// The role is an `AtomicDeliveryRole`. With a subscriber list that has not changed and no job
// waiting, a PassthroughSubject send costs one compare-and-swap to take the role and one to give
// it back, whatever the number of subscribers: subscribers with unlimited demand are called
// without any further atomic read-modify-write or reference counting. Everything else (finite
// demand, handshakes, cancellation, completion) takes the subject's mutex, which also guards each
// conduit's bookkeeping, so a subscription costs no lock of its own.
//
// A CurrentValueSubject also keeps its current value here, outside the mutex, so that a send costs
// the same two compare-and-swaps: the one that takes the role also raises the role's writing
// flag, which freezes the role's word while the value is replaced (everyone else who changes it
// waits for the flag to clear), so the sender clears it again with a plain store. Readers of the value announce
// themselves in `readers` and back off while a writer holds the bit; a writer waits for the
// readers it finds. Both waits last for one copy of the value, never for user code: the replaced
// value is released when its send returns.

/// The subscriber list of one subject, its job queue, and the emitter role.
///
/// `Extra` is the owning subject's own state (the upstream subscriptions a subject was given, a
/// `@Published` property's value…), kept under the same mutex so that a send updates it and takes
/// the emitter role in one critical section.
@usableFromInline
final class SubjectDispatcher<Output, Failure: Error, Extra>: @unchecked Sendable {
    // @unchecked Sendable: `state` is guarded by its mutex; the `published…` fields are written
    // under the mutex while nobody emits, or by the emitter under the mutex, and read by the
    // emitter only.

    /// Work for the emitter.
    @usableFromInline
    enum Job {
        /// A value for every subscriber.
        case value(Output)
        /// The completion for every subscriber; the list is taken when the job runs, so values
        /// queued before it still reach everyone.
        case completion(Subscribers.Completion<Failure>)
        /// The subscriber's `receive(subscription:)` has returned: it may now be called.
        case activate(Conduit)
        /// One value for one subscriber (a CurrentValueSubject's value on the first demand).
        case single(Conduit, Output)
    }

    /// What a thread that wants to call the subscribers may do: ``AtomicDeliveryRole/Claim``, whose
    /// three answers the atomic role word below gives without the mutex. `.taken`: it calls the
    /// subscribers, then gives the role back. `.nested`: a call from inside a subscriber, made
    /// now, nested in the delivery in progress (the outer call keeps the role). `.busy`: the job
    /// is queued for the thread that holds the role, and the caller waits until it has run.
    @usableFromInline
    typealias Grant = AtomicDeliveryRole.Claim

    @usableFromInline
    struct State: DeliveryTicketing {
        @usableFromInline var extra: Extra
        @usableFromInline var conduits: ContiguousArray<Conduit> = []
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var jobs = DeliveryQueue<Job>()
        /// `conduits` changed while someone was emitting; the published list is refreshed when
        /// the emitter next takes the mutex.
        @usableFromInline var stale = false
        /// Cancelled while someone was emitting: the emitter releases their subscribers.
        @usableFromInline var released: ContiguousArray<Conduit> = []
        /// The queued jobs' senders wait on these until the emitter has run their job (see
        /// ``SubjectDispatcher/waitUntilRun(_:)``).
        @usableFromInline var tickets = DeliveryTickets()
        /// What arrived for conduits still in their handshake, in arrival order. Kept here rather
        /// than in each conduit: it is needed only when a subscriber's handshake overlaps another
        /// thread's delivery, and a field in every conduit would cost every subscription.
        @usableFromInline var pending = ContiguousArray<(Conduit, Conduit.Event)>()
        /// The subject, held while any of its subscriptions is live (accepting), as Apple's
        /// subscriptions keep their subject alive until cancelled or completed. One reference for
        /// all of them instead of one in every conduit; released with the last one.
        @usableFromInline var owner: AnyObject?
        /// How many conduits are accepting.
        @usableFromInline var live = 0

        @inlinable
        init(extra: Extra) {
            self.extra = extra
        }
    }

    @usableFromInline
    let state: LockedState<State>

    /// The emitter role. Its attention flag is raised under the mutex when the emitter must take
    /// the mutex before giving the role back: a job is queued, the list changed, or subscribers
    /// wait to be released. Without an emitter, whoever raises it settles it before leaving the
    /// mutex, so a free role is always `0`: free and up to date.
    @usableFromInline
    let role = AtomicDeliveryRole()

    /// A CurrentValueSubject's current value (`nil` for the other subjects). Written only while
    /// the writer holds the role's writing flag and no reader is counted in `readers`; read only
    /// by a reader counted there while the flag is clear (see ``readCurrent()``).
    @exclusivity(unchecked) @usableFromInline
    var currentValue: Output?

    /// How many threads are copying `currentValue` right now.
    @usableFromInline
    let readers = Atomic<Int>(0)

    /// Set by the emitter that delivers the completion, read by later emitters: a
    /// CurrentValueSubject's lock-free send checks it to leave the value alone once completed.
    @exclusivity(unchecked) @usableFromInline
    var completedByEmitter = false

    /// The subscriber list the emitter walks: `publishedCount` unowned references, a copy of
    /// `state.conduits` as of the last refresh. Copying references without retaining them keeps
    /// subscribe and cancel free of reference counting on the list; the conduits stay alive
    /// because every conduit in it is also in `state.conduits`, or, once removed while someone
    /// emits, in `state.released` until the emitter refreshes the list. The buffer is only
    /// replaced by a refresh, which never happens during a walk.
    @exclusivity(unchecked) @usableFromInline
    var publishedBase: UnsafeMutablePointer<Unmanaged<Conduit>>?

    @exclusivity(unchecked) @usableFromInline
    var publishedCount = 0

    @exclusivity(unchecked) @usableFromInline
    var publishedCapacity = 0

    /// Whether a sent value becomes the current value only once every subscriber has received
    /// it (`@Published`, whose subscribers run in the property's `willSet` and so still read the
    /// old value), rather than before the delivery (`CurrentValueSubject`). Such a dispatcher
    /// sends with ``sendThenStore(_:)`` and gives a new subscriber the value current when its
    /// first value is delivered, not when it was asked for: a delivery in progress on another
    /// thread may not have stored its value yet when the request is made.
    @usableFromInline
    let storesAfterDelivery: Bool

    /// Whether ``send(_:)`` may take the role without the mutex. When it may not (the subject
    /// always updates its state under the mutex when sending), every role taker holds the mutex,
    /// so one that finds the role free can take it with a plain store instead of a
    /// read-modify-write.
    @usableFromInline
    let sendsWithoutLock: Bool

    /// The subject's name as `print()` shows its subscriptions.
    @usableFromInline
    let name: StaticString

    /// Whether a subscriber's first request, of any size, opens it to every later value
    /// (`ObservableObjectPublisher`, whose subscriptions do not count demand, as Apple's).
    @usableFromInline
    let opensOnFirstRequest: Bool

    /// What the subject does on the first demand of any of its subscribers, under the mutex (it
    /// gets the dispatcher too, for a current value kept outside the mutex): returns the value to
    /// give that subscriber first (a current value) and the upstream subscriptions to ask for
    /// values (`nil` rather than an empty array: this runs on every subscription, and an optional
    /// costs no reference counting).
    @usableFromInline
    let firstDemand: (SubjectDispatcher, inout Extra) -> (Output?, [any Subscription]?)

    /// ``request(_:for:)`` and ``cancel(_:)``, compiled for the concrete types. A subscriber
    /// reaches `request(_:)` and `cancel()` through the `Subscription` existential, where the
    /// generic conduit runs unspecialised; these closures capture nothing and run specialised code
    /// instead. Kept here, once per subject, rather than in every conduit.
    @usableFromInline
    let requestHook: (Conduit, Subscribers.Demand) -> Void

    /// See ``requestHook``.
    @usableFromInline
    let cancelHook: (Conduit) -> Void

    @inlinable
    init(
        _ extra: Extra, name: StaticString, sendsWithoutLock: Bool, currentValue: Output? = nil,
        opensOnFirstRequest: Bool = false,
        storesAfterDelivery: Bool = false,
        firstDemand: @escaping (SubjectDispatcher, inout Extra) -> (Output?, [any Subscription]?)
    ) {
        state = LockedState(State(extra: extra))
        self.name = name
        self.currentValue = currentValue
        self.sendsWithoutLock = sendsWithoutLock
        self.opensOnFirstRequest = opensOnFirstRequest
        self.firstDemand = firstDemand
        self.storesAfterDelivery = storesAfterDelivery
        requestHook = { conduit, demand in conduit.dispatcher.request(demand, for: conduit) }
        cancelHook = { conduit in conduit.dispatcher.cancel(conduit) }
    }

    deinit {
        publishedBase?.deallocate()
    }

    // MARK: The emitter role

    /// Makes the published list match `state.conduits`. Under the mutex, by the emitter or while
    /// nobody emits.
    @inlinable
    func refreshLocked(_ state: inout State) {
        guard state.stale else { return }
        state.stale = false
        publish(state.conduits)
    }

    @inlinable
    func publish(_ conduits: ContiguousArray<Conduit>) {
        let count = conduits.count
        if count > publishedCapacity {
            publishedBase?.deallocate()
            publishedCapacity = Swift.max(count, publishedCapacity * 2, 4)
            publishedBase = .allocate(capacity: publishedCapacity)
        }
        if let base = publishedBase {
            conduits.withUnsafeBufferPointer { buffer in
                UnsafeRawPointer(buffer.baseAddress)?.withMemoryRebound(to: Unmanaged<Conduit>.self, capacity: count) {
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
    @inlinable
    func appendPublished(_ conduit: Conduit) {
        if publishedCount == publishedCapacity {
            let capacity = Swift.max(publishedCapacity * 2, 4)
            let grown = UnsafeMutablePointer<Unmanaged<Conduit>>.allocate(capacity: capacity)
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
    @inlinable
    func removePublished(at index: Int) {
        guard let base = publishedBase else { return }
        (base + index).update(from: base + index + 1, count: publishedCount - index - 1)
        publishedCount -= 1
    }

    /// Under the mutex: takes the emitter role if nobody holds it, or finds that the calling
    /// thread holds it; otherwise leaves the attention flag raised for the emitter (the caller
    /// then queues its job).
    @inlinable
    func takeRoleLocked(_ state: inout State) -> Grant {
        let grant = role.claimLocked(racingLockFreeTakers: sendsWithoutLock)
        if grant == .taken { refreshLocked(&state) }
        return grant
    }

    /// Raises the attention flag under the mutex and returns the role's word as it was.
    @inlinable
    func raiseAttentionLocked() -> UInt {
        role.raiseLocked(AtomicDeliveryRole.attentionFlag)
    }

    /// Gives the role back, first running every queued job.
    @inlinable
    func giveBackRole() {
        if role.tryGiveBackWithoutLock() { return }
        drain()
    }

    /// The slow end of the emitter's turn: runs queued jobs until there are none, refreshes the
    /// list, releases the subscribers of conduits cancelled meanwhile, and frees the role.
    /// Specialised with the caller (run generic, it looked up the metadata of the dispatcher's
    /// state, conduit and job types at every call: about 3,000 instructions per subscription to a
    /// `@Published` property), but kept out of line: it is the rare end of every send.
    @inlinable @inline(never)
    func drain() {
        var ranJob = false
        while true {
            var released = ContiguousArray<Conduit>()
            var completed = ContiguousArray<Conduit>()
            let job = state.withLock { state -> Job? in
                if ranJob {
                    // The job just run is done: its sender may return.
                    state.tickets.markDelivered()
                }
                refreshLocked(&state)
                if let job = state.jobs.popFirst() {
                    if case .completion = job {
                        completed = takeAllLocked(&state)
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
            run(job, completed: completed)
            ranJob = true
        }
    }

    /// Performs one job; the caller holds the role.
    @inlinable
    func run(_ job: Job, completed: ContiguousArray<Conduit>) {
        switch job {
        case .value(let value):
            deliver(value)
        case .completion(let completion):
            completedByEmitter = true
            for conduit in completed {
                emit(completion, to: conduit)
            }
        case .activate(let conduit):
            deliverAfterHandshake(conduit)
        case .single(let conduit, let value):
            emitCounted(firstValue(value), to: conduit)
        }
    }

    /// Gives `value` to every subscriber in the published list; the caller holds the role.
    @inlinable @inline(__always)
    func deliver(_ value: Output) {
        deliverToPublished(value)
        afterDelivering(value)
    }

    /// The walk of ``deliver(_:)`` alone, for callers that know there is no `afterValue`.
    @inlinable @inline(__always)
    func deliverToPublished(_ value: Output) {
        guard let base = publishedBase else { return }
        let count = publishedCount
        var index = 0
        while index < count {
            base[index]._withUnsafeGuaranteedRef { emit(value, to: $0) }
            index += 1
        }
    }

    @inlinable @inline(__always)
    func afterDelivering(_ value: Output) {
        if storesAfterDelivery {
            storeAsHolder(value)
        }
    }

    // MARK: Operations the subjects build on

    /// Sends `value`: without the mutex when the role is free and nothing needs attention, else
    /// through it; dropped after completion. Only for dispatchers made with `sendsWithoutLock`
    /// that keep no current value (PassthroughSubject, ObservableObjectPublisher).
    ///
    /// Only the lock-free case is compiled into the caller (see
    /// ``sendReplacingCurrent(_:evenAfterCompletion:)``).
    @inlinable @inline(__always)
    func send(_ value: Output) {
        if role.tryTakeWithoutLock() {
            deliverToPublished(value)
            giveBackRole()
            return
        }
        sendLockedUnlessCompleted(value)
    }

    /// ``send(_:)`` through the mutex.
    @inlinable @inline(never)
    func sendLockedUnlessCompleted(_ value: Output) {
        sendLocked(value) { state in state.completion == nil }
    }

    /// Sends `value` through the mutex, where `update` may change the subject's state first and
    /// decide whether the value is sent at all.
    @inlinable
    func sendLocked(_ value: Output, _ update: (inout State) -> Bool) {
        var nestedList = ContiguousArray<Conduit>()
        var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
        let grant = state.withLock { state -> Grant? in
            guard update(&state) else { return nil }
            return takeRoleOrQueueLocked(&state, .value(value), nestedList: &nestedList, ticket: &ticket)
        }
        deliver(value, grant, nestedList, ticket)
    }

    /// ``takeRoleLocked(_:)``, queueing `job` when another thread holds the role (its ticket in
    /// `ticket`, for ``waitUntilRun(_:)``). A nested caller gets the list as it is now in
    /// `nestedList`: the published one may be stale (it is only refreshed between deliveries), and
    /// Apple's subjects reach subscribers added meanwhile.
    @inlinable
    func takeRoleOrQueueLocked(
        _ state: inout State, _ job: @autoclosure () -> Job, nestedList: inout ContiguousArray<Conduit>,
        ticket: inout DeliveryTickets.Ticket
    ) -> Grant {
        let grant = takeRoleLocked(&state)
        switch grant {
        case .taken: break
        case .nested: nestedList = state.conduits
        case .busy: ticket = queueLocked(&state, job())
        }
        return grant
    }

    /// Queues `job` for the emitter and returns its ticket.
    @inlinable
    func queueLocked(_ state: inout State, _ job: Job) -> DeliveryTickets.Ticket {
        state.jobs.append(job)
        return state.tickets.enter()
    }

    /// Sleeps until the emitter has run the job with `ticket`: a thread that sends while another
    /// thread delivers returns once its own value (or completion, or handshake) has been
    /// delivered, as with Apple's subjects. The queue therefore holds at most one job per waiting
    /// thread, and the wait lasts until the emitter's current delivery ends plus the jobs queued
    /// before this one.
    @inlinable
    func waitUntilRun(_ ticket: DeliveryTickets.Ticket) {
        state.waitUntilSettled(ticket)
    }

    /// Delivers `value` as `grant` allows (`nil`: not at all); for a queued value, waits until
    /// the emitter has delivered it.
    @inlinable
    func deliver(_ value: Output, _ grant: Grant?, _ nestedList: ContiguousArray<Conduit>, _ ticket: DeliveryTickets.Ticket) {
        switch grant {
        case .taken?:
            deliver(value)
            giveBackRole()
        case .nested?:
            for conduit in nestedList {
                emit(value, to: conduit)
            }
            afterDelivering(value)
        case .busy?:
            waitUntilRun(ticket)
        case nil:
            break
        }
    }

    // MARK: A current value (CurrentValueSubject, @Published)

    /// A copy of the current value, without the mutex.
    @inlinable
    func readCurrent() -> Output {
        while true {
            readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
            if !role.isWriting {
                let value = currentValue.unsafelyUnwrapped
                readers.wrappingSubtract(1, ordering: .releasing)
                return value
            }
            readers.wrappingSubtract(1, ordering: .releasing)
            role.waitWhileWriting()
        }
    }

    /// Replaces the current value and sends it. After completion nothing is sent, and the value
    /// is replaced only `evenAfterCompletion` (Apple's `value` setter replaces it, its `send`
    /// does not). With the role free and nothing needing attention this costs one
    /// compare-and-swap to take the role (and the right to write) and one to give it back.
    /// Only for dispatchers that replace the value before delivering it (CurrentValueSubject).
    ///
    /// Only that common case is compiled into the caller, as ``send(_:)`` is: the rest of the
    /// work is a call away, so the caller's send stays small enough to be inlined whole.
    @inlinable @inline(__always)
    func sendReplacingCurrent(_ value: Output, evenAfterCompletion: Bool = false) {
        if role.tryTakeForWritingWithoutLock() {
            // The token goes in when the writing bit is cleared; the word is frozen until then.
            let held = AtomicDeliveryRole.heldByCurrentThread()
            if !completedByEmitter {
                let previous = replaceCurrent(value, restoring: held)
                deliverToPublished(value)
                giveBackRole()
                // Released when the send is over: its deinit may be anyone's code.
                withExtendedLifetime(previous) {}
                return
            }
            replaceAfterCompletionHoldingRole(value, evenAfterCompletion: evenAfterCompletion, restoring: held)
            return
        }
        sendReplacingCurrentLocked(value, evenAfterCompletion: evenAfterCompletion)
    }

    /// ``sendReplacingCurrent(_:evenAfterCompletion:)`` for a caller that took the role for
    /// writing and found the subject completed: nothing is sent, and the value is replaced only
    /// `evenAfterCompletion`.
    @inlinable @inline(never)
    func replaceAfterCompletionHoldingRole(_ value: Output, evenAfterCompletion: Bool, restoring held: UInt) {
        var previous: Output?
        if evenAfterCompletion {
            previous = replaceCurrent(value, restoring: held)
        } else {
            role.endWriting(storing: held)
        }
        giveBackRole()
        withExtendedLifetime(previous) {}
    }

    /// ``sendReplacingCurrent(_:evenAfterCompletion:)`` through the mutex, when the role is held
    /// or something needs attention.
    @inlinable @inline(never)
    func sendReplacingCurrentLocked(_ value: Output, evenAfterCompletion: Bool) {
        var previous: Output?
        var nestedList = ContiguousArray<Conduit>()
        var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
        let grant = state.withLock { state -> Grant? in
            guard state.completion == nil else {
                if evenAfterCompletion {
                    previous = replaceCurrent(value, restoring: role.raiseLocked(AtomicDeliveryRole.writingFlag))
                }
                return nil
            }
            previous = replaceCurrent(value, restoring: role.raiseLocked(AtomicDeliveryRole.writingFlag))
            return takeRoleOrQueueLocked(&state, .value(value), nestedList: &nestedList, ticket: &ticket)
        }
        deliver(value, grant, nestedList, ticket)
        withExtendedLifetime(previous) {}
    }

    /// Sends `value`, then makes it the current value: every subscriber receives it while the
    /// old value is still current (`@Published`, which never completes). With the role free and
    /// nothing needing attention this costs one compare-and-swap to take the role and one that
    /// gives it back and raises the writing flag at once; the flag, which freezes the word, is
    /// cleared with a plain store once the value is in place. Anyone who wants the role meanwhile
    /// waits for that store, so the value is current before the next delivery starts.
    ///
    /// Only the lock-free case is compiled into the caller (see
    /// ``sendReplacingCurrent(_:evenAfterCompletion:)``).
    @inlinable @inline(__always)
    func sendThenStore(_ value: Output) {
        guard role.tryTakeWithoutLock() else {
            return sendThenStoreLocked(value)
        }
        deliverToPublished(value)
        if role.tryGiveBackForWritingWithoutLock() {
            let previous = replaceCurrent(value, restoring: 0)
            // Released when the send is over: its deinit may be anyone's code.
            withExtendedLifetime(previous) {}
            return
        }
        storeThenDrain(value)
    }

    /// ``sendThenStore(_:)`` through the mutex.
    @inlinable @inline(never)
    func sendThenStoreLocked(_ value: Output) {
        sendLocked(value) { _ in true }
    }

    /// The end of ``sendThenStore(_:)`` when something needs the mutex (a queued job, a changed
    /// list): stores the value as the holder, then gives the role back through the mutex.
    @inlinable @inline(never)
    func storeThenDrain(_ value: Output) {
        let previous = storeAsHolder(value)
        drain()
        withExtendedLifetime(previous) {}
    }

    /// Makes `value` the current value after its delivery, by the thread that holds the role
    /// (``storesAfterDelivery``). Returns the replaced value, for the caller to release outside
    /// the freeze.
    @inlinable @discardableResult
    func storeAsHolder(_ value: Output) -> Output? {
        replaceCurrent(value, restoring: role.raiseLocked(AtomicDeliveryRole.writingFlag))
    }

    /// The value a new subscriber receives first, given what was read when it asked: read again
    /// by a dispatcher that ``storesAfterDelivery``, now that the caller holds the role and every
    /// earlier delivery has stored its value.
    @inlinable
    func firstValue(_ readAtRequest: Output) -> Output {
        storesAfterDelivery ? readCurrent() : readAtRequest
    }

    /// Stores `value` as the current value once the readers present have left, then clears
    /// the writing flag by storing `restoring` as the role's word (frozen while the flag is set).
    /// Returns the replaced value for the caller to release afterwards.
    @inlinable
    func replaceCurrent(_ value: Output, restoring: UInt) -> Output? {
        while readers.load(ordering: .sequentiallyConsistent) != 0 {
            spinBriefly()
        }
        var replaced: Output? = value
        swap(&replaced, &currentValue)
        role.endWriting(storing: restoring)
        return replaced
    }

    /// Ends the stream for every current subscriber and every later one. `update` runs under the
    /// mutex when this call is the one that completes (to take the upstreams, say).
    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>, _ update: (inout State) -> Void = { _ in }) {
        var taken = ContiguousArray<Conduit>()
        var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
        let grant = state.withLock { state -> Grant? in
            guard state.completion == nil else { return nil }
            state.completion = completion
            update(&state)
            let grant = takeRoleLocked(&state)
            switch grant {
            case .taken:
                taken = takeAllLocked(&state)
            case .nested:
                taken = takeAllLocked(&state)
                // The delivery this one is nested in still walks the published list.
                state.released.append(contentsOf: taken)
            case .busy:
                ticket = queueLocked(&state, .completion(completion))
            }
            return grant
        }
        guard let grant else { return }
        switch grant {
        case .busy:
            waitUntilRun(ticket)
        case .taken:
            run(.completion(completion), completed: taken)
            giveBackRole()
        case .nested:
            // Sent from inside a delivery of this subject: the subscriber being called may be
            // kept by nothing but its conduit, and its call is still running. Its subscriber is
            // let go of by the emitter when its turn ends (the conduits wait in `released`).
            completedByEmitter = true
            for conduit in taken {
                emit(completion, to: conduit, releasingSubscriber: false)
            }
        }
    }

    /// Empties the list for a completion; under the mutex, by the emitter.
    @inlinable
    func takeAllLocked(_ state: inout State) -> ContiguousArray<Conduit> {
        var taken = ContiguousArray<Conduit>()
        swap(&taken, &state.conduits)
        publish([])
        state.stale = false
        return taken
    }

    /// Adds `conduit` and hands it to `subscriber`; after completion the subscriber gets an empty
    /// subscription and the completion instead.
    ///
    /// The subscribing thread holds the role during `receive(subscription:)` when it can (the role
    /// is free, or it holds it already: a subscription made from inside a subscriber), so that
    /// what the subscriber asks for there (a current value) reaches it at once, nested, as with
    /// Apple's subjects; values other threads send meanwhile wait in the queue. When another
    /// thread holds the role, the conduit stays in its handshake until `receive(subscription:)`
    /// returns, and what arrives for it meanwhile waits in the conduit.
    /// `parent` is the subject, held by the dispatcher while any subscription is live.
    @inlinable
    func attach<S: Subscriber>(_ conduit: Conduit, _ subscriber: S, parent: AnyObject)
    where S.Input == Output, S.Failure == Failure {
        let (completed, grant) = state.withLock { state -> (Subscribers.Completion<Failure>?, Grant) in
            if let completion = state.completion { return (completion, .busy) }
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
            return (nil, grant)
        }
        if let completed {
            _ = conduit.takeSubscriber()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completed)
            return
        }
        subscriber.receive(subscription: conduit)
        switch grant {
        case .taken: giveBackRole()
        case .nested: break
        case .busy: activate(conduit)
        }
    }

    /// Ends `conduit`'s handshake. When nothing waits for delivery this is a flag flip under the
    /// mutex; otherwise the deliveries need the emitter role (taken now, or left as a job).
    @inlinable
    func activate(_ conduit: Conduit) {
        var unused = ContiguousArray<Conduit>()
        var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
        let grant = state.withLock { state -> Grant? in
            if !conduit.guarded.hasPending {
                conduit.guarded.handshaking = false
                updateFastLocked(conduit, conduit.guarded)
                return nil
            }
            return takeRoleOrQueueLocked(&state, .activate(conduit), nestedList: &unused, ticket: &ticket)
        }
        guard let grant else { return }
        if grant == .busy { return waitUntilRun(ticket) }
        deliverAfterHandshake(conduit)
        if grant == .taken { giveBackRole() }
    }

    /// Removes a cancelled conduit. Returns whether the caller may release its subscriber now;
    /// otherwise the emitter does when its turn ends. The list's reference moves to `removed`, for
    /// the caller to drop after the mutex: it may be the conduit's last one, and a conduit that
    /// holds its subscriber releases it when it goes.
    @inlinable
    func removeLocked(_ state: inout State, _ conduit: Conduit, removed: inout Conduit?) -> Bool {
        // An emitter that starts after this (lock-free) never sees the conduit: it is out of the
        // published list, or was never in it.
        let emitting: Bool
        if let index = state.conduits.firstIndex(where: { $0 === conduit }) {
            // Without an emitter the change is published at once; with one, the emitter
            // publishes it when its turn ends.
            let before = raiseAttentionLocked()
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
            _ = raiseAttentionLocked()
            return false
        }
        return true
    }
}

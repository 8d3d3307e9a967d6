import Synchronization

import TributaryLocks

// The machinery every subject shares (PassthroughSubject, CurrentValueSubject,
// ObservableObjectPublisher and @Published): the subscriber list and who delivers to it.
//
// One thread at a time is the subject's *emitter*: only the emitter calls into the subscribers.
// A value sent while nobody emits makes the sending thread the emitter. One sent while another
// thread emits is queued as a job and delivered by the emitter right after what it is doing, in
// the order the jobs were queued; its sender sleeps until then (``SubjectDispatcherCore/waitUntilRun(_:)``), as Apple's
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

/// The subscriber list of one subject, its job queue, and the emitter role: the code that
/// touches the subject's values and calls its subscribers. Everything that does not depend on
/// `Output` or `Failure` (the bookkeeping, the list, the role's decisions) is in its superclass
/// ``SubjectDispatcherCore``, compiled once in the library; this part is what users' builds
/// specialise for each value type, so it holds little besides the per-value paths.
@usableFromInline
final class SubjectDispatcher<Output, Failure: Error>: SubjectDispatcherCore, @unchecked Sendable {
    // @unchecked Sendable: see the core; `currentValue` follows the role's writing protocol.

    /// The completion as the core keeps it.
    @usableFromInline
    typealias CompletionBox = SubjectValueBox<Subscribers.Completion<Failure>>

    /// A CurrentValueSubject's current value (`nil` for the other subjects). Written only while
    /// the writer holds the role's writing flag and no reader is counted in `readers`; read only
    /// by a reader counted there while the flag is clear (see ``readCurrent()``).
    @exclusivity(unchecked) @usableFromInline
    var currentValue: Output?

    /// `currentValue` is given for the subjects that keep one (their subscribers get it on their
    /// first demand, through a request hook compiled for the concrete types here).
    @inlinable
    init(
        name: StaticString, sendsWithoutLock: Bool, currentValue: Output? = nil,
        opensOnFirstRequest: Bool = false, storesAfterDelivery: Bool = false
    ) {
        self.currentValue = currentValue
        // The closures capture nothing: made here, in the subject's specialised `init`, they are
        // the code compiled for the concrete types that the non-generic core calls.
        let requestHook: ((SubjectConduitCore, Subscribers.Demand) -> Void)?
        if currentValue == nil {
            requestHook = nil
        } else {
            requestHook = { conduit, demand in
                unsafeDowncast(conduit.core, to: SubjectDispatcher.self)
                    .requestReceivingCurrent(demand, for: unsafeDowncast(conduit, to: Conduit.self))
            }
        }
        super.init(
            name: name, sendsWithoutLock: sendsWithoutLock, opensOnFirstRequest: opensOnFirstRequest,
            storesAfterDelivery: storesAfterDelivery,
            runJob: { core, job in unsafeDowncast(core, to: SubjectDispatcher.self).run(job) },
            requestHook: requestHook)
    }

    // MARK: The emitter role

    /// Performs one queued job that needs the value type; the caller holds the role. A queued
    /// value is read where its sender keeps it (see ``SubjectJob``).
    @inlinable
    func run(_ job: SubjectJob) {
        switch job.kind {
        case .value:
            deliver(job.value.unsafelyUnwrapped.assumingMemoryBound(to: Output.self).pointee)
        case .single:
            let value = job.value.unsafelyUnwrapped.assumingMemoryBound(to: Output?.self).pointee
            emitCounted(firstValue(value.unsafelyUnwrapped), to: unsafeDowncast(job.conduit.unsafelyUnwrapped, to: Conduit.self))
        case .activate:
            deliverAfterHandshake(unsafeDowncast(job.conduit.unsafelyUnwrapped, to: Conduit.self))
        case .completion:
            // The core delivers completions itself.
            break
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
            // Every conduit of this dispatcher is one of its `Conduit`s. Reinterpreted through
            // `Unmanaged` rather than `unsafeDowncast`, whose check looks up the conduit's
            // metadata for every value in a debug build (an optimised build makes the same code
            // of both).
            Unmanaged<Conduit>.fromOpaque(base[index].toOpaque())._withUnsafeGuaranteedRef { emit(value, to: $0) }
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
        withUnsafePointer(to: value) { pointer in
            var nestedList = ContiguousArray<SubjectConduitCore>()
            var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
            let grant = state.withLock { state -> Grant? in
                guard update(&state) else { return nil }
                // Queued by address: `deliver` waits below until the job has run.
                let job = SubjectJob(kind: .value, conduit: nil, value: UnsafeRawPointer(pointer))
                return takeRoleOrQueueLocked(&state, job, nestedList: &nestedList, ticket: &ticket)
            }
            deliver(value, grant, nestedList, ticket)
        }
    }

    /// Delivers `value` as `grant` allows (`nil`: not at all); for a queued value, waits until
    /// the emitter has delivered it.
    @inlinable
    func deliver(_ value: Output, _ grant: Grant?, _ nestedList: ContiguousArray<SubjectConduitCore>, _ ticket: DeliveryTickets.Ticket) {
        switch grant {
        case .taken?:
            deliver(value)
            giveBackRole()
        case .nested?:
            for conduit in nestedList {
                emit(value, to: unsafeDowncast(conduit, to: Conduit.self))
            }
            afterDelivering(value)
        case .busy?:
            waitUntilRun(ticket)
        case nil:
            break
        }
    }

    /// Ends the stream for every subscriber and lets go of the upstreams (they completed it or
    /// will be dropped with it). The completion is boxed for the core, which does the rest.
    @inlinable
    func completeAndDropUpstreams(_ completion: Subscribers.Completion<Failure>) {
        complete(with: CompletionBox(completion))
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
        sendLocked(value) { state in
            guard state.completion == nil else {
                if evenAfterCompletion {
                    previous = replaceCurrent(value, restoring: role.raiseLocked(AtomicDeliveryRole.writingFlag))
                }
                return false
            }
            previous = replaceCurrent(value, restoring: role.raiseLocked(AtomicDeliveryRole.writingFlag))
            return true
        }
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

    /// Adds `conduit` and hands it to `subscriber`; after completion the subscriber gets an empty
    /// subscription and the completion instead.
    ///
    /// The subscribing thread holds the role during `receive(subscription:)` when it can (the role
    /// is free, or it holds it already: a subscription made from inside a subscriber), so that
    /// what the subscriber asks for there (a current value) reaches it at once, nested, as with
    /// Apple's subjects; values other threads send meanwhile wait in the queue. When another
    /// thread holds the role, the conduit stays in its handshake until `receive(subscription:)`
    /// returns, and what arrives for it meanwhile waits in the dispatcher.
    /// `parent` is the subject, held by the dispatcher while any subscription is live.
    @inlinable
    func attach<S: Subscriber>(_ conduit: Conduit, _ subscriber: S, parent: AnyObject)
    where S.Input == Output, S.Failure == Failure {
        let grant = enlist(conduit, parent: parent)
        // One call of `receive(subscription:)` for both outcomes: this function is compiled for
        // every subscriber type, with that call inlined.
        subscriber.receive(subscription: grant == nil ? Subscriptions.empty : conduit)
        switch grant {
        case nil:
            _ = conduit.takeSubscriber()
            subscriber.receive(completion: unsafeDowncast(completionForLateSubscribers, to: CompletionBox.self).value)
        case .taken?: giveBackRole()
        case .nested?: break
        // Only when another thread delivers meanwhile: compiled once, in the library.
        case .busy?: activate(conduit)
        }
    }
}

import Synchronization
import TributaryLocks

extension SubjectDispatcher {
    /// The subscription a subject gives each subscriber (``PassthroughSubject``,
    /// ``CurrentValueSubject``, ``ObservableObjectPublisher`` and `@Published` all use it).
    ///
    /// The dispatcher keeps its conduits in one plain array, so this class is generic over the
    /// subject's `Output` and `Failure` (and the dispatcher's `Extra`), not over the subscriber.
    /// The per-value call to the subscriber goes through ``receiveValue``, a closure that captures
    /// nothing, built in the subject's `@inlinable` `receive(subscriber:)` and therefore compiled
    /// for the concrete subscriber in the caller's module. Where the subscriber lives depends on
    /// the subscriber (see ``SubjectDispatcher/makeConduit(for:)``): in the conduit itself
    /// (``Folded``) or in a box of its own (``Boxed``). What is the same for every subscription of
    /// one subject (its name, its first-demand rule, the specialised `request` and `cancel`, the
    /// subject itself) is kept once, in the dispatcher, not in each conduit.
    ///
    /// A conduit is part of its dispatcher. Its ``guarded`` fields are the dispatcher's state about
    /// this one subscriber, stored here so that reaching them costs no look-up; only the
    /// dispatcher reads or writes them, under its mutex (the methods in the extension below), and
    /// `fast` is their lock-free summary for the emitter. The conduit itself only forwards
    /// `request` and `cancel` to the dispatcher and offers the emitter a value.
    @usableFromInline
    class Conduit: Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        /// Something waiting for the end of the handshake (in the dispatcher's `pending`).
        @usableFromInline
        enum Event {
            case value(Output)
            case completion(Subscribers.Completion<Failure>)
        }

        /// The dispatcher's bookkeeping for this subscriber, guarded by the dispatcher's mutex.
        @usableFromInline
        struct Guarded {
            /// What the subscriber may still receive; a value without demand is dropped for it.
            @usableFromInline var demand: Subscribers.Demand = .none
            /// False once the completion was taken for delivery or the conduit was cancelled.
            /// While it is set, the dispatcher holds the subject for this subscription (see
            /// `State.owner`).
            @usableFromInline var accepting = true
            /// True until the subscriber's `receive(subscription:)` has returned and the emitter ran
            /// the conduit's `activate` job; values with demand meanwhile wait in the dispatcher's
            /// `pending`.
            @usableFromInline var handshaking = true
            /// Whether this subscriber's first demand has been reported to the subject.
            @usableFromInline var reportedDemand = false
            /// A value was sent while this subscriber had no demand. A subject with a current
            /// value (`CurrentValueSubject`, `@Published`) then gives it the current value on its
            /// next request, as Apple's do: values sent without demand collapse into the latest.
            @usableFromInline var missedValue = false
            /// Something for this conduit waits in the dispatcher's `pending`, so that a conduit
            /// with nothing waiting never searches it.
            @usableFromInline var hasPending = false

            @inlinable
            init() {}
        }

        /// The subject's dispatcher: the conduit's `request`, `cancel` and mirror all go through
        /// it, and it outlives every conduit it made.
        @usableFromInline
        final let dispatcher: SubjectDispatcher

        /// Gives the subscriber a value and returns the demand it adds; the caller passes this
        /// conduit, which the emitter holds unowned, so the call costs no reference counting.
        @usableFromInline
        final let receiveValue: (Conduit, Output) -> Subscribers.Demand

        /// Only under the dispatcher's mutex: through ``SubjectDispatcher/withLock(_:_:)``, or
        /// directly inside a `state.withLock` that also needs the dispatcher's state (`attach` and
        /// `activate`). Hence `@exclusivity(unchecked)`: the mutex already rules out overlapping
        /// access.
        @exclusivity(unchecked) @usableFromInline
        final var guarded = Guarded()

        /// True while the subscriber may be called without the mutex: open, handshake over, demand
        /// unlimited. Written under the dispatcher's mutex, read by the emitter. With it, the
        /// conduit's own fields end at 54 bytes: a subscriber of up to 32 bytes held in the
        /// conduit still fits a 96-byte malloc chunk.
        @usableFromInline
        final let fast = Atomic<Bool>(false)

        @inlinable
        init(dispatcher: SubjectDispatcher, receiveValue: @escaping (Conduit, Output) -> Subscribers.Demand) {
            self.dispatcher = dispatcher
            self.receiveValue = receiveValue
        }

        /// Gives the subscriber the completion. Once per subscription, so a class method, not a
        /// field of every conduit, even though it runs unspecialised.
        @usableFromInline
        func receiveCompletion(_ completion: Subscribers.Completion<Failure>) {}

        /// Lets go of the subscriber when it lives in a box of its own; the caller releases the
        /// result outside any lock. A ``Folded`` conduit keeps its subscriber until it is
        /// deallocated itself.
        @usableFromInline
        func takeSubscriber() -> AnyObject? { nil }

        /// The subscriber, for the mirror; only read while the conduit is accepting.
        @usableFromInline
        var reflectedSubscriber: Any? { nil }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("\(dispatcher.name) subscription request(_:)")
            dispatcher.requestHook(self, demand)
        }

        @inlinable
        func cancel() {
            dispatcher.cancelHook(self)
        }

        @usableFromInline
        var description: String { "\(dispatcher.name)" }

        /// Apple's shape: `parent`, `downstream`, `demand`, `subject`; `parent` and `downstream`
        /// become `nil` once the subscription is cancelled or completed. Apple's `subject` still
        /// shows the subject then; ours shows `nil` too, as nothing keeps a reference to the
        /// subject for a subscription after a cancel (a weak one would cost every subscription a
        /// side table).
        @usableFromInline
        var customMirror: Mirror {
            let (parent, downstream, demand) = dispatcher.withLock(self) { state, guarded in
                // A boxed subscriber is only taken after `accepting` is cleared under this mutex,
                // so while it is set the box can be read here.
                guarded.accepting
                    ? (state.owner, reflectedSubscriber, guarded.demand) : (nil, nil, guarded.demand)
            }
            if dispatcher.opensOnFirstRequest {
                // ObservableObjectPublisher's subscription counts no demand and shows only its
                // subscriber, as Apple's does.
                return Mirror(self, children: ["downstream": downstream as Any])
            }
            return Mirror(
                self,
                children: [
                    "parent": parent as Any, "downstream": downstream as Any, "demand": demand,
                    "subject": parent as Any,
                ])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// A conduit that holds its subscriber itself, for subscribers that let go of their
    /// subscription when they are done with it (``ReleasesSubscriptionWhenDone``): once such a
    /// subscriber has cancelled or received the completion, only the dispatcher (until it drops
    /// the conduit from its list) and callers in progress hold the conduit, so the subscriber is
    /// released with it and no cycle outlives the subscription. One allocation instead of two.
    ///
    /// `subscriber` is a `let`, so the emitter calls it through the conduit's unowned reference
    /// without any reference counting.
    @usableFromInline
    final class Folded<S: Subscriber>: Conduit where S.Input == Output, S.Failure == Failure {
        /// Released only with the conduit, which nothing keeps once the subscription has ended.
        @usableFromInline
        let subscriber: S

        @inlinable
        init(dispatcher: SubjectDispatcher, subscriber: S) {
            self.subscriber = subscriber
            super.init(dispatcher: dispatcher) { conduit, value in
                unsafeDowncast(conduit, to: Folded.self).subscriber.receive(value)
            }
        }

        @usableFromInline
        override func receiveCompletion(_ completion: Subscribers.Completion<Failure>) {
            subscriber.receive(completion: completion)
        }

        @usableFromInline
        override var reflectedSubscriber: Any? { subscriber }
    }

    /// A conduit for any other subscriber: one that may keep its subscription after cancelling it
    /// would otherwise keep itself alive through the conduit. The subscriber lives in a
    /// ``SubscriberBox``, which the conduit drops on cancel or completion; the emitter reaches it
    /// through `subscriberPointer`, an unowned copy of the same reference, without reference
    /// counting.
    @usableFromInline
    final class Boxed<S: Subscriber>: Conduit where S.Input == Output, S.Failure == Failure {
        /// The box, unowned, for the calls.
        @usableFromInline
        let subscriberPointer: UnsafeRawPointer

        /// Owns the subscriber's box until cancel or completion. Written only by the emitter, or by
        /// a canceller when no one emits (see ``SubjectDispatcher/removeLocked(_:_:removed:)``).
        @exclusivity(unchecked) @usableFromInline
        var subscriberBox: SubscriberBox<S>?

        @inlinable
        init(dispatcher: SubjectDispatcher, subscriber: S) {
            let box = SubscriberBox(subscriber)
            subscriberBox = box
            subscriberPointer = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
            super.init(dispatcher: dispatcher) { conduit, value in
                Unmanaged<SubscriberBox<S>>.fromOpaque(unsafeDowncast(conduit, to: Boxed.self).subscriberPointer)
                    ._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
            }
        }

        @usableFromInline
        override func receiveCompletion(_ completion: Subscribers.Completion<Failure>) {
            Unmanaged<SubscriberBox<S>>.fromOpaque(subscriberPointer)._withUnsafeGuaranteedRef {
                $0.subscriber.receive(completion: completion)
            }
        }

        @usableFromInline
        override func takeSubscriber() -> AnyObject? {
            var box: SubscriberBox<S>?
            swap(&box, &subscriberBox)
            return box
        }

        @usableFromInline
        override var reflectedSubscriber: Any? { subscriberBox?.subscriber }
    }

    /// Makes the conduit for `subscriber`: a ``Folded`` one when the subscriber is known to let go
    /// of its subscription when done (a check the compiler settles when it specialises this for
    /// such a subscriber), else a ``Boxed`` one.
    @inlinable
    func makeConduit<S: Subscriber>(for subscriber: S) -> Conduit where S.Input == Output, S.Failure == Failure {
        if S.self is any ReleasesSubscriptionWhenDone.Type {
            return Folded(dispatcher: self, subscriber: subscriber)
        }
        return Boxed(dispatcher: self, subscriber: subscriber)
    }

    /// Subscribes `subscriber` to the subject `parent` (see ``attach(_:_:parent:)``).
    @inlinable
    func subscribe<S: Subscriber>(_ subscriber: S, parent: AnyObject) where S.Input == Output, S.Failure == Failure {
        attach(makeConduit(for: subscriber), subscriber, parent: parent)
    }
}

/// A subscriber that drops every reference to a subscription once it has cancelled it or received
/// a completion, and never lets other code keep it (a subscriber that passes it downstream
/// qualifies when its downstream does). A subject can then keep such a subscriber inside the
/// subscription object itself: the object dies when the subscription ends, releasing the
/// subscriber, so no cycle survives. ``Subscribers/Sink`` is one; so is a stage in front of one
/// that hands the upstream's subscription straight down (`map`, `map(_:)` with key paths,
/// `filter`, `compactMap`, `scan`, `mapError`, `setFailureType`, `ignoreOutput`,
/// `assertNoFailure`) or drops it when it cancels it or ends (the filtering stages, `collect(_:)`).
@usableFromInline
protocol ReleasesSubscriptionWhenDone {}

// MARK: One subscriber's bookkeeping

extension SubjectDispatcher {
    /// Runs `body` under the mutex with the dispatcher's state and `conduit`'s bookkeeping, the
    /// usual way to reach ``Conduit/guarded``.
    @inlinable
    func withLock<Result>(_ conduit: Conduit, _ body: (inout State, inout Conduit.Guarded) -> Result) -> Result {
        state.withLock { state in body(&state, &conduit.guarded) }
    }

    /// Under the mutex: recomputes `conduit.fast` from its bookkeeping.
    @inlinable
    func updateFastLocked(_ conduit: Conduit, _ guarded: Conduit.Guarded) {
        conduit.fast.store(
            guarded.accepting && !guarded.handshaking && guarded.demand == .unlimited, ordering: .releasing)
    }

    /// Offers a value; the emitter's per-value path. The caller holds the role.
    @inlinable @inline(__always)
    func emit(_ value: Output, to conduit: Conduit) {
        if conduit.fast.load(ordering: .acquiring) {
            _ = conduit.receiveValue(conduit, value)
            return
        }
        emitCounted(value, to: conduit)
    }

    /// Under the mutex: `conduit`'s subscription stops accepting (and leaves the lock-free path).
    /// When it was the last live one, the dispatcher's hold on the subject moves to `owner`, for
    /// the caller to release after the mutex (it may be the subject's last reference).
    @inlinable
    func endLiveLocked(
        _ conduit: Conduit, _ state: inout State, _ guarded: inout Conduit.Guarded, releasing owner: inout AnyObject?
    ) {
        guarded.accepting = false
        updateFastLocked(conduit, guarded)
        state.live -= 1
        if state.live == 0 {
            swap(&owner, &state.owner)
        }
    }

    /// Under the mutex: keeps `event` for `conduit` until its handshake is over.
    @inlinable
    func holdLocked(_ event: Conduit.Event, for conduit: Conduit, _ state: inout State, _ guarded: inout Conduit.Guarded) {
        state.pending.append((conduit, event))
        guarded.hasPending = true
    }

    /// Under the mutex: takes what waits for `conduit` out of `pending`, in arrival order.
    @inlinable
    func takePendingLocked(for conduit: Conduit, _ state: inout State, _ guarded: inout Conduit.Guarded)
        -> ContiguousArray<Conduit.Event>
    {
        var taken = ContiguousArray<Conduit.Event>()
        guard guarded.hasPending else { return taken }
        guarded.hasPending = false
        var kept = ContiguousArray<(Conduit, Conduit.Event)>()
        for entry in state.pending {
            if entry.0 === conduit {
                taken.append(entry.1)
            } else {
                kept.append(entry)
            }
        }
        swap(&kept, &state.pending)
        return taken
    }

    /// Offers a value with the bookkeeping (demand, handshake); the caller holds the role.
    /// Never inlined: inlined into the emitter's loop, its set-up (the mutex's address) would be
    /// hoisted in front of the loop and paid by every send, including those that never get here.
    @inlinable @inline(never)
    func emitCounted(_ value: Output, to conduit: Conduit) {
        let deliverNow = withLock(conduit) { state, guarded -> Bool in
            guard guarded.accepting, guarded.demand.rawValue != 0 else {
                if guarded.accepting { guarded.missedValue = true }
                return false
            }
            guarded.demand -= 1
            if guarded.handshaking {
                holdLocked(.value(value), for: conduit, &state, &guarded)
                return false
            }
            return true
        }
        guard deliverNow else { return }
        addDemand(conduit.receiveValue(conduit, value), to: conduit)
    }

    /// Adds the demand a subscriber returned from `receive(_:)`.
    @inlinable
    func addDemand(_ extra: Subscribers.Demand, to conduit: Conduit) {
        guard extra.rawValue != 0 else { return }
        withLock(conduit) { _, guarded in
            guard guarded.accepting else { return }
            guarded.demand += extra
            updateFastLocked(conduit, guarded)
        }
    }

    /// Offers the completion; afterwards the conduit lets go of its subscriber (unless
    /// `releasingSubscriber` is false: the emitter does it when its turn ends), and the
    /// dispatcher of the subject if this was its last live subscription. The caller holds the
    /// role.
    @inlinable
    func emit(_ completion: Subscribers.Completion<Failure>, to conduit: Conduit, releasingSubscriber: Bool = true) {
        var parent: AnyObject?
        let deliverNow = withLock(conduit) { state, guarded -> Bool in
            guard guarded.accepting else { return false }
            endLiveLocked(conduit, &state, &guarded, releasing: &parent)
            if guarded.handshaking {
                holdLocked(.completion(completion), for: conduit, &state, &guarded)
                return false
            }
            return true
        }
        _ = parent
        guard deliverNow else { return }
        conduit.receiveCompletion(completion)
        if releasingSubscriber { _ = conduit.takeSubscriber() }
    }

    /// Ends `conduit`'s handshake: delivers what waited for it, then lets the emitter call freely.
    /// The caller holds the role.
    @inlinable
    func deliverAfterHandshake(_ conduit: Conduit) {
        let waiting = withLock(conduit) { state, guarded -> ContiguousArray<Conduit.Event> in
            guarded.handshaking = false
            updateFastLocked(conduit, guarded)
            return takePendingLocked(for: conduit, &state, &guarded)
        }
        for event in waiting {
            switch event {
            case .value(let value):
                addDemand(conduit.receiveValue(conduit, value), to: conduit)
            case .completion(let completion):
                conduit.receiveCompletion(completion)
                _ = conduit.takeSubscriber()
                return
            }
        }
    }

    /// The subscriber's `request`: adds demand; on its first one the subject may give a current
    /// value (delivered now when the role can be had, else queued) and ask its upstreams.
    @inlinable
    func request(_ demand: Subscribers.Demand, for conduit: Conduit) {
        var upstreams: [any Subscription]?
        var runNow: Output?
        var giveBack = false
        var queued: DeliveryTickets.Ticket?
        withLock(conduit) { state, guarded in
            guard guarded.accepting else { return }
            guarded.demand += opensOnFirstRequest ? .unlimited : demand
            updateFastLocked(conduit, guarded)
            // The first request, or one after values went by without demand: the subject's
            // current value, if it keeps one, is due.
            guard !guarded.reportedDemand || guarded.missedValue else { return }
            guarded.reportedDemand = true
            guarded.missedValue = false
            let (current, subjectUpstreams) = firstDemand(self, &state.extra)
            upstreams = subjectUpstreams
            guard let current else { return }
            var unused = ContiguousArray<Conduit>()
            var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
            switch takeRoleOrQueueLocked(&state, .single(conduit, current), nestedList: &unused, ticket: &ticket) {
            case .taken:
                runNow = current
                giveBack = true
            case .nested:
                runNow = current
            case .busy:
                queued = ticket
            }
        }
        if let upstreams {
            for upstream in upstreams {
                upstream.request(.unlimited)
            }
        }
        if let runNow {
            emitCounted(firstValue(runNow), to: conduit)
            if giveBack { giveBackRole() }
        }
        if let queued {
            waitUntilRun(queued)
        }
    }

    /// The subscriber's `cancel`: nothing more reaches it; everything released here (subscriber,
    /// subject, waiting values, the list's reference to the conduit) is dropped after the mutex
    /// is left.
    @inlinable
    func cancel(_ conduit: Conduit) {
        var parent: AnyObject?
        var waiting = ContiguousArray<Conduit.Event>()
        var removed: Conduit?
        let releaseNow = withLock(conduit) { state, guarded -> Bool in
            guard guarded.accepting else { return false }
            endLiveLocked(conduit, &state, &guarded, releasing: &parent)
            waiting = takePendingLocked(for: conduit, &state, &guarded)
            return removeLocked(&state, conduit, removed: &removed)
        }
        if releaseNow {
            _ = conduit.takeSubscriber()
        }
        _ = parent
        _ = waiting
        _ = removed
    }
}

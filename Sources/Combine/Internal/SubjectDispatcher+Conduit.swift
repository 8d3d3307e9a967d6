import Synchronization
import TributaryLocks

extension SubjectDispatcher {
    /// The subscription a subject gives each subscriber (``PassthroughSubject``,
    /// ``CurrentValueSubject``, ``ObservableObjectPublisher`` and `@Published` all use it).
    ///
    /// It is generic over the subject's `Output` and `Failure` (and the dispatcher's `Extra`), not
    /// over the subscriber, so the dispatcher keeps all its conduits in one plain array. The
    /// subscriber is reached through two closures that capture nothing, built in the subject's
    /// `@inlinable` `receive(subscriber:)` and therefore compiled for the concrete subscriber in the
    /// caller's module; they receive the subscriber's box as an unowned pointer.
    ///
    /// A conduit is part of its dispatcher. Its ``guarded`` fields are the dispatcher's state about
    /// this one subscriber, stored here so that reaching them costs no look-up; only the
    /// dispatcher reads or writes them, under its mutex (the methods in the extension below), and
    /// `fast` is their lock-free summary for the emitter. The conduit itself only forwards
    /// `request` and `cancel` to the dispatcher and offers the emitter a value.
    @usableFromInline
    final class Conduit: Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        /// Something waiting for the end of the handshake.
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
            @usableFromInline var accepting = true
            /// True until the subscriber's `receive(subscription:)` has returned and the emitter ran
            /// the conduit's `activate` job; values with demand meanwhile wait in `pending`.
            @usableFromInline var handshaking = true
            /// Whether this subscriber's first demand has been reported to the subject.
            @usableFromInline var reportedDemand = false
            /// A value was sent while this subscriber had no demand. A subject with a current
            /// value (`CurrentValueSubject`, `@Published`) then gives it the current value on its
            /// next request, as Apple's do: values sent without demand collapse into the latest.
            @usableFromInline var missedValue = false
            /// What arrived during the handshake. One array for values and completion: a stored
            /// `Completion<Failure>?` would make the (never specialised) deinit look up generic
            /// metadata on every subscription.
            @usableFromInline var pending: ContiguousArray<Event> = []
            /// The subject, kept alive while subscribed as Apple's subjects are; dropped on cancel.
            @usableFromInline var parent: AnyObject?

            @inlinable
            init(parent: AnyObject) {
                self.parent = parent
            }
        }

        @usableFromInline
        let dispatcher: SubjectDispatcher

        /// The subject's name as `print()` shows the subscription.
        @usableFromInline
        let name: StaticString

        /// True while the subscriber may be called without the mutex: open, handshake over, demand
        /// unlimited. Written under the dispatcher's mutex, read by the emitter.
        @usableFromInline
        let fast = Atomic<Bool>(false)

        /// Only through ``SubjectDispatcher/withLock(_:_:)`` (hence `@exclusivity(unchecked)`: the
        /// mutex already rules out overlapping access).
        @exclusivity(unchecked) @usableFromInline
        var guarded: Guarded

        /// Owns the subscriber's box until cancel or completion. Written only by the emitter, or by
        /// a canceller when no one emits (see ``SubjectDispatcher/removeLocked(_:_:)``).
        @exclusivity(unchecked) @usableFromInline
        var subscriberBox: AnyObject?

        /// The same box, unowned, for the calls below.
        @usableFromInline
        let subscriberPointer: UnsafeRawPointer

        @usableFromInline
        let receiveValue: (UnsafeRawPointer, Output) -> Subscribers.Demand

        @usableFromInline
        let receiveCompletion: (UnsafeRawPointer, Subscribers.Completion<Failure>) -> Void

        /// What the subject does on the first demand of any of its subscribers, under the mutex (it
        /// gets the dispatcher too, for a current value kept outside the mutex): returns the value
        /// to give this subscriber first (a current value) and the upstream subscriptions to ask
        /// for values (`nil` rather than an empty array: this runs on every subscription, and an
        /// optional costs no reference counting).
        @usableFromInline
        let firstDemand: (SubjectDispatcher, inout Extra) -> (Output?, [any Subscription]?)

        /// The dispatcher's `request` and `cancel` for this conduit, compiled for the concrete
        /// types. `request(_:)` and `cancel()` are reached through the `Subscription` existential,
        /// where this generic class runs unspecialised; these closures capture nothing and run
        /// specialised code instead.
        @usableFromInline
        let requestHook: (Conduit, Subscribers.Demand) -> Void

        /// Whether the subscriber's first request, of any size, opens it to every later value
        /// (`ObservableObjectPublisher`, whose subscriptions do not count demand, as Apple's).
        @usableFromInline
        let opensOnFirstRequest: Bool

        @usableFromInline
        let cancelHook: (Conduit) -> Void

        @inlinable
        init<S: Subscriber>(
            name: StaticString,
            parent: AnyObject,
            dispatcher: SubjectDispatcher,
            subscriber: S,
            opensOnFirstRequest: Bool = false,
            firstDemand: @escaping (SubjectDispatcher, inout Extra) -> (Output?, [any Subscription]?)
        ) where S.Input == Output, S.Failure == Failure {
            self.name = name
            self.opensOnFirstRequest = opensOnFirstRequest
            self.dispatcher = dispatcher
            guarded = Guarded(parent: parent)
            let box = SubscriberBox(subscriber)
            subscriberBox = box
            subscriberPointer = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
            receiveValue = { pointer, value in
                Unmanaged<SubscriberBox<S>>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                    $0.subscriber.receive(value)
                }
            }
            receiveCompletion = { pointer, completion in
                Unmanaged<SubscriberBox<S>>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                    $0.subscriber.receive(completion: completion)
                }
            }
            self.firstDemand = firstDemand
            requestHook = { conduit, demand in conduit.dispatcher.request(demand, for: conduit) }
            cancelHook = { conduit in conduit.dispatcher.cancel(conduit) }
        }

        /// Drops the subscriber's box; the caller lets go of the result outside any lock.
        @inlinable
        func takeSubscriber() -> AnyObject? {
            var box: AnyObject?
            swap(&box, &subscriberBox)
            return box
        }

        /// Offers a value; the emitter's per-value path.
        @inlinable
        func emit(_ value: Output) {
            if fast.load(ordering: .acquiring) {
                _ = receiveValue(subscriberPointer, value)
                return
            }
            dispatcher.emitCounted(value, to: self)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("\(name) subscription request(_:)")
            requestHook(self, demand)
        }

        @inlinable
        func cancel() {
            cancelHook(self)
        }

        @usableFromInline
        var description: String { "\(name)" }

        /// Apple's shape: `parent`, `downstream`, `demand`, `subject`; `parent` and `downstream`
        /// become `nil` once the subscription is cancelled or completed. Apple's `subject` still
        /// shows the subject then; ours shows `nil` too, as the conduit keeps no reference to the
        /// subject after a cancel (a weak one would cost every subscription a side table).
        @usableFromInline
        var customMirror: Mirror {
            let (parent, downstream, demand) = dispatcher.withLock(self) { _, guarded in
                // The box is only taken after `accepting` is cleared under this mutex, so while it
                // is set the box can be read here.
                (guarded.parent, guarded.accepting ? (subscriberBox as? any ReflectsSubscriber)?.reflectedSubscriber : nil,
                 guarded.demand)
            }
            if opensOnFirstRequest {
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
}

// MARK: One subscriber's bookkeeping

extension SubjectDispatcher {
    /// Runs `body` under the mutex with the dispatcher's state and `conduit`'s bookkeeping: the
    /// only way to reach ``Conduit/guarded``.
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

    /// Offers a value with the bookkeeping (demand, handshake); the caller holds the role.
    @inlinable
    func emitCounted(_ value: Output, to conduit: Conduit) {
        let deliverNow = withLock(conduit) { _, guarded -> Bool in
            guard guarded.accepting, guarded.demand.rawValue != 0 else {
                if guarded.accepting { guarded.missedValue = true }
                return false
            }
            guarded.demand -= 1
            if guarded.handshaking {
                guarded.pending.append(.value(value))
                return false
            }
            return true
        }
        guard deliverNow else { return }
        addDemand(conduit.receiveValue(conduit.subscriberPointer, value), to: conduit)
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

    /// Offers the completion; afterwards the conduit lets go of its subscriber and subject. The
    /// caller holds the role.
    @inlinable
    func emit(_ completion: Subscribers.Completion<Failure>, to conduit: Conduit) {
        var parent: AnyObject?
        let deliverNow = withLock(conduit) { _, guarded -> Bool in
            guard guarded.accepting else { return false }
            guarded.accepting = false
            updateFastLocked(conduit, guarded)
            swap(&parent, &guarded.parent)
            if guarded.handshaking {
                guarded.pending.append(.completion(completion))
                return false
            }
            return true
        }
        _ = parent
        guard deliverNow else { return }
        conduit.receiveCompletion(conduit.subscriberPointer, completion)
        _ = conduit.takeSubscriber()
    }

    /// Ends `conduit`'s handshake: delivers what waited for it, then lets the emitter call freely.
    /// The caller holds the role.
    @inlinable
    func deliverAfterHandshake(_ conduit: Conduit) {
        var waiting = ContiguousArray<Conduit.Event>()
        withLock(conduit) { _, guarded in
            guarded.handshaking = false
            swap(&waiting, &guarded.pending)
            updateFastLocked(conduit, guarded)
        }
        for event in waiting {
            switch event {
            case .value(let value):
                addDemand(conduit.receiveValue(conduit.subscriberPointer, value), to: conduit)
            case .completion(let completion):
                conduit.receiveCompletion(conduit.subscriberPointer, completion)
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
            guarded.demand += conduit.opensOnFirstRequest ? .unlimited : demand
            updateFastLocked(conduit, guarded)
            // The first request, or one after values went by without demand: the subject's
            // current value, if it keeps one, is due.
            guard !guarded.reportedDemand || guarded.missedValue else { return }
            guarded.reportedDemand = true
            guarded.missedValue = false
            let (current, subjectUpstreams) = conduit.firstDemand(self, &state.extra)
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
            emitCounted(runNow, to: conduit)
            if giveBack { giveBackRole() }
        }
        if let queued {
            waitUntilRun(queued)
        }
    }

    /// The subscriber's `cancel`: nothing more reaches it; everything released here (subscriber,
    /// subject, waiting values) is dropped after the mutex is left.
    @inlinable
    func cancel(_ conduit: Conduit) {
        var parent: AnyObject?
        var waiting = ContiguousArray<Conduit.Event>()
        let releaseNow = withLock(conduit) { state, guarded -> Bool in
            guard guarded.accepting else { return false }
            guarded.accepting = false
            updateFastLocked(conduit, guarded)
            swap(&parent, &guarded.parent)
            if !guarded.pending.isEmpty {
                swap(&waiting, &guarded.pending)
            }
            return removeLocked(&state, conduit)
        }
        if releaseNow {
            _ = conduit.takeSubscriber()
        }
        _ = parent
        _ = waiting
    }
}

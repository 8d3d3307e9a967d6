import Synchronization
import TributaryLocks

extension SubjectDispatcher {
    /// The subscription a subject gives each subscriber: ``SubjectConduitCore`` with the call to
    /// the subscriber, the one part that needs the subject's `Output`.
    ///
    /// The dispatcher keeps its conduits in one plain array, so this class is generic over the
    /// subject's `Output` and `Failure`, not over the subscriber. The per-value call to the
    /// subscriber goes through ``receiveValue``, a closure that captures nothing, built in the
    /// subject's `@inlinable` `receive(subscriber:)` and therefore compiled for the concrete
    /// subscriber in the caller's module. Where the subscriber lives depends on the subscriber
    /// (see ``SubjectDispatcher/makeConduit(for:)``): in the conduit itself (``Folded``) or in a
    /// box of its own (``Boxed``). What is the same for every subscription of one subject (its
    /// name, its first-demand rule, the subject itself) is kept once, in the dispatcher.
    @usableFromInline
    class Conduit: SubjectConduitCore {
        /// Gives the subscriber a value and returns the demand it adds; the caller passes this
        /// conduit, which the emitter holds unowned, so the call costs no reference counting.
        @usableFromInline
        final let receiveValue: (Conduit, Output) -> Subscribers.Demand

        @inlinable
        init(dispatcher: SubjectDispatcher, receiveValue: @escaping (Conduit, Output) -> Subscribers.Demand) {
            self.receiveValue = receiveValue
            super.init(core: dispatcher)
        }
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
        override func receiveCompletion(_ completion: AnyObject) {
            subscriber.receive(completion: unsafeDowncast(completion, to: CompletionBox.self).value)
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
            // The conduit is reinterpreted through `Unmanaged` rather than `unsafeDowncast`, whose
            // check looks up this class's metadata for every value in a debug build.
            super.init(dispatcher: dispatcher) { conduit, value in
                Unmanaged<Boxed>.fromOpaque(Unmanaged.passUnretained(conduit).toOpaque())._withUnsafeGuaranteedRef {
                    Unmanaged<SubscriberBox<S>>.fromOpaque($0.subscriberPointer)
                }._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
            }
        }

        @usableFromInline
        override func receiveCompletion(_ completion: AnyObject) {
            let completion = unsafeDowncast(completion, to: CompletionBox.self).value
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
    ///
    /// Specialised for each subscriber type but never inlined: inlined, it made `sink` too large
    /// to inline into its caller, whose `AnyCancellable` then had to be allocated on the heap (a
    /// third allocation per subscription where two suffice).
    @inlinable @inline(never)
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

// MARK: One subscriber's values

extension SubjectDispatcher {
    /// Offers a value; the emitter's per-value path. The caller holds the role.
    @inlinable @inline(__always)
    func emit(_ value: Output, to conduit: Conduit) {
        if conduit.fast.load(ordering: .acquiring) {
            _ = conduit.receiveValue(conduit, value)
            return
        }
        emitCounted(value, to: conduit)
    }

    /// Offers a value with the bookkeeping (demand, handshake: ``SubjectDispatcherCore/countForDelivery(_:hold:)``,
    /// compiled once in the library); the caller holds the role. Never inlined: inlined into the
    /// emitter's loop, its set-up would be hoisted in front of the loop and paid by every send,
    /// including those that never get here.
    @inlinable @inline(never)
    func emitCounted(_ value: Output, to conduit: Conduit) {
        guard countForDelivery(conduit, hold: { SubjectValueBox(value) }) else { return }
        addDemand(conduit.receiveValue(conduit, value), to: conduit)
    }

    /// Ends `conduit`'s handshake: delivers what waited for it, then lets the emitter call freely.
    /// The caller holds the role.
    @inlinable
    func deliverAfterHandshake(_ conduit: Conduit) {
        for event in takeWaitingEndingHandshake(conduit) {
            if event.completion {
                conduit.receiveCompletion(event.payload)
                _ = conduit.takeSubscriber()
                return
            }
            let value = unsafeDowncast(event.payload, to: SubjectValueBox<Output>.self).value
            addDemand(conduit.receiveValue(conduit, value), to: conduit)
        }
    }

    /// The subscriber's `request` for a subject with a current value (``SubjectDispatcherCore/requestHook``):
    /// adds demand; on its first one (or one after values went by without demand) the subscriber
    /// gets the current value, delivered now when the role can be had, else queued.
    @inlinable
    func requestReceivingCurrent(_ demand: Subscribers.Demand, for conduit: Conduit) {
        var current: Output?
        withUnsafeMutablePointer(to: &current) { current in
            var ticket = DeliveryTickets.Ticket(position: 0, turn: 0)
            let grant = state.withLock { state -> Grant? in
                guard recordRequestLocked(demand, for: conduit) else { return nil }
                current.pointee = readCurrent()
                // Queued by address: this thread waits below until the job has run.
                let job = SubjectJob(kind: .single, conduit: conduit, value: UnsafeRawPointer(current))
                return takeRoleOrQueueLocked(&state, job, ticket: &ticket)
            }
            switch grant {
            case .taken?:
                emitCounted(firstValue(current.pointee.unsafelyUnwrapped), to: conduit)
                giveBackRole()
            case .nested?:
                emitCounted(firstValue(current.pointee.unsafelyUnwrapped), to: conduit)
            case .busy?:
                waitUntilRun(ticket)
            case nil:
                break
            }
        }
    }
}

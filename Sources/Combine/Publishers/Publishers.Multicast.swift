import Synchronization
import TributaryLocks

extension Publishers {
    /// A connectable publisher that sends each event of its upstream, once, through a subject to
    /// all its subscribers.
    ///
    /// Subscribers attach to the subject; nothing is requested from the upstream until
    /// ``connect()`` subscribes the subject to it. Attach every subscriber first, then connect,
    /// or use `autoconnect()` to connect on the first subscriber. There is no replay beyond what
    /// the subject itself does: with a `PassthroughSubject`, a late subscriber sees only later
    /// events (and the completion, if it already happened).
    ///
    /// The subject is made once, by `createSubject`, when it is first needed. Should two threads
    /// need it at the very same moment, `createSubject` may run twice; one result is kept and
    /// the other discarded (the closure is never run while a lock is held).
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        /// The upstream's values, relayed through the subject to every subscriber.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are shared.
        public final let upstream: Upstream

        /// Makes the subject the events are sent through.
        public final let createSubject: () -> SubjectType

        @usableFromInline
        let lazySubject = LockedState<SubjectType?>(nil)

        /// Makes a multicast publisher over `upstream`; `createSubject` runs when the subject is
        /// first needed.
        @inlinable
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        @usableFromInline
        final var subject: SubjectType {
            if let existing = lazySubject.withLock({ $0 }) { return existing }
            let made = createSubject()
            return lazySubject.withLock { stored in
                if let stored { return stored }
                stored = made
                return made
            }
        }

        /// Attaches `subscriber` to the subject, through a stage that shows itself as
        /// `Multicast`.
        @inlinable
        public final func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(Inner(downstream: subscriber))
        }

        /// Subscribes the subject to the upstream, starting the flow of events. Cancel the result
        /// to disconnect: the upstream subscription is cancelled.
        ///
        /// As with Apple's, the result is an `AnyCancellable`: keep it for as long as the
        /// connection should last, since releasing it disconnects.
        @inlinable
        public final func connect() -> any Cancellable {
            let connection = SubjectSubscriber(subject)
            upstream.subscribe(connection)
            return AnyCancellable(connection)
        }
    }
}

extension Publisher {
    /// Shares this publisher's events among all subscribers through the subject that
    /// `createSubject` makes; events start flowing on `connect()`.
    ///
    /// ```swift
    /// let shared = request.multicast { PassthroughSubject<Data, URLError>() }
    /// shared.sink { print("Sink1 Retrieved object \($0)") }.store(in: &cancellables)
    /// shared.sink { print("Sink2 Retrieved object \($0)") }.store(in: &cancellables)
    /// shared.connect().store(in: &cancellables)
    /// ```
    @inlinable
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where Self.Failure == S.Failure, Self.Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher's events among all subscribers through `subject`; events start
    /// flowing on `connect()`. With a `CurrentValueSubject`, late subscribers get the latest
    /// value.
    @inlinable
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where Self.Failure == S.Failure, Self.Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }
}

/// Where one subscriber's stage of a `multicast` stands with the subject. Free of the stage's
/// types, so that the stage's once-per-subscription methods, compiled once in the library, find
/// its metadata without a look-up.
@usableFromInline
enum MulticastInnerPhase {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// Cancelled, or the subject completed: nothing more goes downstream.
    case terminal
}

extension Publishers.Multicast {
    /// Where a subscriber's stage stands with the subject.
    @usableFromInline
    typealias InnerPhase = MulticastInnerPhase

    /// One subscriber's stage between the subject and the subscriber. As Apple's, it returns
    /// `.none` for every value and asks the subject's subscription for the subscriber's answer,
    /// cancels extra subscriptions, ignores `request(.none)`, and lets go of the subscriber on
    /// cancel and on completion.
    ///
    /// A value reaches the subscriber without the mutex, through ``gate``: one atomic word whose
    /// lowest bit says the stage is open (subscribed, neither cancelled nor completed) and whose
    /// other bits count the deliveries under way. A value counts itself in with one
    /// compare-and-swap, and only while the stage is open; it counts itself out with one atomic
    /// subtraction. Closing (the first cancel or the completion, under the mutex, together with
    /// the phase) clears the open bit; the subscriber is let go of by whoever leaves the count at
    /// zero with the stage closed: the closer if no delivery is under way, otherwise the last
    /// delivery as it returns. So a cancel from another thread never releases the subscriber
    /// under a delivery's feet, a delivery that starts after the cancel finds the stage closed,
    /// and the subscriber is released exactly once, as soon as nobody is calling it, as when it
    /// was copied out of the lock for each value.
    ///
    /// Only a value's path is `@inlinable`; the subscription, the completion, requests and the
    /// cancel happen once per subscriber and are compiled once, in the library, rather than in
    /// every module for every subscriber type.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        /// The phase, and with it the subject's subscription; guarded by the mutex.
        @usableFromInline let state = LockedState(InnerPhase.awaitingSubscription)

        /// Bit 0: open. The rest: twice the number of deliveries under way.
        @usableFromInline let gate = Atomic<Int>(0)

        /// The subscriber, until it is let go of. Written only at `init` and by the one thread
        /// that releases it (see the type's comment: nobody reads it then); read by deliveries,
        /// which hold a count on ``gate``, and under the mutex while the phase is not terminal.
        /// Hence `@exclusivity(unchecked)`: the protocol, not the access, keeps it exclusive.
        @exclusivity(unchecked) @usableFromInline var downstream: Downstream?

        @inlinable var open: Int { 1 }
        @inlinable var oneDelivery: Int { 2 }

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        /// Under the mutex, for the one call that makes the phase terminal: closes the gate and
        /// returns the subscriber if no delivery is under way (the caller releases it once the
        /// mutex is given back); otherwise the last delivery releases it.
        @usableFromInline
        func close() -> Downstream? {
            let before = gate.bitwiseAnd(~open, ordering: .acquiringAndReleasing).oldValue
            guard before & ~open == 0 else { return nil }
            return downstream.take()
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            let downstream: Downstream? = state.withLock { phase in
                guard case .awaitingSubscription = phase else { return nil }
                phase = .subscribed(subscription)
                gate.bitwiseOr(open, ordering: .releasing)
                return self.downstream
            }
            // Any other subscription (a second one, or one after a cancel or the completion) is
            // cancelled, as Apple's stage does (spec §18).
            guard let downstream else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard enterDelivery() else { return .none }
            let more = downstream.unsafelyUnwrapped.receive(input)
            // The subscription is looked up only when there is something to ask for: a
            // subscriber with unlimited demand answers `.none` to every value.
            if more > 0 { request(more) }
            // Last: letting go of the subscriber may let go of this stage too (the subscriber
            // holds its subscription, and the subject may already have dropped it).
            leaveDelivery()
            return .none
        }

        /// Counts a delivery in, if the stage is open.
        @inlinable
        func enterDelivery() -> Bool {
            var word = gate.load(ordering: .relaxed)
            while word & open != 0 {
                let (exchanged, found) = gate.weakCompareExchange(
                    expected: word, desired: word &+ oneDelivery,
                    successOrdering: .acquiring, failureOrdering: .relaxed)
                if exchanged { return true }
                word = found
            }
            return false
        }

        /// Counts a delivery out; the last one out of a closed stage lets go of the subscriber.
        /// Nothing may touch `self` after it: the subscriber may hold the last reference to it.
        @inlinable
        func leaveDelivery() {
            guard gate.subtract(oneDelivery, ordering: .acquiringAndReleasing).newValue == 0 else { return }
            // Moved out before it is released, so that a deinit it sets off (this stage's
            // included) finds the field already empty.
            let released = downstream.take()
            withExtendedLifetime(released) {}
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            // The completion counts itself in like a value, so that the subscriber it calls stays
            // valid even when it arrives nested in a delivery; it is let go of with the
            // completion, as Apple's stage does: it usually holds this subscription, and the pair
            // would otherwise keep each other alive.
            guard enterDelivery() else { return }
            let closing: Bool = state.withLock { phase in
                guard case .subscribed = phase else { return false }
                phase = .terminal
                // A delivery is under way (this one), so `close()` leaves the release to it.
                _ = close()
                return true
            }
            if closing { downstream.unsafelyUnwrapped.receive(completion: completion) }
            leaveDelivery()
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            // Apple ignores request(.none) on this subscription: no trap, nothing forwarded.
            guard demand > 0 else { return }
            let subscription: (any Subscription)? = state.withLock { phase in
                if case .subscribed(let subscription) = phase { return subscription }
                return nil
            }
            subscription?.request(demand)
        }

        @usableFromInline
        func cancel() {
            let (subscription, released): ((any Subscription)?, Downstream?) = state.withLock { phase in
                switch phase {
                case .terminal:
                    return (nil, nil)
                case .awaitingSubscription:
                    phase = .terminal
                    return (nil, close())
                case .subscribed(let subscription):
                    phase = .terminal
                    return (subscription, close())
                }
            }
            // The subscriber, if nothing is delivering to it, is let go of before the subject
            // hears of the cancel, and outside the mutex (its deinit may run).
            withExtendedLifetime(released) {}
            subscription?.cancel()
        }

        /// Shown as `Multicast`, with no mirror children, as Apple's.
        @usableFromInline var description: String { "Multicast" }
    }
}

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

extension Publishers.Multicast {
    /// Where one subscriber's stage stands with the subject.
    @usableFromInline
    struct InnerState<Downstream> {
        @usableFromInline
        enum Phase {
            case awaitingSubscription
            case subscribed(any Subscription)
            /// Cancelled, or the subject completed: nothing more goes downstream.
            case terminal
        }

        @usableFromInline var phase: Phase = .awaitingSubscription
        /// The subscriber, until a cancel or the completion lets go of it.
        @usableFromInline var downstream: Downstream?

        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    /// One subscriber's stage between the subject and the subscriber. As Apple's, it returns
    /// `.none` for every value and asks the subject's subscription for the subscriber's answer,
    /// ignores extra subscriptions and `request(.none)`, and lets go of the subscriber on cancel
    /// and on completion.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let state: LockedState<InnerState<Downstream>>

        @inlinable
        init(downstream: Downstream) {
            state = LockedState(InnerState(downstream: downstream))
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let downstream: Downstream? = state.withLock { state in
                guard case .awaitingSubscription = state.phase else { return nil }
                state.phase = .subscribed(subscription)
                return state.downstream
            }
            downstream?.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let downstream: Downstream? = state.withLock { state in
                guard case .subscribed = state.phase else { return nil }
                return state.downstream
            }
            guard let downstream else { return .none }
            let more = downstream.receive(input)
            // The subscription is looked up again only when there is something to ask for: a
            // subscriber with unlimited demand answers `.none` to every value, and copying the
            // existential out of the lock for every value would cost it two reference counts.
            if more > 0 { request(more) }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            // The subscriber is let go of with the completion, as Apple's stage does: it usually
            // holds this subscription, and the pair would otherwise keep each other alive.
            let downstream: Downstream? = state.withLock { state in
                guard case .subscribed = state.phase else { return nil }
                state.phase = .terminal
                return state.downstream.take()
            }
            downstream?.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple ignores request(.none) on this subscription: no trap, nothing forwarded.
            guard demand > 0 else { return }
            let subscription: (any Subscription)? = state.withLock { state in
                if case .subscribed(let subscription) = state.phase { return subscription }
                return nil
            }
            subscription?.request(demand)
        }

        @inlinable
        func cancel() {
            let subscription: (any Subscription)? = state.withLock { state in
                defer {
                    state.phase = .terminal
                    state.downstream = nil
                }
                if case .subscribed(let subscription) = state.phase { return subscription }
                return nil
            }
            subscription?.cancel()
        }

        /// Shown as `Multicast`, with no mirror children, as Apple's.
        @usableFromInline var description: String { "Multicast" }
    }
}

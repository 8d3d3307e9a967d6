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
        public final func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.receive(subscriber: Inner(downstream: subscriber))
        }

        /// Subscribes the subject to the upstream, starting the flow of events. Cancel the result
        /// to disconnect: the upstream subscription is cancelled.
        ///
        /// As with Apple's, the connection is not cancelled when the returned value is released
        /// (it is not an `AnyCancellable`): `_ = multicast.connect()` stays connected.
        public final func connect() -> any Cancellable {
            let connection = SubjectSubscriber(subject)
            upstream.receive(subscriber: connection)
            return connection
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
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where Self.Failure == S.Failure, Self.Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher's events among all subscribers through `subject`; events start
    /// flowing on `connect()`. With a `CurrentValueSubject`, late subscribers get the latest
    /// value.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where Self.Failure == S.Failure, Self.Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }
}

extension Publishers.Multicast {
    /// One subscriber's stage between the subject and the subscriber.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, RelayStage, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)

        @usableFromInline
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            guard acceptUpstream(subscription) else { return }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if endUnlessTerminal() { downstream.receive(completion: completion) }
        }

        @usableFromInline static var operatorName: String { "Multicast" }

        /// Apple ignores `request(.none)` on this subscription: no trap, nothing forwarded.
        @usableFromInline static var ignoresZeroRequest: Bool { true }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { ["downstream": downstream] }
    }
}

import TributaryLocks

extension Publishers {
    /// A publisher that, when its upstream fails, switches to the publisher a handler makes
    /// from the error.
    ///
    /// The switch happens once: after it, the original upstream is gone and the pipeline
    /// continues (and ends) with the replacement. Demand the subscriber has not been served yet
    /// is carried over to the replacement.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// Values pass through unchanged.
        public typealias Output = Upstream.Output

        /// After the switch, failures can only come from the replacement.
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure is caught.
        public let upstream: Upstream

        /// Makes the replacement publisher from the upstream's error.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Makes a publisher that replaces a failing `upstream` with `handler(error)`.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber` through the catching stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, handler: handler))
        }
    }
}

extension Publisher {
    /// Replaces the upstream, if it fails, with the publisher `handler` returns for the error.
    ///
    /// ```swift
    /// fetchUser()
    ///     .catch { _ in Just(User.unknown) }
    ///     .sink { print($0) }
    /// ```
    ///
    /// The failure type becomes the replacement's (`Never` for `Just`).
    public func `catch`<P: Publisher>(_ handler: @escaping (Self.Failure) -> P) -> Publishers.Catch<Self, P>
    where Self.Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

extension Publishers.Catch {
    /// The catching stage; shows itself to the subscriber as `Catch`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == NewPublisher.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        /// Receives from the replacement publisher on behalf of the stage (whose own `Subscriber`
        /// conformance is for the original upstream).
        @usableFromInline
        struct ReplacementSubscriber: Subscriber, CustomStringConvertible {
            @usableFromInline typealias Input = NewPublisher.Output
            @usableFromInline typealias Failure = NewPublisher.Failure

            @usableFromInline let inner: Inner
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @usableFromInline init(inner: Inner) { self.inner = inner }

            @usableFromInline func receive(subscription: any Subscription) {
                inner.replacementReceive(subscription: subscription)
            }

            @inlinable func receive(_ input: NewPublisher.Output) -> Subscribers.Demand {
                inner.replacementReceive(input)
            }

            @usableFromInline func receive(completion: Subscribers.Completion<NewPublisher.Failure>) {
                inner.replacementReceive(completion: completion)
            }

            @usableFromInline var description: String { "Catch" }
        }

        @usableFromInline let downstream: Downstream
        @usableFromInline let handler: (Upstream.Failure) -> NewPublisher
        @usableFromInline let state = LockedState(CatchStateMachine())

        @usableFromInline
        init(downstream: Downstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.downstream = downstream
            self.handler = handler
        }

        @usableFromInline
        func perform(_ action: CatchStateMachine.SubscriptionAction) {
            switch action {
            case .passDownstream: downstream.receive(subscription: self)
            case .request(let subscription, let demand): subscription.request(demand)
            case .none: break
            case .cancel(let subscription): subscription.cancel()
            }
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            perform(state.withLock { $0.upstreamSubscribed(subscription) })
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard state.withLock({ $0.upstreamValue() }) else { return .none }
            let more = downstream.receive(input)
            if more != .none { state.withLock { $0.added(more) } }
            return more
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                if state.withLock({ $0.upstreamFinished() }) { downstream.receive(completion: .finished) }
            case .failure(let error):
                guard state.withLock({ $0.upstreamFailed() }) else { return }
                handler(error).receive(subscriber: ReplacementSubscriber(inner: self))
            }
        }

        @usableFromInline
        func replacementReceive(subscription: any Subscription) {
            perform(state.withLock { $0.replacementSubscribed(subscription) })
        }

        @inlinable
        func replacementReceive(_ input: NewPublisher.Output) -> Subscribers.Demand {
            guard state.withLock({ $0.replacementValue() }) else { return .none }
            let more = downstream.receive(input)
            if more != .none { state.withLock { $0.added(more) } }
            return more
        }

        @usableFromInline
        func replacementReceive(completion: Subscribers.Completion<NewPublisher.Failure>) {
            if state.withLock({ $0.replacementCompleted() }) { downstream.receive(completion: completion) }
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.Catch subscription request(_:)")
            state.withLock { $0.request(demand) }?.request(demand)
        }

        @usableFromInline
        func cancel() {
            state.withLock { $0.cancel() }?.cancel()
        }

        @usableFromInline var description: String { "Catch" }

        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

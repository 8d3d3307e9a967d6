import TributaryLocks

extension Publishers {
    /// A publisher that, when its upstream fails, switches to the publisher a throwing handler
    /// makes from the error; if the handler throws, the pipeline fails with that error.
    ///
    /// Use it to recover from some errors and let others through: rethrow the ones you do not
    /// handle. Demand not yet served is carried over to the replacement, as with `catch`.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// Values pass through unchanged.
        public typealias Output = Upstream.Output

        /// Any error: the handler's, or the replacement's.
        public typealias Failure = any Error

        /// The publisher whose failure is caught.
        public let upstream: Upstream

        /// Makes the replacement publisher from the upstream's error, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Makes a publisher that replaces a failing `upstream` with `try handler(error)`.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber` through the catching stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.receive(subscriber: Inner(downstream: subscriber, handler: handler))
        }
    }
}

extension Publisher {
    /// Replaces the upstream, if it fails, with the publisher `handler` returns for the error; an
    /// error thrown by `handler` ends the pipeline with that error.
    ///
    /// ```swift
    /// primary
    ///     .tryCatch { error -> AnyPublisher<Data, Error> in
    ///         guard isTransient(error) else { throw error }
    ///         return fallback
    ///     }
    /// ```
    public func tryCatch<P: Publisher>(_ handler: @escaping (Self.Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Self.Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers.TryCatch {
    /// The catching stage; shows itself to the subscriber as `TryCatch`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == any Error {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        /// Receives from the replacement publisher on behalf of the stage.
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

            @usableFromInline var description: String { "TryCatch" }
        }

        @usableFromInline let downstream: Downstream
        @usableFromInline let handler: (Upstream.Failure) throws -> NewPublisher
        @usableFromInline let state = LockedState(CatchStateMachine())

        @usableFromInline
        init(downstream: Downstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
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
                let replacement: NewPublisher
                do {
                    replacement = try handler(error)
                } catch {
                    if state.withLock({ $0.handlerFailed() }) { downstream.receive(completion: .failure(error)) }
                    return
                }
                replacement.receive(subscriber: ReplacementSubscriber(inner: self))
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
            if state.withLock({ $0.replacementCompleted() }) { downstream.receive(completion: completion.eraseError) }
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.TryCatch subscription request(_:)")
            state.withLock { $0.request(demand) }?.request(demand)
        }

        @usableFromInline
        func cancel() {
            state.withLock { $0.cancel() }?.cancel()
        }

        @usableFromInline var description: String { "TryCatch" }

        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

import TributaryLocks

extension Publishers {
    /// A publisher that runs side-effect closures when events pass through it, without changing
    /// the events.
    ///
    /// The closures run in the order the events happen: `receiveSubscription` first, then
    /// `receiveRequest` whenever the subscriber asks for more, `receiveOutput` per value, and
    /// finally `receiveCompletion` or `receiveCancel`. Typical uses: an activity indicator,
    /// logging, counting attempts before a `retry`.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's values, each shown to `receiveOutput` before the subscriber gets it.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream

        /// Runs when the upstream hands over its subscription, before the subscriber sees it.
        public var receiveSubscription: ((any Subscription) -> Void)?

        /// Runs for each value, before the subscriber receives it.
        public var receiveOutput: ((Upstream.Output) -> Void)?

        /// Runs when the upstream completes, before the subscriber is told.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        /// Runs when the subscriber cancels, before the cancellation goes upstream.
        public var receiveCancel: (() -> Void)?

        /// Runs when the subscriber asks for more values, with the demand, before the request
        /// goes upstream; also for a non-zero demand the subscriber returns for a value.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Makes a publisher that runs the given closures as events pass; `nil` ones are skipped.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Publishers.HandleEvents<Upstream>.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Publishers.HandleEvents<Upstream>.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber` through a stage that calls the closures.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, handlers: self))
        }
    }
}

extension Publisher {
    /// Runs the given closures when events pass this point of the pipeline, leaving the events
    /// unchanged.
    ///
    /// ```swift
    /// dataPublisher
    ///     .handleEvents(receiveSubscription: { _ in print("Network request will start") },
    ///                   receiveCancel: { print("Network request cancelled") })
    /// ```
    ///
    /// All closures are optional. Their order: `receiveSubscription`, then `receiveRequest` (each
    /// request), `receiveOutput` (each value), then `receiveCompletion` or `receiveCancel`.
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Self.Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Self.Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest)
    }
}

extension Publishers.HandleEvents {
    /// The observing stage; wraps the upstream subscription so requests and cancellation can be
    /// seen, and shows itself to the subscriber as `HandleEvents`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, RelayStage, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let receiveSubscription: ((any Subscription) -> Void)?
        @usableFromInline let receiveOutput: ((Upstream.Output) -> Void)?
        @usableFromInline let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        @usableFromInline let receiveCancel: (() -> Void)?
        @usableFromInline let receiveRequest: ((Subscribers.Demand) -> Void)?
        @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)

        @usableFromInline
        init(downstream: Downstream, handlers: Publishers.HandleEvents<Upstream>) {
            self.downstream = downstream
            receiveSubscription = handlers.receiveSubscription
            receiveOutput = handlers.receiveOutput
            receiveCompletion = handlers.receiveCompletion
            receiveCancel = handlers.receiveCancel
            receiveRequest = handlers.receiveRequest
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            guard acceptUpstream(subscription) else { return }
            receiveSubscription?(subscription)
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            receiveOutput?(input)
            let more = downstream.receive(input)
            if more != .none { receiveRequest?(more) }
            return more
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard endUpstream() else { return }
            receiveCompletion?(completion)
            downstream.receive(completion: completion)
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
            receiveRequest?(demand)
            forwardRequest(demand)
        }

        @usableFromInline
        func cancel() {
            guard let upstream = status.withLock({ $0.terminate() }) else { return }
            receiveCancel?()
            upstream.cancel()
        }

        @usableFromInline static var operatorName: String { "HandleEvents" }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { ["downstream": downstream] }
    }
}

import TributaryLocks

extension Publishers {
    /// A publisher that subscribes to its upstream again when it fails, up to a number of times.
    ///
    /// `retry(3)` makes at most four attempts: the original subscription and three more. Values
    /// from every attempt go to the same subscriber, whose outstanding demand is requested again
    /// from each new subscription. When no retries are left the failure goes downstream.
    ///
    /// Each attempt subscribes to the same upstream value, so the upstream must start over on
    /// subscription to be worth retrying (a `Future` does not; wrap it in `Deferred`).
    ///
    /// The subscriber receives the stage (shown as `Retry`) as soon as the first attempt's
    /// subscription arrives, before any value or failure. (Logs from iOS 13 show the opposite
    /// order for a publisher that fails at once; current systems, and this implementation,
    /// always deliver the subscription first.) Synchronous failures are retried in a loop, not
    /// by recursion, so even `Retry(upstream:retries: nil)` over an immediately failing
    /// publisher does not grow the stack.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's values, from each attempt in turn.
        public typealias Output = Upstream.Output

        /// The last attempt's failure is passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher to subscribe to, and resubscribe to on failure.
        public let upstream: Upstream

        /// How many times to resubscribe after a failure; `nil` for no limit.
        public let retries: Int?

        /// Makes a publisher that resubscribes to `upstream` up to `retries` times after failures
        /// (without limit when `nil`).
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches `subscriber` through the retrying stage, which subscribes to the upstream at
        /// once.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, upstream: upstream, retries: retries)
            inner.subscribeAttempts(startingWith: 0)
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Subscribes to this publisher again when it fails, at most `retries` times; after that the
    /// failure is passed on.
    ///
    /// ```swift
    /// fetchPhoto(quality: .high)
    ///     .retry(3)              // up to 4 attempts in total
    ///     .replaceError(with: placeholder)
    /// ```
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers.Retry {
    /// The state of a retrying stage, as a pure value. Attempts are numbered (`generation`) so
    /// that late events from an abandoned subscription are recognised and ignored.
    @usableFromInline
    struct StateMachine {
        @usableFromInline
        enum Phase {
            /// An attempt is being made; its subscription has not arrived.
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        @usableFromInline
        enum SubscriptionAction {
            case passDownstream
            case request(any Subscription, Subscribers.Demand)
            case none
            case cancel(any Subscription)
        }

        @usableFromInline
        enum CompletionAction {
            case none
            case deliver
            /// Subscribe again, as attempt number `generation`.
            case resubscribe(generation: Int)
        }

        @usableFromInline var phase: Phase = .awaitingSubscription
        @usableFromInline var generation = 0
        @usableFromInline var passedDownstream = false
        @usableFromInline var demand: Subscribers.Demand = .none
        @usableFromInline var remaining: Int?
        /// A thread is inside `upstream.subscribe`; a retry needed meanwhile is left to it, so
        /// synchronous failures loop instead of recursing.
        @usableFromInline var subscribing = true
        @usableFromInline var resubscribePending = false

        @inlinable
        init(retries: Int?) {
            remaining = retries
        }

        @inlinable
        mutating func subscribed(_ subscription: any Subscription, generation attempt: Int) -> SubscriptionAction {
            guard attempt == generation, case .awaitingSubscription = phase else { return .cancel(subscription) }
            phase = .subscribed(subscription)
            if !passedDownstream {
                passedDownstream = true
                return .passDownstream
            }
            return demand > 0 ? .request(subscription, demand) : .none
        }

        @inlinable
        mutating func value(generation attempt: Int) -> Bool {
            guard attempt == generation, case .subscribed = phase else { return false }
            demand -= 1
            return true
        }

        @inlinable
        mutating func added(_ more: Subscribers.Demand) {
            if case .terminal = phase { return }
            demand += more
        }

        @inlinable
        mutating func finished(generation attempt: Int) -> CompletionAction {
            guard attempt == generation, case .subscribed = phase else { return .none }
            phase = .terminal
            return .deliver
        }

        @inlinable
        mutating func failed(generation attempt: Int) -> CompletionAction {
            guard attempt == generation, case .subscribed = phase else { return .none }
            if let left = remaining {
                guard left > 0 else {
                    phase = .terminal
                    return .deliver
                }
                remaining = left - 1
            }
            phase = .awaitingSubscription
            generation += 1
            if subscribing {
                resubscribePending = true
                return .none
            }
            subscribing = true
            return .resubscribe(generation: generation)
        }

        /// `upstream.subscribe` returned: the next attempt to make, if one was asked for meanwhile.
        @inlinable
        mutating func subscribeReturned() -> Int? {
            if resubscribePending, case .awaitingSubscription = phase {
                resubscribePending = false
                return generation
            }
            resubscribePending = false
            subscribing = false
            return nil
        }

        @inlinable
        mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
            switch phase {
            case .subscribed(let subscription):
                demand += more
                return subscription
            case .awaitingSubscription:
                demand += more
                return nil
            case .terminal:
                return nil
            }
        }

        @inlinable
        mutating func cancel() -> (any Subscription)? {
            defer { phase = .terminal }
            if case .subscribed(let subscription) = phase { return subscription }
            return nil
        }
    }

    /// The retrying stage; shows itself to the subscriber as `Retry`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        /// The subscriber used for one attempt; its number tells the stage which attempt an
        /// event belongs to.
        @usableFromInline
        struct Attempt: Subscriber, CustomStringConvertible {
            @usableFromInline typealias Input = Upstream.Output
            @usableFromInline typealias Failure = Upstream.Failure

            @usableFromInline let inner: Inner
            @usableFromInline let generation: Int
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @usableFromInline init(inner: Inner, generation: Int) {
                self.inner = inner
                self.generation = generation
            }

            @usableFromInline func receive(subscription: any Subscription) {
                inner.receive(subscription: subscription, generation: generation)
            }

            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                inner.receive(input, generation: generation)
            }

            @usableFromInline func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                inner.receive(completion: completion, generation: generation)
            }

            @usableFromInline var description: String { "Retry" }
        }

        @usableFromInline let downstream: Downstream
        @usableFromInline let upstream: Upstream
        @usableFromInline let state: LockedState<StateMachine>

        @usableFromInline
        init(downstream: Downstream, upstream: Upstream, retries: Int?) {
            self.downstream = downstream
            self.upstream = upstream
            self.state = LockedState(StateMachine(retries: retries))
        }

        /// Subscribes to the upstream, then keeps making the attempts requested by failures that
        /// happened while subscribing.
        @usableFromInline
        func subscribeAttempts(startingWith generation: Int) {
            var next: Int? = generation
            while let attempt = next {
                upstream.receive(subscriber: Attempt(inner: self, generation: attempt))
                next = state.withLock { $0.subscribeReturned() }
            }
        }

        @usableFromInline
        func receive(subscription: any Subscription, generation: Int) {
            switch state.withLock({ $0.subscribed(subscription, generation: generation) }) {
            case .passDownstream: downstream.receive(subscription: self)
            case .request(let subscription, let demand): subscription.request(demand)
            case .none: break
            case .cancel(let subscription): subscription.cancel()
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output, generation: Int) -> Subscribers.Demand {
            guard state.withLock({ $0.value(generation: generation) }) else { return .none }
            let more = downstream.receive(input)
            if more != .none { state.withLock { $0.added(more) } }
            return more
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>, generation: Int) {
            let action: StateMachine.CompletionAction
            switch completion {
            case .finished: action = state.withLock { $0.finished(generation: generation) }
            case .failure: action = state.withLock { $0.failed(generation: generation) }
            }
            switch action {
            case .none: break
            case .deliver: downstream.receive(completion: completion)
            case .resubscribe(let attempt): subscribeAttempts(startingWith: attempt)
            }
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.Retry subscription request(_:)")
            state.withLock { $0.request(demand) }?.request(demand)
        }

        @usableFromInline
        func cancel() {
            state.withLock { $0.cancel() }?.cancel()
        }

        @usableFromInline var description: String { "Retry" }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { ["downstream": downstream] }
    }
}

extension Just {
    /// `Just` cannot fail, so it is never retried: returns the same `Just`.
    public func retry(_ times: Int) -> Just<Output> {
        self
    }
}

extension Optional.Publisher {
    /// This publisher cannot fail, so it is never retried: returns the same publisher.
    public func retry(_ times: Int) -> Optional<Optional<Wrapped>.Publisher.Output>.Publisher {
        self
    }
}

extension Result.Publisher {
    /// A stored result would fail the same way on every attempt: returns the same publisher.
    public func retry(_ times: Int) -> Result<Result<Success, Failure>.Publisher.Output, Failure>.Publisher {
        self
    }
}

// Sendable when everything it stores is.
extension Publishers.Retry: Sendable where Upstream: Sendable {}

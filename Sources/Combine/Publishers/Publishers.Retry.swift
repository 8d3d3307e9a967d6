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
    /// The subscriber receives the stage (shown as `Retry`) when the first attempt's
    /// subscription arrives; the stage is also the subscriber of every attempt. It counts the
    /// subscriber's outstanding demand, returns `.none` for each value and requests the
    /// subscriber's answer from the current attempt. After the last failure, or a cancel, it lets
    /// go of the subscriber. Synchronous failures are retried in a loop, not by recursion, so
    /// even `retry(-1)` (no limit, as on Apple's platforms) over an immediately failing publisher
    /// does not grow the stack.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's values, from each attempt in turn.
        public typealias Output = Upstream.Output

        /// The last attempt's failure is passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher to subscribe to, and resubscribe to on failure.
        public let upstream: Upstream

        /// How many times to resubscribe after a failure; `nil` (or, as on Apple's platforms, a
        /// negative number) for no limit.
        public let retries: Int?

        /// Makes a publisher that resubscribes to `upstream` up to `retries` times after failures
        /// (without limit when `nil`).
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches `subscriber` through the retrying stage, which subscribes to the upstream at
        /// once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, upstream: upstream, retries: retries)
            inner.subscribeAttempts()
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
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

/// The state of a retrying stage, as a pure value that does not depend on the stage's types.
///
/// Its transitions are compiled once, here, rather than in every module for every pipeline that
/// retries; the stage keeps the subscriber beside it and acts on the answers.
@usableFromInline
struct RetryStateMachine {
    @usableFromInline
    enum Phase {
        /// An attempt is being made; its subscription has not arrived.
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Finished, failed for the last time, or cancelled: the stage has let go of its
        /// subscriber.
        case terminal
    }

    @usableFromInline
    enum SubscriptionAction {
        /// Hand the stage to the subscriber (the first attempt's subscription).
        case passDownstream
        case request(Subscribers.Demand)
        case none
        case cancel
    }

    @usableFromInline
    enum CompletionAction {
        case none
        /// Let go of the subscriber and pass the completion on to it.
        case deliver
        /// Subscribe again.
        case resubscribe
    }

    @usableFromInline var phase: Phase = .awaitingSubscription
    @usableFromInline var passedDownstream = false
    @usableFromInline var demand: Subscribers.Demand = .none
    /// Retries left; `nil` for no limit (`retry(_:)` with a negative count, as Apple's).
    @usableFromInline var remaining: Int?
    /// A thread is inside `upstream.subscribe`; a retry needed meanwhile is left to it, so
    /// synchronous failures loop instead of recursing.
    @usableFromInline var subscribing = true
    @usableFromInline var resubscribePending = false

    @usableFromInline
    init(retries: Int?) {
        remaining = retries.flatMap { $0 < 0 ? nil : $0 }
    }

    /// Whether the stage still has its subscriber.
    @usableFromInline
    var isLive: Bool {
        if case .terminal = phase { return false }
        return true
    }

    @usableFromInline
    mutating func subscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription = phase else { return .cancel }
        phase = .subscribed(subscription)
        if !passedDownstream {
            passedDownstream = true
            return .passDownstream
        }
        return demand > 0 ? .request(demand) : .none
    }

    /// A value: whether to deliver it (false once the stage has ended).
    @usableFromInline
    mutating func value() -> Bool {
        guard isLive else { return false }
        guard passedDownstream else {
            APIViolation.upstreamContract("retry", "received a value before its subscription")
        }
        guard demand > 0 else {
            APIViolation.upstreamContract("retry", "received a value beyond the outstanding demand")
        }
        demand -= 1
        return true
    }

    /// The subscriber asked for `more`, in `request(_:)` or as its answer to a value: the
    /// subscription to request it from.
    @usableFromInline
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        guard isLive else { return nil }
        demand += more
        if case .subscribed(let subscription) = phase { return subscription }
        return nil
    }

    @usableFromInline
    mutating func finished() -> CompletionAction {
        guard isLive else { return .none }
        phase = .terminal
        return .deliver
    }

    @usableFromInline
    mutating func failed() -> CompletionAction {
        guard isLive else { return .none }
        if let left = remaining {
            guard left > 0 else {
                phase = .terminal
                return .deliver
            }
            remaining = left - 1
        }
        phase = .awaitingSubscription
        if subscribing {
            resubscribePending = true
            return .none
        }
        subscribing = true
        return .resubscribe
    }

    /// `upstream.subscribe` returned: whether to make another attempt, asked for meanwhile.
    @usableFromInline
    mutating func subscribeReturned() -> Bool {
        if resubscribePending, case .awaitingSubscription = phase {
            resubscribePending = false
            return true
        }
        resubscribePending = false
        subscribing = false
        return false
    }

    /// Ends the stage and returns the subscription to cancel, if any.
    @usableFromInline
    mutating func cancel() -> (any Subscription)? {
        defer { phase = .terminal }
        if case .subscribed(let subscription) = phase { return subscription }
        return nil
    }
}

extension Publishers.Retry {
    /// The retrying stage: the subscriber of every attempt and the subscription handed to the
    /// downstream (shown as `Retry`). Each value returns `.none`; the downstream's answer is
    /// requested from the current attempt's subscription.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        /// The state machine, and the subscriber while the machine is live.
        @usableFromInline
        struct State {
            @usableFromInline var machine: RetryStateMachine
            @usableFromInline var downstream: Downstream?

            @inlinable
            init(machine: RetryStateMachine, downstream: Downstream) {
                self.machine = machine
                self.downstream = downstream
            }
        }

        @usableFromInline let upstream: Upstream
        @usableFromInline let state: LockedState<State>

        @inlinable
        init(downstream: Downstream, upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.state = LockedState(State(machine: RetryStateMachine(retries: retries), downstream: downstream))
        }

        /// Subscribes to the upstream, then keeps making the attempts requested by failures that
        /// happened while subscribing.
        @inlinable
        func subscribeAttempts() {
            repeat {
                upstream.subscribe(self)
            } while state.withLock({ $0.machine.subscribeReturned() })
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let (action, downstream) = state.withLock { state in
                let action = state.machine.subscribed(subscription)
                return (action, state.downstream)
            }
            switch action {
            case .passDownstream: downstream?.receive(subscription: self)
            case .request(let demand): subscription.request(demand)
            case .none: break
            case .cancel: subscription.cancel()
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let downstream = state.withLock({ $0.machine.value() ? $0.downstream : nil }) else { return .none }
            let more = downstream.receive(input)
            if more != .none { state.withLock { $0.machine.request(more) }?.request(more) }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let (action, downstream) = state.withLock { state -> (RetryStateMachine.CompletionAction, Downstream?) in
                let action: RetryStateMachine.CompletionAction
                switch completion {
                case .finished: action = state.machine.finished()
                case .failure: action = state.machine.failed()
                }
                return (action, action == .deliver ? state.downstream.take() : nil)
            }
            switch action {
            case .none: break
            case .deliver: downstream?.receive(completion: completion)
            case .resubscribe: subscribeAttempts()
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.Retry subscription request(_:)")
            state.withLock { $0.machine.request(demand) }?.request(demand)
        }

        @inlinable
        func cancel() {
            let (subscription, downstream) = state.withLock { state in
                (state.machine.cancel(), state.downstream.take())
            }
            subscription?.cancel()
            _ = downstream
        }

        /// Shown as `Retry`, with no mirror children, as Apple's.
        @usableFromInline var description: String { "Retry" }
    }
}

extension Just {
    /// `Just` cannot fail, so it is never retried: returns the same `Just`.
    @inlinable
    public func retry(_ times: Int) -> Just<Output> {
        self
    }
}

extension Optional.Publisher {
    /// This publisher cannot fail, so it is never retried: returns the same publisher.
    @inlinable
    public func retry(_ times: Int) -> Optional<Optional<Wrapped>.Publisher.Output>.Publisher {
        self
    }
}

extension Result.Publisher {
    /// A stored result would fail the same way on every attempt: returns the same publisher.
    @inlinable
    public func retry(_ times: Int) -> Result<Result<Success, Failure>.Publisher.Output, Failure>.Publisher {
        self
    }
}

// Sendable when everything it stores is.
extension Publishers.Retry: Sendable where Upstream: Sendable {}

import Synchronization
import TributaryLocks

extension Publishers {
    /// A publisher that turns a failure of its upstream into one fallback value followed by a
    /// normal completion.
    ///
    /// Use it at the end of a pipeline whose consumer cannot handle errors (a `sink` with only a
    /// value closure, an `assign`): the failure type becomes `Never`. The fallback is sent only
    /// once the subscriber has demand for it, so the operator never oversends.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's values, and `output` in place of a failure.
        public typealias Output = Upstream.Output

        /// Every failure is replaced, so the publisher cannot fail.
        public typealias Failure = Never

        /// The value published in place of the upstream's failure.
        public let output: Upstream.Output

        /// The publisher whose failure is replaced.
        public let upstream: Upstream

        /// Makes a publisher that sends `output` and finishes when `upstream` fails.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` through a stage that tracks its demand, so that the fallback
        /// value is delivered only when asked for.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces a failure with `output`, then finishes: the failure type becomes `Never`.
    ///
    /// ```swift
    /// failingPublisher
    ///     .replaceError(with: "fallback")
    ///     .sink { print($0) }   // prints the upstream's values, then "fallback"
    /// ```
    ///
    /// To recover with a whole publisher rather than a single value, use `catch(_:)`.
    @inlinable
    public func replaceError(with output: Self.Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers.ReplaceError {
    /// The stage between the upstream and the subscriber. It counts the subscriber's outstanding
    /// demand, because a failure that arrives with no demand must wait for the next `request`
    /// before the fallback value may be sent.
    ///
    /// A value costs no lock while the demand is unlimited: counting it would change nothing.
    /// ``passesValuesFreely`` says so; it is set under the lock when the demand becomes unlimited
    /// while subscribed, and cleared there by the completion and by a cancel, so a value that
    /// finds it set is one the locked path would pass on too.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        @usableFromInline
        typealias Input = Upstream.Output
        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        enum Phase {
            case awaitingSubscription
            case subscribed(any Subscription)
            /// The upstream failed while the subscriber had no demand: the fallback is owed. The
            /// upstream subscription is kept until then, and a cancel still reaches it.
            case owesFallback(any Subscription)
            case terminal
        }

        @usableFromInline
        enum CompletionAction { case none, finish, replace }

        @usableFromInline
        enum RequestAction { case none, forward(any Subscription), replace }

        @usableFromInline
        struct State {
            @usableFromInline var phase: Phase = .awaitingSubscription
            @usableFromInline var demand: Subscribers.Demand = .none
            @usableFromInline init() {}
        }

        @usableFromInline let downstream: Downstream
        @usableFromInline let output: Upstream.Output
        @usableFromInline let state = LockedState(State())
        @usableFromInline let passesValuesFreely = Atomic<Bool>(false)

        @inlinable
        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let accepted = state.withLock { state -> Bool in
                guard case .awaitingSubscription = state.phase else { return false }
                state.phase = .subscribed(subscription)
                return true
            }
            guard accepted else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if passesValuesFreely.load(ordering: .acquiring) {
                return downstream.receive(input)
            }
            let live = state.withLock { state -> Bool in
                switch state.phase {
                case .subscribed, .owesFallback: break
                case .awaitingSubscription, .terminal: return false
                }
                // Apple counts every value against the demand it forwarded.
                guard state.demand > 0 else {
                    APIViolation.upstreamContract("replaceError", "received a value beyond the outstanding demand")
                }
                state.demand -= 1
                return true
            }
            guard live else { return .none }
            let more = downstream.receive(input)
            if more != .none {
                state.withLock { $0.demand += more }
            }
            return more
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let action = state.withLock { state -> CompletionAction in
                guard case .subscribed(let subscription) = state.phase else { return .none }
                passesValuesFreely.store(false, ordering: .releasing)
                switch completion {
                case .finished:
                    state.phase = .terminal
                    return .finish
                case .failure:
                    if state.demand > 0 {
                        state.phase = .terminal
                        return .replace
                    }
                    state.phase = .owesFallback(subscription)
                    return .none
                }
            }
            switch action {
            case .none: break
            case .finish: downstream.receive(completion: .finished)
            case .replace: sendFallback()
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.ReplaceError subscription request(_:)")
            let action = state.withLock { state -> RequestAction in
                switch state.phase {
                case .subscribed(let upstream):
                    state.demand += demand
                    if state.demand == .unlimited { passesValuesFreely.store(true, ordering: .releasing) }
                    return .forward(upstream)
                case .owesFallback:
                    state.phase = .terminal
                    return .replace
                case .awaitingSubscription, .terminal:
                    return .none
                }
            }
            switch action {
            case .none: break
            case .forward(let upstream): upstream.request(demand)
            case .replace: sendFallback()
            }
        }

        @inlinable
        func cancel() {
            // A cancel before the subscription arrives does nothing, as Apple's stage.
            let upstream = state.withLock { state -> (any Subscription)? in
                switch state.phase {
                case .awaitingSubscription, .terminal: return nil
                case .subscribed(let upstream), .owesFallback(let upstream):
                    state.phase = .terminal
                    passesValuesFreely.store(false, ordering: .releasing)
                    return upstream
                }
            }
            upstream?.cancel()
        }

        @inlinable
        func sendFallback() {
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        }

        @usableFromInline var description: String { "ReplaceError" }

    }
}

extension Just {
    /// `Just` cannot fail, so there is nothing to replace: returns the same `Just`.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }
}

extension Optional.Publisher {
    /// This publisher cannot fail, so there is nothing to replace: returns the same publisher.
    @inlinable
    public func replaceError(with output: Optional<Wrapped>.Publisher.Output) -> Optional<Optional<Wrapped>.Publisher.Output>.Publisher {
        self
    }
}

extension Result.Publisher {
    /// Resolves the failure now: a success keeps its value, a failure becomes `output`; the
    /// result can no longer fail.
    @inlinable
    public func replaceError(with output: Result<Success, Failure>.Publisher.Output) -> Result<Result<Success, Failure>.Publisher.Output, Never>.Publisher {
        switch result {
        case .success(let value): return .init(value)
        case .failure: return .init(output)
        }
    }
}

// Sendable when everything it stores is.
extension Publishers.ReplaceError: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

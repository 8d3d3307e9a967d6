import TributaryLocks

extension Publishers {
    /// The publisher `replaceEmpty(with:)` returns: if the upstream finishes without having
    /// published anything, `output` is published before the completion. A failure is passed on
    /// as is.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's values, or `output` alone if the upstream finishes without any.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The value published when the upstream turns out to be empty.
        public let output: Upstream.Output

        /// The publisher that may be empty.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer `upstream.replaceEmpty(with:)`.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Connects `subscriber` through a stage that notices an empty stream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceEmpty {
    @usableFromInline
    struct State {
        @usableFromInline var status = SubscriptionStatus.awaitingSubscription
        /// Whether a value has been passed on (then `finished` goes out alone).
        @usableFromInline var sawValue = false
        /// Whether the subscriber has ever asked for a value: the replacement waits for that.
        @usableFromInline var requested = false
        /// The upstream finished empty before any request: the replacement is owed.
        @usableFromInline var owesReplacement = false

        @inlinable init() {}
    }

    /// The `replaceEmpty` stage. As Apple's, it requests `unlimited` from the upstream itself,
    /// right after handing its subscription down, and forwards the subscriber's requests too.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let output: Upstream.Output
        @usableFromInline let state = LockedState(State())

        @inlinable
        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            guard state.withLock({ $0.status.accept(subscription) }) else { return subscription.cancel() }
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let live = state.withLock { state -> Bool in
                guard case .subscribed = state.status else { return false }
                state.sawValue = true
                return true
            }
            guard live else { return .none }
            return downstream.receive(input)
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let deliver: Bool = state.withLock { state in
                guard case .subscribed = state.status else { return false }
                state.status = .terminal
                if case .finished = completion, !state.sawValue {
                    guard state.requested else {
                        state.owesReplacement = true
                        return false
                    }
                    return true
                }
                return true
            }
            guard deliver else { return }
            if case .finished = completion, !state.withLock({ $0.sawValue }) { _ = downstream.receive(output) }
            downstream.receive(completion: completion)
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.ReplaceEmpty subscription request(_:)")
            let (upstream, replace) = state.withLock { state -> ((any Subscription)?, Bool) in
                state.requested = true
                defer { state.owesReplacement = false }
                return (state.status.subscription, state.owesReplacement)
            }
            upstream?.request(demand)
            if replace {
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            }
        }

        @usableFromInline
        func cancel() {
            // A cancel before the subscription arrives does nothing, as Apple's stage.
            state.withLock { state -> (any Subscription)? in
                state.owesReplacement = false
                guard case .subscribed = state.status else { return nil }
                return state.status.terminate()
            }?.cancel()
        }

        @usableFromInline var description: String { "ReplaceEmpty" }
    }
}

extension Publisher {
    /// Publishes `output` when the upstream finishes without any value, so the downstream always
    /// gets at least one element from a successful stream.
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

// Sendable when everything it stores is.
extension Publishers.ReplaceEmpty: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

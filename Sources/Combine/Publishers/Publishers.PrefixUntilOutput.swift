import Synchronization
import TributaryLocks

extension Publishers {
    /// The publisher `prefix(untilOutputFrom:)` returns: upstream values pass until `other`
    /// publishes its first value; then the upstream is cancelled and the stream finishes. If
    /// `other` completes without publishing, it no longer matters and the upstream runs on.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream's values, published until `other` produces its first value.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's; `other`'s failure is ignored.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream

        /// The publisher whose first value ends the stream.
        public let other: Other

        /// Wraps `upstream`; prefer `upstream.prefix(untilOutputFrom:)`.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes to `other` first (asking it for one value), then to `upstream`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            let inner = Inner(downstream: subscriber)
            other.subscribe(OutputSignalSubscriber<Inner<S>, Other>(watcher: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.PrefixUntilOutput {
    @usableFromInline
    struct InnerState {
        @usableFromInline var upstream: SubscriptionStatus = .awaitingSubscription
        @usableFromInline var terminator: SubscriptionStatus = .awaitingSubscription
        @usableFromInline var finished = false

        @inlinable init() {}
    }

    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, OutputSignalWatcher
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let state = LockedState(InnerState())
        /// Whether values pass: the upstream's subscription has arrived and the stream has not
        /// ended. Set and cleared under the lock with every change of those two, and read per
        /// value without it.
        @usableFromInline let passesValues = Atomic<Bool>(false)

        @inlinable init(downstream: Downstream) { self.downstream = downstream }

        @usableFromInline
        func receive(subscription: any Subscription) {
            let accepted: Bool = state.withLock { state in
                guard case .awaitingSubscription = state.upstream, !state.finished else { return false }
                state.upstream = .subscribed(subscription)
                passesValues.store(true, ordering: .releasing)
                return true
            }
            guard accepted else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            // A value before the subscription is ignored, as Apple's stage does.
            passesValues.load(ordering: .acquiring) ? downstream.receive(input) : .none
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            // A completion before the subscription only cancels the terminator, as Apple's.
            let (deliver, upstream, terminator) = state.withLock { state -> (Bool, (any Subscription)?, (any Subscription)?) in
                guard !state.finished else { return (false, nil, nil) }
                let deliver: Bool
                if case .subscribed = state.upstream { deliver = true } else { deliver = false }
                state.finished = true
                passesValues.store(false, ordering: .releasing)
                return (deliver, state.upstream.terminate(), state.terminator.terminate())
            }
            terminator?.cancel()
            // The upstream subscription is let go of once the subscriber has heard.
            withExtendedLifetime(upstream) {
                if deliver { downstream.receive(completion: completion) }
            }
        }

        @usableFromInline
        func signalSubscribed(_ subscription: any Subscription) {
            let accepted: Bool = state.withLock { state in
                guard case .awaitingSubscription = state.terminator, !state.finished else { return false }
                state.terminator = .subscribed(subscription)
                return true
            }
            if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
        }

        @usableFromInline
        func signalFired() {
            // Only a value the terminator sends after its own subscription ends the stream.
            let upstream: (any Subscription)?? = state.withLock { state in
                guard !state.finished, case .subscribed = state.terminator else { return nil }
                state.finished = true
                passesValues.store(false, ordering: .releasing)
                state.terminator = .terminal
                return .some(state.upstream.terminate())
            }
            guard let upstream else { return }
            upstream?.cancel()
            downstream.receive(completion: .finished)
        }

        /// A terminator that completes without a value does not end the stream, as on Apple's
        /// platforms: its subscription is let go of, and values keep flowing.
        @usableFromInline
        func signalCompleted(_ completion: Subscribers.Completion<Other.Failure>) {
            let released = state.withLock { state -> (any Subscription)? in
                guard case .subscribed = state.terminator else { return nil }
                return state.terminator.terminate()
            }
            withExtendedLifetime(released) {}
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            // Apple's PrefixUntilOutput forwards the demand as it is, without checking it.
            state.withLock { $0.upstream.subscription }?.request(demand)
        }

        @usableFromInline
        func cancel() {
            let (upstream, terminator) = state.withLock { state in
                state.finished = true
                passesValues.store(false, ordering: .releasing)
                return (state.upstream.terminate(), state.terminator.terminate())
            }
            upstream?.cancel()
            terminator?.cancel()
        }

        // Like Apple's, this object has no description, mirror or playground description.
    }
}

extension Publisher {
    /// Passes values on until `publisher` publishes one, then finishes.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

// Sendable when everything it stores is.
extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

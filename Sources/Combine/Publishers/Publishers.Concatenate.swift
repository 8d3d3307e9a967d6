import TributaryLocks

extension Publishers {
    /// The publisher `append` and `prepend` return: every value of `prefix`, then, once `prefix`
    /// has finished, every value of `suffix`. The suffix is only subscribed to after the prefix
    /// finishes; a failure of either ends the stream. The subscriber's outstanding demand is
    /// counted here, and what the prefix did not use is requested from the suffix.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        /// The values of both publishers.
        public typealias Output = Suffix.Output
        /// The failure type both publishers share.
        public typealias Failure = Suffix.Failure

        /// The publisher that goes first.
        public let prefix: Prefix

        /// The publisher that goes second.
        public let suffix: Suffix

        /// Chains `suffix` after `prefix`; prefer `append`/`prepend`.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Subscribes to `prefix`; `subscriber` gets its subscription once the prefix's arrives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
            let inner = Inner(downstream: subscriber, suffix: suffix)
            prefix.subscribe(Side(inner: inner, isPrefix: true))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate {
    @usableFromInline
    struct InnerState {
        @usableFromInline
        enum Phase {
            /// Waiting for the prefix's subscription; nothing has gone downstream yet.
            case awaitingPrefix
            /// The prefix's subscription is held in `current`.
            case prefix
            /// The prefix finished; the suffix is being subscribed.
            case awaitingSuffix
            /// The suffix's subscription is held in `current`.
            case suffix
            case terminal
        }

        /// Where the stage is. Each value checks only this (`prefix` and `suffix` say that a
        /// subscription is held): testing the optional existential `current` instead went through
        /// its value witnesses, about 450 instructions per value and stage.
        @usableFromInline var phase: Phase = .awaitingPrefix
        @usableFromInline var current: (any Subscription)?
        /// The downstream's outstanding demand: requested, minus delivered, plus what it returned.
        @usableFromInline var demand: Subscribers.Demand = .none
        /// The second publisher, until it is subscribed or the stage is cancelled.
        @usableFromInline var suffix: Suffix?

        @inlinable init(suffix: Suffix) { self.suffix = suffix }
    }

    /// What to do with a subscription that has just arrived.
    @usableFromInline
    enum AttachAction {
        /// The prefix's first subscription: hand the stage down.
        case passDownstream
        /// The suffix's subscription: ask it for the outstanding demand.
        case request(Subscribers.Demand)
        /// A duplicate, or one that arrived too late.
        case cancel
    }

    /// The subscription handed downstream, once the prefix's subscription has arrived. It counts
    /// the downstream's outstanding demand itself: a prefix value that arrives with none
    /// outstanding is dropped, and the suffix's subscription is asked for what remains.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscription, ReflectsAsOperator
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let state: LockedState<InnerState>

        @inlinable
        init(downstream: Downstream, suffix: Suffix) {
            self.downstream = downstream
            self.state = LockedState(InnerState(suffix: suffix))
        }

        @usableFromInline
        func attach(_ subscription: any Subscription, isPrefix: Bool) {
            let action: AttachAction = state.withLock { state in
                guard state.current == nil else { return .cancel }
                switch state.phase {
                case .awaitingPrefix where isPrefix:
                    state.phase = .prefix
                    state.current = subscription
                    return .passDownstream
                case .awaitingSuffix where !isPrefix:
                    state.phase = .suffix
                    state.current = subscription
                    return .request(state.demand)
                default:
                    return .cancel
                }
            }
            switch action {
            case .passDownstream: downstream.receive(subscription: self)
            case .request(let demand): if demand > 0 { subscription.request(demand) }
            case .cancel: subscription.cancel()
            }
        }

        @inlinable
        func deliver(_ value: Suffix.Output, isPrefix: Bool) -> Subscribers.Demand {
            let live: Bool = state.withLock { state in
                guard state.phase == (isPrefix ? .prefix : .suffix) else { return false }
                // Apple drops a prefix value that exceeds the demand, but passes every value of
                // the suffix on.
                if isPrefix, state.demand == .none { return false }
                state.demand -= 1
                return true
            }
            guard live else { return .none }
            let more = downstream.receive(value)
            if more > 0 { state.withLock { $0.demand += more } }
            return more
        }

        // Inlinable because it subscribes the suffix: from unspecialised code, that subscription,
        // and with it every value of the suffix, would run unspecialised too.
        @inlinable
        func complete(_ completion: Subscribers.Completion<Suffix.Failure>, isPrefix: Bool) {
            let next: Suffix?? = state.withLock { state in
                guard state.phase == (isPrefix ? .prefix : .suffix) else { return nil }
                state.current = nil
                if isPrefix, case .finished = completion {
                    state.phase = .awaitingSuffix
                    defer { state.suffix = nil }
                    return .some(state.suffix)
                }
                state.phase = .terminal
                state.suffix = nil
                return .some(nil)
            }
            guard let next else { return }
            if let next {
                next.subscribe(Side(inner: self, isPrefix: false))
            } else {
                downstream.receive(completion: completion)
            }
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here: it is added and forwarded unchanged upstream.
            let current: (any Subscription)? = state.withLock { state in
                guard state.phase != .terminal else { return nil }
                state.demand += demand
                return state.current
            }
            current?.request(demand)
        }

        @usableFromInline
        func cancel() {
            let current: (any Subscription)? = state.withLock { state in
                state.phase = .terminal
                state.suffix = nil
                defer { state.current = nil }
                return state.current
            }
            current?.cancel()
        }

        @usableFromInline var description: String { "Concatenate" }
    }

    /// Subscribes to one of the two publishers on behalf of ``Inner``.
    @usableFromInline
    struct Side<Downstream: Subscriber>: Subscriber, ReflectsAsOperator
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        @usableFromInline typealias Input = Suffix.Output
        @usableFromInline typealias Failure = Suffix.Failure

        @usableFromInline let inner: Inner<Downstream>
        @usableFromInline let isPrefix: Bool
        @usableFromInline var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

        @inlinable
        init(inner: Inner<Downstream>, isPrefix: Bool) {
            self.inner = inner
            self.isPrefix = isPrefix
        }

        @inlinable
        func receive(subscription: any Subscription) { inner.attach(subscription, isPrefix: isPrefix) }

        @inlinable
        func receive(_ input: Suffix.Output) -> Subscribers.Demand { inner.deliver(input, isPrefix: isPrefix) }

        @inlinable
        func receive(completion: Subscribers.Completion<Suffix.Failure>) { inner.complete(completion, isPrefix: isPrefix) }

        @usableFromInline var description: String { "Concatenate" }
    }
}

extension Publisher {
    /// Publishes all of `publisher`'s values first, then this publisher's.
    @inlinable
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Publishes all of this publisher's values, then, once it finishes, `publisher`'s.
    @inlinable
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}

extension Publisher {
    /// Publishes `elements` first, then this publisher's values.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Publishes the elements of `elements` first, then this publisher's values.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Publishes this publisher's values, then, once it finishes, `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Publishes this publisher's values, then, once it finishes, the elements of `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }
}

// Sendable when everything it stores is.
extension Publishers.Concatenate: Sendable where Prefix: Sendable, Suffix: Sendable {}

import TributaryLocks

extension Publishers {
    /// The publisher `append` and `prepend` return: every value of `prefix`, then, once `prefix`
    /// has finished, every value of `suffix`. The suffix is only subscribed to after the prefix
    /// finishes; a failure of either ends the stream. Demand the prefix did not use carries over to
    /// the suffix.
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

        /// Connects `subscriber`, then subscribes to `prefix`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
            let inner = Inner(downstream: subscriber, suffix: suffix)
            subscriber.receive(subscription: inner)
            prefix.receive(subscriber: Side(inner: inner, isPrefix: true))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate {
    @usableFromInline
    struct InnerState {
        @usableFromInline enum Phase { case prefix, suffix, terminal }
        @usableFromInline var phase: Phase = .prefix
        @usableFromInline var current: (any Subscription)?
        @usableFromInline var demand: Subscribers.Demand = .none

        @inlinable init() {}
    }

    /// The subscription handed downstream: it owns the demand and moves from prefix to suffix.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscription, ReflectsAsOperator
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline var suffix: Suffix?
        @usableFromInline let state = LockedState(InnerState())

        @inlinable
        init(downstream: Downstream, suffix: Suffix) {
            self.downstream = downstream
            self.suffix = suffix
        }

        @usableFromInline
        func attach(_ subscription: any Subscription, isPrefix: Bool) {
            let pending: Subscribers.Demand? = state.withLock { state in
                guard state.current == nil,
                      (isPrefix && state.phase == .prefix) || (!isPrefix && state.phase == .suffix)
                else { return nil }
                state.current = subscription
                return state.demand
            }
            guard let pending else { return subscription.cancel() }
            if pending > 0 { subscription.request(pending) }
        }

        @inlinable
        func deliver(_ value: Suffix.Output, isPrefix: Bool) -> Subscribers.Demand {
            let live: Bool = state.withLock { state in
                guard state.phase == (isPrefix ? .prefix : .suffix) else { return false }
                state.demand -= 1
                return true
            }
            guard live else { return .none }
            let more = downstream.receive(value)
            if more > 0 { state.withLock { $0.demand += more } }
            return more
        }

        @usableFromInline
        func complete(_ completion: Subscribers.Completion<Suffix.Failure>, isPrefix: Bool) {
            let next: Suffix?? = state.withLock { state in
                guard state.phase == (isPrefix ? .prefix : .suffix) else { return nil }
                state.current = nil
                if isPrefix, case .finished = completion {
                    state.phase = .suffix
                    return .some(suffix)
                }
                state.phase = .terminal
                return .some(nil)
            }
            guard let next else { return }
            if let next {
                suffix = nil
                next.receive(subscriber: Side(inner: self, isPrefix: false))
            } else {
                suffix = nil
                downstream.receive(completion: completion)
            }
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            // Apple accepts request(.none) here and forwards it unchanged upstream.
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
                defer { state.current = nil }
                return state.current
            }
            current?.cancel()
        }

        @usableFromInline var description: String { "Concatenate" }
    }

    /// Subscribes to one of the two publishers on behalf of ``Inner``.
    @usableFromInline
    struct Side<Downstream: Subscriber>: Subscriber, CustomStringConvertible
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

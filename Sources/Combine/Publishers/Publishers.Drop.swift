import TributaryLocks

extension Publishers {
    /// The publisher `dropFirst(_:)` returns: the first `count` values are swallowed.
    ///
    /// The values it will swallow are requested together with the downstream's first request
    /// (asking for `.max(5)` below `dropFirst(2)` requests `.max(7)` upstream), as Apple does.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's value type; the first `count` values are skipped.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are dropped.
        public let upstream: Upstream

        /// How many values to drop.
        public let count: Int

        /// Wraps `upstream`; prefer `upstream.dropFirst(count)`.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            // A negative count is accepted here, as in Apple's Combine; it traps when the upstream's
            // subscription arrives (see `NegativeCountTrap`).
            self.upstream = upstream
            self.count = count
        }

        /// Connects `subscriber` through a stage that counts off the dropped values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            guard count >= 0 else {
                return upstream.subscribe(NegativeCountTrap(count: count))
            }
            let inner = Inner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop {
    /// Where a `dropFirst` stage stands with its upstream. There is no terminal state: a
    /// completion only forgets the upstream subscription, so a later one is accepted again.
    @usableFromInline
    struct State {
        /// The upstream subscription, once it has arrived and until a completion or a cancel.
        @usableFromInline var upstream: (any Subscription)?
        /// What the subscriber asked for while no upstream subscription was held. Apple's stage
        /// never lowers it, so each later upstream subscription is asked for all of it again.
        @usableFromInline var pending: Subscribers.Demand = .none

        @inlinable init() {}
    }

    /// The `dropFirst` stage: both the subscriber of the upstream and the subscription handed to
    /// the downstream, which receives it before the upstream is subscribed. Requests made while
    /// no upstream subscription is held are added up; each upstream subscription that arrives is
    /// asked for that sum plus the values still to drop. Its mirror has no children, as Apple's.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let count: Int
        /// Values still to swallow. Only the upstream's serialized calls touch it.
        @usableFromInline var remaining: Int
        @usableFromInline let state = LockedState(State())

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
            self.remaining = count
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            let demand: Subscribers.Demand? = state.withLock { state in
                guard state.upstream == nil else { return nil }
                state.upstream = subscription
                return state.pending + remaining
            }
            guard let demand else { return subscription.cancel() }
            if demand > 0 { subscription.request(demand) }
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            if remaining > 0 {
                remaining -= 1
                return .none
            }
            return downstream.receive(input)
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Failure>) {
            state.withLock { $0.upstream = nil }
            downstream.receive(completion: completion)
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.Drop subscription request(_:)")
            let upstream: (any Subscription)? = state.withLock { state in
                if let upstream = state.upstream { return upstream }
                state.pending += demand
                return nil
            }
            upstream?.request(demand)
        }

        @usableFromInline
        func cancel() {
            let upstream: (any Subscription)? = state.withLock { state in
                defer { state.upstream = nil }
                return state.upstream
            }
            upstream?.cancel()
        }

        @usableFromInline var description: String { "Drop" }
    }
}

extension Publishers.Drop {
    /// Stands in for the operator when `count` is negative: Apple's Combine builds such a
    /// `dropFirst` without complaint and traps only once the upstream's subscription arrives
    /// (inside `subscribe` for a synchronous upstream), so this does the same.
    @usableFromInline
    final class NegativeCountTrap: Subscriber {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let count: Int

        @inlinable init(count: Int) { self.count = count }

        @usableFromInline
        func receive(subscription: any Subscription) {
            APIViolation.invalidOperatorArgument(
                "dropFirst(_:) received its upstream subscription with count \(count); the count must be >= 0")
        }

        @usableFromInline
        func receive(_ input: Input) -> Subscribers.Demand { .none }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Failure>) {}
    }
}

extension Publisher {
    /// Skips the first `count` values (one by default) and passes on the rest.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

// Sendable when everything it stores is.
extension Publishers.Drop: Sendable where Upstream: Sendable {}

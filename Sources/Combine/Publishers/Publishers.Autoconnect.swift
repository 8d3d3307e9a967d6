import TributaryLocks

extension Publishers {
    /// A publisher that connects its connectable upstream when the first subscriber attaches,
    /// and disconnects it when the last one cancels.
    ///
    /// A subscriber that attaches after everyone cancelled connects it again. Subscribers that
    /// end with a completion (rather than a cancel) still count as attached, so a finished
    /// upstream is not connected a second time by a late subscriber. As with Apple's, every
    /// `cancel()` call on a subscription counts one subscriber gone, so a subscription cancelled
    /// twice can disconnect while another subscriber is still attached.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The values of the connectable upstream, which is connected when the first subscriber arrives.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher connected on demand.
        public final let upstream: Upstream

        @usableFromInline
        let state = LockedState(StateMachine())

        /// Makes a publisher that connects `upstream` when first subscribed to.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream, then connects the upstream if this is the
        /// first subscriber.
        ///
        /// `final` (the class is not open, so nothing can override it anyway) lets a caller's
        /// module call it directly and specialise it; through the class's vtable, everything it
        /// attaches would run unspecialised.
        @inlinable
        public final func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Counted before subscribing, so a subscriber that cancels at once (inside
            // `receive(subscription:)`) is uncounted again rather than left counted forever.
            let mustConnect = state.withLock { $0.subscriberAdded() }
            upstream.subscribe(Inner(downstream: subscriber, parent: self))
            guard mustConnect else { return }
            let connection = upstream.connect()
            if state.withLock({ $0.connectionMade(connection) }) {
                connection.cancel()
            }
        }

        @inlinable
        final func subscriberCancelled() {
            state.withLock { $0.subscriberRemoved() }?.cancel()
        }
    }
}

extension ConnectablePublisher {
    /// Connects this publisher when the first subscriber attaches and disconnects it when the
    /// last one cancels, so it can be used like an ordinary publisher.
    ///
    /// ```swift
    /// Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { print("Timer fired at \($0)") }
    /// ```
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers.Autoconnect {
    /// The connection's state as a pure value: how many subscribers are attached and whether
    /// the upstream is connected.
    @usableFromInline
    struct StateMachine {
        @usableFromInline
        enum Connection {
            case disconnected
            /// `connect()` is running on some thread.
            case connecting
            case connected(any Cancellable)
        }

        @usableFromInline var subscribers = 0
        @usableFromInline var connection: Connection = .disconnected

        @inlinable
        init() {}

        /// A subscriber attached: whether the caller must connect.
        @inlinable
        mutating func subscriberAdded() -> Bool {
            subscribers += 1
            guard case .disconnected = connection else { return false }
            connection = .connecting
            return true
        }

        /// `connect()` returned: whether the connection is unwanted (every subscriber cancelled
        /// meanwhile) and must be cancelled by the caller.
        @inlinable
        mutating func connectionMade(_ cancellable: any Cancellable) -> Bool {
            guard case .connecting = connection else { return true }
            if subscribers == 0 {
                connection = .disconnected
                return true
            }
            connection = .connected(cancellable)
            return false
        }

        /// A subscriber cancelled: the connection to cancel if it was the last one.
        @inlinable
        mutating func subscriberRemoved() -> (any Cancellable)? {
            subscribers = Swift.max(0, subscribers - 1)
            guard subscribers == 0, case .connected(let cancellable) = connection else { return nil }
            connection = .disconnected
            return cancellable
        }
    }

    /// One subscriber's stage, attached to the upstream: it forwards every event as it comes,
    /// with no state of its own, and hands the subscriber a ``Link`` in place of each upstream
    /// subscription.
    ///
    /// The subscriber is held here and not by the link, so the usual cycle (the subscriber keeps
    /// its subscription) does not keep it alive: once the upstream lets go of this stage (the
    /// multicast stage does at a cancel or a completion), the subscriber goes too, as Apple's.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let parent: Publishers.Autoconnect<Upstream>

        @inlinable
        init(downstream: Downstream, parent: Publishers.Autoconnect<Upstream>) {
            self.downstream = downstream
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: Link(upstream: subscription, parent: parent))
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }
    }

    /// What the subscriber holds: the upstream subscription, passed through, plus the count of
    /// subscribers. It shows itself as the upstream subscription does, description and
    /// `combineIdentifier` alike (spec §5, §28), with no mirror of its own.
    @usableFromInline
    final class Link: Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible {
        @usableFromInline let upstream: any Subscription
        @usableFromInline let parent: Publishers.Autoconnect<Upstream>

        @inlinable
        init(upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
            self.upstream = upstream
            self.parent = parent
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // Apple ignores `request(.none)` on this subscription (spec §11): no trap, nothing
            // forwarded.
            guard demand > 0 else { return }
            upstream.request(demand)
        }

        /// As Apple's: every call uncounts a subscriber, then passes the cancel on (spec §5).
        @inlinable
        func cancel() {
            parent.subscriberCancelled()
            upstream.cancel()
        }

        @usableFromInline var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

        @usableFromInline var description: String { String(describing: upstream) }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

// `@unchecked`: the connection state lives in `state` (a `LockedState`, pthread mutex) and
// `upstream` is immutable; the class is open only because Apple declares it so.
extension Publishers.Autoconnect: @unchecked Sendable where Upstream: Sendable {}

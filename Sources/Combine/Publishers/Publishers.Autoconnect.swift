import TributaryLocks

extension Publishers {
    /// A publisher that connects its connectable upstream when the first subscriber attaches,
    /// and disconnects it when the last one cancels.
    ///
    /// A subscriber that attaches after everyone cancelled connects it again. Subscribers that
    /// end with a completion (rather than a cancel) still count as attached, so a finished
    /// upstream is not connected a second time by a late subscriber. As with Apple's, every
    /// `cancel()` call on a subscription counts one subscriber gone, so a subscription cancelled
    /// twice can disconnect while another subscriber is still attached, and a subscriber that
    /// attaches from inside the first one's `receive(subscription:)` makes it connect a second
    /// time, nested, before the first subscriber's connection is made; that connection, made
    /// last, replaces the nested one (which, unlike Apple's, is cancelled) and counts as one
    /// subscriber.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The values of the connectable upstream, which is connected when the first subscriber arrives.
        public typealias Output = Upstream.Output

        /// Failures pass through unchanged.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher connected on demand.
        public final let upstream: Upstream

        @usableFromInline
        let state = LockedState(AutoconnectStateMachine())

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
            let mustConnect = state.withLock { $0.subscriberAdded(on: currentThreadToken()) }
            upstream.subscribe(Inner(downstream: subscriber, parent: self))
            guard mustConnect else { return }
            connect()
        }

        /// Connects the upstream and records the connection; cancels whichever connection is
        /// no longer wanted. Inlinable although it runs once per connection: a connection made
        /// in unspecialised code (a multicast's subject subscribing to its upstream) would run
        /// every value through the upstream unspecialised.
        @inlinable
        final func connect() {
            let connection = upstream.connect()
            state.withLock { $0.connectionMade(connection) }?.cancel()
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

/// The state of an `autoconnect`'s connection as a pure value: how many subscribers are
/// attached and whether the upstream is connected. Free of the publisher's types, so that its
/// transitions are compiled once, in the library.
///
/// It follows Apple's rules: subscribers that attach while connected are counted; every
/// cancel uncounts one, and the one that leaves none disconnects; a subscriber that attaches
/// from inside the attach of the subscriber that is connecting (its `receive(subscription:)`)
/// connects again, nested, and the outer connection, recorded last, replaces the nested one,
/// counted once (spec §5). Two things Apple leaves behind are not copied (spec §2b): the
/// replaced connection is cancelled rather than dropped, and a subscriber that cancels while
/// its own connection is being made is counted out of it, so that `connect()` returning into
/// an empty count disconnects at once rather than staying connected for nobody. A subscriber
/// that attaches from another thread while a connection is being made joins it instead of
/// connecting a second time.
@usableFromInline
struct AutoconnectStateMachine {
    @usableFromInline
    enum Connection {
        case disconnected
        /// `connect()` is running on the thread `thread`; `subscribers` have attached to this
        /// connection since it started (its own subscriber included), less those that
        /// cancelled.
        case connecting(thread: UInt, subscribers: Int)
        case connected(subscribers: Int, any Cancellable)
    }

    @usableFromInline var connection: Connection = .disconnected

    @usableFromInline
    init() {}

    /// A subscriber attached on the thread `thread`: whether the caller must connect.
    @usableFromInline
    mutating func subscriberAdded(on thread: UInt) -> Bool {
        switch connection {
        case .disconnected:
            connection = .connecting(thread: thread, subscribers: 1)
            return true
        case .connecting(let connecting, let subscribers):
            // Nested in the connecting subscriber's attach, Apple's parent connects again;
            // from another thread, the subscriber joins the connection under way.
            if connecting == thread { return true }
            connection = .connecting(thread: connecting, subscribers: subscribers + 1)
            return false
        case .connected(let subscribers, let cancellable):
            connection = .connected(subscribers: subscribers + 1, cancellable)
            return false
        }
    }

    /// `connect()` returned `cancellable`: the connection the caller must cancel, if one is
    /// no longer wanted (this one, if every subscriber it was made for cancelled meanwhile, or
    /// the nested one it replaces).
    @usableFromInline
    mutating func connectionMade(_ cancellable: any Cancellable) -> (any Cancellable)? {
        switch connection {
        case .connecting(_, let subscribers):
            guard subscribers > 0 else {
                connection = .disconnected
                return cancellable
            }
            connection = .connected(subscribers: subscribers, cancellable)
            return nil
        case .connected(let subscribers, let replaced):
            connection = .connected(subscribers: subscribers, cancellable)
            return replaced
        case .disconnected:
            // A nested connection was recorded and then disconnected by a cancel: as Apple's,
            // the outer one is kept for the subscriber still attached.
            connection = .connected(subscribers: 1, cancellable)
            return nil
        }
    }

    /// A subscriber cancelled: the connection to cancel if it was the last one.
    @usableFromInline
    mutating func subscriberRemoved() -> (any Cancellable)? {
        switch connection {
        case .disconnected:
            return nil
        case .connecting(let thread, let subscribers):
            connection = .connecting(thread: thread, subscribers: subscribers - 1)
            return nil
        case .connected(let subscribers, let cancellable):
            guard subscribers <= 1 else {
                connection = .connected(subscribers: subscribers - 1, cancellable)
                return nil
            }
            connection = .disconnected
            return cancellable
        }
    }
}

extension Publishers.Autoconnect {
    /// One subscriber's stage, attached to the upstream: it forwards every event as it comes,
    /// with no state of its own, and hands the subscriber a ``Link`` in place of each upstream
    /// subscription.
    ///
    /// The subscriber is held here and not by the link, so the usual cycle (the subscriber keeps
    /// its subscription) does not keep it alive: once the upstream lets go of this stage (the
    /// multicast stage does at a cancel or a completion), the subscriber goes too, as Apple's.
    ///
    /// It shows itself as Apple's does: `Autoconnect`, with the publisher and the subscriber as
    /// mirror children.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, ReflectsAsOperator
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

        @usableFromInline var description: String { "Autoconnect" }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> {
            ["parent": parent, "downstream": downstream]
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

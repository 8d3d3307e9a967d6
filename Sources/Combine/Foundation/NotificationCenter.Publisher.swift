import TributaryLocks

#if canImport(Foundation)
import Foundation

extension NotificationCenter {
    /// Returns a publisher of the notifications named `name` (from `object` only, when given) that
    /// this center posts.
    ///
    /// `object` filters by identity, so it must be a class instance; `nil` accepts every sender.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher of the notifications a `NotificationCenter` posts for one name (and,
    /// optionally, one sender).
    ///
    /// Each subscriber registers its own observer when it subscribes and removes it when it
    /// cancels. A notification posted while the subscriber has no demand is not kept for it. The
    /// notification is delivered synchronously on the thread that posts it. The publisher never
    /// completes.
    ///
    /// Key-value observing (`NSObject.publisher(for: \.property)` and
    /// `KeyValueObservingPublisher`) is not available here: it needs the Objective-C runtime, which
    /// Foundation on Linux does not have. Publish changes of your own types with `@Published`
    /// properties (and `ObservableObject`) instead, which work the same on every platform.
    public struct Publisher: Combine.Publisher {
        /// Each notification posted under the observed name.
        public typealias Output = Notification
        /// It never fails.
        public typealias Failure = Never

        /// The center to observe.
        public let center: NotificationCenter
        /// The notification name to observe.
        public let name: Notification.Name
        /// The only sender to accept, compared by identity; `nil` accepts any sender.
        public let object: AnyObject?

        /// Creates a publisher of `center`'s notifications named `name` (from `object`, if given).
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            // Inlinable, so that the subscriber is wrapped where its type is known and the
            // stages below this publisher run specialised code.
            let observation = Observation(downstream: AnySubscriber(subscriber))
            subscriber.receive(subscription: observation)
            observation.start(center: center, name: name, object: object)
        }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Two publishers are equal when they observe the same center (by identity), the same name and
    /// the same sender (by identity).
    public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}

extension NotificationCenter.Publisher {
    /// One subscriber's observer registration. (`@unchecked Sendable`: state is behind a lock.)
    @usableFromInline
    final class Observation: Subscription, ReflectsAsOperator, @unchecked Sendable
    {
        private struct State {
            var demand: Subscribers.Demand = .none
            var downstream: AnySubscriber<Notification, Never>?
            var center: NotificationCenter?
            var token: (any NSObjectProtocol)?
        }

        private let state: LockedState<State>

        @usableFromInline
        init(downstream: AnySubscriber<Notification, Never>) {
            state = LockedState(State(downstream: downstream))
        }

        @usableFromInline
        func start(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
            guard state.withLock({ $0.downstream != nil }) else { return }
            let token = center.addObserver(forName: name, object: object, queue: nil) { [weak self] notification in
                self?.deliver(notification)
            }
            let stale = state.withLock { state -> Bool in
                guard state.downstream != nil else { return true }
                state.center = center
                state.token = token
                return false
            }
            if stale { center.removeObserver(token) }
        }

        private func deliver(_ notification: Notification) {
            let downstream = state.withLock { state -> AnySubscriber<Notification, Never>? in
                guard state.demand > .none, let downstream = state.downstream else { return nil }
                state.demand -= 1
                return downstream
            }
            guard let downstream else { return }
            let more = downstream.receive(notification)
            if more > .none { state.withLock { $0.demand += more } }
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:) on NotificationCenter.Publisher")
            state.withLock { $0.demand += demand }
        }

        @usableFromInline
        func cancel() {
            let (center, token) = state.withLock { state -> (NotificationCenter?, (any NSObjectProtocol)?) in
                defer {
                    state.downstream = nil
                    state.center = nil
                    state.token = nil
                }
                return (state.center, state.token)
            }
            if let center, let token { center.removeObserver(token) }
        }

        @usableFromInline
        var description: String { "NotificationCenter Observer" }
    }
}
#endif

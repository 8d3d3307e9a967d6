import TributaryLocks

extension Subscribers {
    /// A subscriber that writes every value into a property of an object, through a key path.
    ///
    /// Usually made with ``Publisher/assign(to:on:)``. It asks for unlimited values. It keeps a
    /// strong reference to the object until the stream completes or is cancelled, as Apple
    /// documents; assigning onto `self` from a pipeline `self` owns is therefore a retain cycle
    /// until then (prefer `assign(to: &$property)` there). After the first completion, or a cancel
    /// once subscribed, it ignores everything and releases the object and its subscription; a
    /// second subscription is cancelled.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        /// `Assign` accepts no failures.
        public typealias Failure = Never

        @usableFromInline
        struct State {
            @usableFromInline var status = SubscriptionStatus.awaitingSubscription
            @usableFromInline var object: Root?

            @inlinable
            init(object: Root) {
                self.object = object
            }
        }

        @usableFromInline
        let state: LockedState<State>

        /// The property written for each value.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object whose property is written; `nil` after completion or cancellation.
        public var object: Root? {
            state.withLock { $0.object }
        }

        /// Makes a subscriber that assigns each value to `object[keyPath: keyPath]`.
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.keyPath = keyPath
            state = LockedState(State(object: object))
        }

        /// Keeps the first subscription and asks it for unlimited values; cancels any later one.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = state.withLock { $0.status.accept(subscription) }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Writes `value` into the property while subscribed. A value that arrives before the
        /// subscription (an upstream breaking the contract) is ignored, as Apple's `Assign` does,
        /// and so is one after completion or cancel.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if let object = state.withLock({ $0.status.isSubscribed ? $0.object : nil }) {
                object[keyPath: keyPath] = value
            }
            return .none
        }

        /// Releases the object and the subscription.
        @inlinable
        public func receive(completion: Subscribers.Completion<Never>) {
            let released = state.withLock { state in
                defer { state.object = nil }
                return (state.status.terminate(), state.object)
            }
            withExtendedLifetime(released) {}
        }

        /// Cancels the subscription and releases the object. Before a subscription has arrived
        /// a cancel is ignored, as on Apple's platforms: the object is kept, and a subscription
        /// that arrives later is asked for everything and its values are assigned.
        @inlinable
        public func cancel() {
            let released = state.withLock { state -> ((any Subscription)?, Root?) in
                guard let subscription = state.status.terminateIfSubscribed() else { return (nil, nil) }
                defer { state.object = nil }
                return (subscription, state.object)
            }
            released.0?.cancel()
        }

        /// `"Assign <Root>."`, naming the object's type.
        public var description: String { "Assign \(Root.self)." }

        /// Shows the object, the key path and where the subscriber stands with its upstream
        /// (`status`: awaiting a subscription, subscribed to one, or terminal), as Apple's does.
        public var customMirror: Mirror {
            let (object, status) = state.withLock { ($0.object, $0.status) }
            return Mirror(self, children: [
                "object": object as Any,
                "keyPath": keyPath,
                "status": status,
            ])
        }

        /// The same as ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher where Failure == Never {
    /// Writes every value into `object[keyPath: keyPath]`.
    ///
    /// The object is kept alive until the stream completes or the returned ``AnyCancellable`` is
    /// cancelled or released.
    @inlinable
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(assign)
    }
}

import Synchronization

extension Subscribers {
    /// A subscriber that asks for every value (`.unlimited`) and hands each value and the
    /// completion to a closure.
    ///
    /// Usually made with ``Publisher/sink(receiveCompletion:receiveValue:)``, which also wraps it
    /// in an ``AnyCancellable``. After the first completion or `cancel()` the sink ignores every
    /// event and releases its subscription. A second subscription is cancelled straight away (the
    /// sink serves one publisher only); Apple's Sink does the same rather than trapping.
    ///
    /// The value path reads one atomic flag and takes no lock.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// Called with each value.
        public let receiveValue: (Input) -> Void

        /// Called once, with the completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        /// The upstream subscription while connected; guarded by its lock, used after unlocking.
        @usableFromInline
        let status = LockedState<SubscriptionStatus>(.awaitingSubscription)

        /// Set by the first completion or cancel; after that no event reaches the closures.
        @usableFromInline
        let terminated = Atomic<Bool>(false)

        /// Makes a sink that calls `receiveCompletion` on completion and `receiveValue` per value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        /// Keeps the first subscription and asks it for unlimited values; cancels any later one.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = status.withLock { status -> Bool in
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Passes the value to ``receiveValue`` unless the sink has completed or been cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if !terminated.load(ordering: .acquiring) {
                receiveValue(value)
            }
            return .none
        }

        /// Passes the first completion to ``receiveCompletion`` and releases the subscription.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
            // The subscription is released here, after the lock, before the closure runs.
            _ = status.withLock { $0.terminate() }
            receiveCompletion(completion)
        }

        /// Cancels the subscription; no value or completion is delivered afterwards.
        @inlinable
        public func cancel() {
            guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
            status.withLock { $0.terminate() }?.cancel()
        }

        /// `"Sink"`, as Apple prints it.
        public var description: String { "Sink" }

        /// An empty mirror: the closures are not worth showing.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The same as ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Subscribes with a ``Subscribers/Sink`` that calls `receiveValue` for each value and
    /// `receiveCompletion` at the end.
    ///
    /// Keep the returned ``AnyCancellable``: releasing it cancels the subscription.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with a ``Subscribers/Sink`` that calls `receiveValue` for each value. Only for
    /// publishers that cannot fail, where there is no error to handle.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

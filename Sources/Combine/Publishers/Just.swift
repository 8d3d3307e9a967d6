import Synchronization

/// A publisher that emits one value and then finishes.
///
/// Use it to start a pipeline from a value you already have, or to substitute a value in
/// operators such as `flatMap` and `catch`. It cannot fail. Each subscriber gets its own copy of
/// the value as soon as it requests anything.
public struct Just<Output>: Publisher {
    /// `Just` never fails.
    public typealias Failure = Never

    /// The value every subscriber receives.
    public let output: Output

    /// Makes a publisher that delivers `output` to each subscriber, then finishes.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Hands `subscriber` a subscription that delivers the value and `.finished` on first demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        // The checks fold away once specialised (unspecialised, a value-type subscriber costs one
        // metatype check). A `Sink` gets a subscription that allocates nothing; another class
        // subscriber is kept as a plain object reference, so the subscription's (unspecialised)
        // deinit need not look up the metadata of `Optional<S>` at run time, which would cost more
        // than the rest of the subscription.
        if S.self is AnyObject.Type {
            if let sink = subscriber as? Subscribers.Sink<Output, Never> {
                sink.receiveOneValue(output)
            } else {
                subscriber.receive(subscription: ObjectInner<S>(value: output, downstream: subscriber))
            }
        } else {
            subscriber.receive(subscription: OneValueSubscription(name: "Just", value: output, downstream: subscriber))
        }
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

extension Just {
    /// `OneValueSubscription` for subscribers that are classes: the same behaviour, with the
    /// subscriber held as an `AnyObject` (see ``Just/receive(subscriber:)``).
    @usableFromInline
    final class ObjectInner<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Never {
        /// Reaches ``requestNow(_:)`` in code specialised by `init`, as
        /// `OneValueSubscription.requestHook` does, and for the same reason.
        @usableFromInline let requestHook: (ObjectInner, Subscribers.Demand) -> Void

        @usableFromInline
        let value: Output

        /// The subscriber, an instance of `Downstream`. Written only by the one caller that wins
        /// `claimed` (delivery or cancel), never touched concurrently; hence
        /// `@exclusivity(unchecked)`.
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: AnyObject?

        /// Set by the first `request` or `cancel`; whoever sets it owns the subscriber.
        @usableFromInline
        let claimed: Atomic<Bool>

        /// `downstream` must be a class instance.
        @inlinable
        init(value: Output, downstream: Downstream) {
            self.value = value
            self.downstream = unsafeBitCast(downstream, to: AnyObject.self)
            claimed = Atomic(false)
            requestHook = { inner, demand in inner.requestNow(demand) }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            requestHook(self, demand)
        }

        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Just subscription request(_:)")
            guard !claimed.exchange(true, ordering: .acquiringAndReleasing), let object = downstream.take()
            else { return }
            let downstream = unsafeBitCast(object, to: Downstream.self)
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        }

        @inlinable
        func cancel() {
            guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            downstream = nil
        }

        @usableFromInline
        var description: String { "Just" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, unlabeledChildren: [value]) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

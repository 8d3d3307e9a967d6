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
        subscriber.receive(subscription: Inner(value: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

extension Just {
    /// The subscription: one value and `.finished` on the first request; cancel drops both.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Never {
        @usableFromInline
        let value: Output

        /// Written only by the one caller that wins `claimed` (delivery or cancel), never read
        /// concurrently.
        @usableFromInline
        var downstream: Downstream?

        /// Set by the first `request` or `cancel`; whoever sets it owns the subscriber.
        @usableFromInline
        let claimed = Atomic<Bool>(false)

        @inlinable
        init(value: Output, downstream: Downstream) {
            self.value = value
            self.downstream = downstream
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Just subscription request(_:)")
            guard !claimed.exchange(true, ordering: .acquiringAndReleasing), let downstream = downstream.take()
            else { return }
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
        var customMirror: Mirror { Mirror(self, children: ["value": value]) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

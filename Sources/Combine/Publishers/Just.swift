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
        /// Present until the value is delivered or the subscription cancelled; whoever takes it
        /// out under the lock owns the delivery.
        @usableFromInline
        let pending: LockedState<(value: Output, downstream: Downstream)?>

        @inlinable
        init(value: Output, downstream: Downstream) {
            pending = LockedState((value, downstream))
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Just subscription request(_:)")
            guard let (value, downstream) = pending.withLock({ state in
                defer { state = nil }
                return state
            }) else { return }
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        }

        @inlinable
        func cancel() {
            _ = pending.withLock { state in
                defer { state = nil }
                return state
            }
        }

        @usableFromInline
        var description: String { "Just" }

        @usableFromInline
        var customMirror: Mirror {
            let value: Any = pending.withLock { $0?.value } as Any
            return Mirror(self, children: ["value": value])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

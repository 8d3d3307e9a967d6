import TributaryLocks

extension Publishers {
    /// A publisher that encodes each value of its upstream with a top-level encoder (such as
    /// `JSONEncoder`), failing with the encoder's error if one value cannot be encoded.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The encoder's output, for example `Data`.
        public typealias Output = Coder.Output

        /// Any error: the upstream's, or the encoder's.
        public typealias Failure = any Error

        /// The publisher whose values are encoded.
        public let upstream: Upstream

        @usableFromInline
        let encoder: Coder

        /// Makes a publisher that encodes the values of `upstream` with `encoder`.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches `subscriber` through the encoding stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Coder.Output, S.Failure == any Error {
            upstream.receive(subscriber: Inner(downstream: subscriber, encoder: encoder))
        }
    }
}

extension Publisher {
    /// Encodes each value with `encoder`; a value that fails to encode ends the stream with the
    /// encoder's error and cancels the upstream.
    ///
    /// ```swift
    /// users.encode(encoder: JSONEncoder())   // Publisher<Data, Error>
    /// ```
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publishers.Encode {
    /// The encoding stage; shows itself to the subscriber as `Encode`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Coder.Output, Downstream.Failure == any Error {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let encoder: Coder
        @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)
        /// Set once an encoding error ended the stream. Only read and written by the upstream's
        /// serialized `receive` calls, so it needs no lock.
        @usableFromInline var failed = false

        @usableFromInline
        init(downstream: Downstream, encoder: Coder) {
            self.downstream = downstream
            self.encoder = encoder
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            let accepted = status.withLock { $0.accept(subscription) }
            guard accepted else { return subscription.cancel() }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if failed { return .none }
            let encoded: Coder.Output
            do {
                encoded = try encoder.encode(input)
            } catch {
                fail(error)
                return .none
            }
            return downstream.receive(encoded)
        }

        @usableFromInline
        func fail(_ error: any Error) {
            failed = true
            guard let upstream = status.withLock({ $0.terminate() }) else { return }
            upstream.cancel()
            downstream.receive(completion: .failure(error))
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let live = status.withLock { status -> Bool in
                guard case .subscribed = status else { return false }
                status = .terminal
                return true
            }
            if live { downstream.receive(completion: completion.eraseError) }
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.Encode subscription request(_:)")
            status.withLock { $0.subscription }?.request(demand)
        }

        @usableFromInline
        func cancel() {
            status.withLock { $0.terminate() }?.cancel()
        }

        @usableFromInline var description: String { "Encode" }

        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

// Sendable when everything it stores is.
extension Publishers.Encode: Sendable where Upstream: Sendable, Coder: Sendable {}

import TributaryLocks

extension Publishers {
    /// A publisher that decodes each value of its upstream (for example `Data`) into `Output`
    /// with a top-level decoder (such as `JSONDecoder`), failing with the decoder's error if
    /// one value cannot be decoded.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Any error: the upstream's, or the decoder's.
        public typealias Failure = any Error

        /// The publisher whose values are decoded.
        public let upstream: Upstream

        @usableFromInline
        let decoder: Coder

        /// Makes a publisher that decodes the values of `upstream` with `decoder`.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches `subscriber` through the decoding stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.receive(subscriber: Inner(downstream: subscriber, decoder: decoder))
        }
    }
}

extension Publisher {
    /// Decodes each value into `type` with `decoder`; a value that fails to decode ends the
    /// stream with the decoder's error and cancels the upstream.
    ///
    /// ```swift
    /// responses
    ///     .map(\.data)
    ///     .decode(type: User.self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Self.Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers.Decode {
    /// The decoding stage; shows itself to the subscriber as `Decode`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == any Error {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let decoder: Coder
        @usableFromInline let status = LockedState(SubscriptionStatus.awaitingSubscription)
        /// Set once a decoding error ended the stream. Only read and written by the upstream's
        /// serialized `receive` calls, so it needs no lock.
        @usableFromInline var failed = false

        @usableFromInline
        init(downstream: Downstream, decoder: Coder) {
            self.downstream = downstream
            self.decoder = decoder
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
            let decoded: Output
            do {
                decoded = try decoder.decode(Output.self, from: input)
            } catch {
                fail(error)
                return .none
            }
            return downstream.receive(decoded)
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
            demand.assertNonZero("Publishers.Decode subscription request(_:)")
            status.withLock { $0.subscription }?.request(demand)
        }

        @usableFromInline
        func cancel() {
            status.withLock { $0.terminate() }?.cancel()
        }

        @usableFromInline var description: String { "Decode" }

        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

// Sendable when everything it stores is.
extension Publishers.Decode: Sendable where Upstream: Sendable, Coder: Sendable {}

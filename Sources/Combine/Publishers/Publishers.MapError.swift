extension Publishers {
    /// The publisher `mapError(_:)` returns: values pass through, and a failure is converted by
    /// `transform` before it reaches the downstream.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream's values, untouched; only the failure is converted.
        public typealias Output = Upstream.Output

        /// The publisher whose failure is converted.
        public let upstream: Upstream

        /// Converts the upstream's failure into this publisher's failure type.
        public let transform: (Upstream.Failure) -> Failure

        /// Wraps `upstream`; prefer `upstream.mapError(transform)`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Wraps `upstream`, taking the conversion as an unlabelled closure.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
        }

        /// Connects `subscriber`; the upstream subscription is passed straight through.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.MapError {
    @usableFromInline
    struct Inner<Downstream: Subscriber>: StatelessStage
    where Downstream.Input == Upstream.Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Failure) -> Downstream.Failure
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Downstream.Failure) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished: downstream.receive(completion: .finished)
            case .failure(let error): downstream.receive(completion: .failure(transform(error)))
            }
        }

        @usableFromInline var description: String { "MapError" }
    }
}

extension Publisher {
    /// Converts the upstream's failure into another error type, typically your own, so callers
    /// see one well-defined error type.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

/// The stage hands the upstream's subscription straight down and keeps no reference to it, so it
/// lets go of it exactly when its downstream does (see `Publishers.Map.Inner`).
extension Publishers.MapError.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

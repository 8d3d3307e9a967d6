import TributaryLocks

extension Publishers {
    /// A publisher that, when its upstream fails, switches to the publisher a throwing handler
    /// makes from the error; if the handler throws, the pipeline fails with that error.
    ///
    /// Use it to recover from some errors and let others through: rethrow the ones you do not
    /// handle. Demand not yet served is carried over to the replacement, as with `catch`.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The value type the upstream and the replacement publisher share.
        public typealias Output = Upstream.Output

        /// Any error: the handler's, or the replacement's.
        public typealias Failure = any Error

        /// The publisher whose failure is caught.
        public let upstream: Upstream

        /// Makes the replacement publisher from the upstream's error, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Makes a publisher that replaces a failing `upstream` with `try handler(error)`.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber` through the catching stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(CatchStage(downstream: subscriber, strategy: Strategy(handler: handler)).upstreamSubscriber)
        }
    }
}

extension Publisher {
    /// Replaces the upstream, if it fails, with the publisher `handler` returns for the error; an
    /// error thrown by `handler` ends the pipeline with that error.
    ///
    /// ```swift
    /// primary
    ///     .tryCatch { error -> AnyPublisher<Data, Error> in
    ///         guard isTransient(error) else { throw error }
    ///         return fallback
    ///     }
    /// ```
    @inlinable
    public func tryCatch<P: Publisher>(_ handler: @escaping (Self.Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Self.Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers.TryCatch {
    /// `tryCatch`'s part of ``CatchStage``: an error thrown by the handler ends the stream, and
    /// the replacement's failure is erased to `Error`.
    @usableFromInline
    struct Strategy: CatchStrategy {
        @usableFromInline let handler: (Upstream.Failure) throws -> NewPublisher

        @usableFromInline init(handler: @escaping (Upstream.Failure) throws -> NewPublisher) { self.handler = handler }

        @usableFromInline static var operatorName: String { "TryCatch" }

        @inlinable
        func replacement(for error: Upstream.Failure) -> Result<NewPublisher, any Error> {
            Result { try handler(error) }
        }

        @inlinable
        static func convert(_ completion: Subscribers.Completion<NewPublisher.Failure>) -> Subscribers.Completion<any Error> {
            completion.eraseError
        }
    }
}

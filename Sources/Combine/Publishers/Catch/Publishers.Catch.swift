import TributaryLocks

extension Publishers {
    /// A publisher that, when its upstream fails, switches to the publisher a handler makes
    /// from the error.
    ///
    /// The switch happens once: after it, the original upstream is gone and the pipeline
    /// continues (and ends) with the replacement. Demand the subscriber has not been served yet
    /// is carried over to the replacement.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The value type the upstream and the replacement publisher share.
        public typealias Output = Upstream.Output

        /// After the switch, failures can only come from the replacement.
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure is caught.
        public let upstream: Upstream

        /// Makes the replacement publisher from the upstream's error.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Makes a publisher that replaces a failing `upstream` with `handler(error)`.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber` through the catching stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CatchStage(downstream: subscriber, strategy: Strategy(handler: handler)).upstreamSubscriber)
        }
    }
}

extension Publisher {
    /// Replaces the upstream, if it fails, with the publisher `handler` returns for the error.
    ///
    /// ```swift
    /// fetchUser()
    ///     .catch { _ in Just(User.unknown) }
    ///     .sink { print($0) }
    /// ```
    ///
    /// The failure type becomes the replacement's (`Never` for `Just`).
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Self.Failure) -> P) -> Publishers.Catch<Self, P>
    where Self.Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

extension Publishers.Catch {
    /// `catch`'s part of ``CatchStage``: the handler cannot throw, and the replacement's failure
    /// is the operator's.
    @usableFromInline
    struct Strategy: CatchStrategy {
        @usableFromInline let handler: (Upstream.Failure) -> NewPublisher

        @usableFromInline init(handler: @escaping (Upstream.Failure) -> NewPublisher) { self.handler = handler }

        @usableFromInline static var operatorName: String { "Catch" }

        @inlinable
        func replacement(for error: Upstream.Failure) -> Result<NewPublisher, NewPublisher.Failure> {
            .success(handler(error))
        }

        @inlinable
        static func convert(_ completion: Subscribers.Completion<NewPublisher.Failure>) -> Subscribers.Completion<NewPublisher.Failure> {
            completion
        }
    }
}

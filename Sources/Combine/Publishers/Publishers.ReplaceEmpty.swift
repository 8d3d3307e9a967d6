extension Publishers {
    /// The publisher `replaceEmpty(with:)` returns: if the upstream finishes without having
    /// published anything, `output` is published before the completion. A failure is passed on
    /// as is.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's values, or `output` alone if the upstream finishes without any.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The value published when the upstream turns out to be empty.
        public let output: Upstream.Output

        /// The publisher that may be empty.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer `upstream.replaceEmpty(with:)`.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Connects `subscriber` through a stage that notices an empty stream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.receive(subscriber: FilteringStage(downstream: subscriber, strategy: Strategy(replacement: output)))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceEmpty {
    @usableFromInline
    struct Strategy: FilteringStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let replacement: Output
        @usableFromInline var sawValue = false

        @inlinable init(replacement: Output) { self.replacement = replacement }

        @usableFromInline static var operatorName: String { "ReplaceEmpty" }

        @inlinable
        mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
        where Downstream.Input == Output, Downstream.Failure == Failure {
            sawValue = true
            return .demand(downstream.receive(input))
        }

        @inlinable
        mutating func valueBeforeFinishing() -> Output? {
            sawValue ? nil : replacement
        }
    }
}

extension Publisher {
    /// Publishes `output` when the upstream finishes without any value, so the downstream always
    /// gets at least one element from a successful stream.
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

// Sendable when everything it stores is.
extension Publishers.ReplaceEmpty: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

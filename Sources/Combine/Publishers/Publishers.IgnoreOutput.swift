extension Publishers {
    /// The publisher `ignoreOutput()` returns: it swallows every value and passes on only how the
    /// upstream ends.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No value is ever published.
        public typealias Output = Never
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are ignored.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer `upstream.ignoreOutput()`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, Upstream.Failure == S.Failure {
            upstream.receive(subscriber: ReducingStage(downstream: subscriber, strategy: Strategy()))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publishers.IgnoreOutput {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Never
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @inlinable init() {}

        @usableFromInline static var operatorName: String { "IgnoreOutput" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome { .continue }

        @inlinable
        mutating func finalValue() -> Never? { nil }
    }
}

extension Publisher {
    /// Discards every value, keeping only the completion: useful when only "it finished" matters.
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

// Sendable when everything it stores is.
extension Publishers.IgnoreOutput: Sendable where Upstream: Sendable {}

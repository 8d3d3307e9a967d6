extension Publishers {
    /// The publisher `contains(_:)` returns: `true` as soon as a value equals `output` (the
    /// upstream is then cancelled), or `false` if the upstream finishes without one.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// Whether the value was seen.
        public typealias Output = Bool
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher searched.
        public let upstream: Upstream

        /// The value searched for.
        public let output: Upstream.Output

        /// Wraps `upstream`; prefer `upstream.contains(output)`.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy(target: output)))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publishers.Contains {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Bool
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let target: Upstream.Output
        @usableFromInline var found = false

        @inlinable init(target: Upstream.Output) { self.target = target }

        @usableFromInline var reflectedResult: Any? { found }

        @usableFromInline static var operatorName: String { "Contains" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            if input == target {
                found = true
                return .finish
            }
            return .continue
        }

        @inlinable
        mutating func finalValue() -> Bool? { found }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes `true` and finishes as soon as `output` appears, or `false` when the upstream
    /// finishes without it.
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

// Sendable when everything it stores is.
extension Publishers.Contains: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

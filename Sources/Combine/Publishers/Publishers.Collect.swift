extension Publishers {
    /// The publisher `collect()` returns: it gathers every upstream value and, once the upstream
    /// finishes, publishes them as one array (only after the downstream has asked for a value).
    /// A failure is passed on and the gathered values are dropped.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// All the upstream's values, in order.
        public typealias Output = [Upstream.Output]
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are gathered.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer `upstream.collect()`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == [Upstream.Output], Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(downstream: subscriber, strategy: Strategy()))
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publishers.Collect {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = [Upstream.Output]
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline var values: [Upstream.Output] = []

        @inlinable init() {}

        @usableFromInline static var operatorName: String { "Collect" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            values.append(input)
            return .continue
        }

        @inlinable
        mutating func finalValue() -> [Upstream.Output]? {
            defer { values = [] }
            return values
        }

        /// Apple's `collect()` stage shows only how many values it holds.
        @usableFromInline
        func mirrorChildren(downstream: Any, status: String) -> [(label: String?, value: Any)] {
            [("count", values.count)]
        }
    }
}

extension Publisher {
    /// Gathers every value into one array, published when the upstream finishes. The array grows
    /// without bound, so use it only on streams known to end.
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

// Sendable when everything it stores is.
extension Publishers.Collect: Sendable where Upstream: Sendable {}

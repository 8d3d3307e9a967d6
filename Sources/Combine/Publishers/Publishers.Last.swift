extension Publishers {
    /// The publisher `last()` returns: once the upstream finishes, its final value (if any).
    public struct Last<Upstream: Publisher>: Publisher {
        /// The selected value.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher a value is selected from.
        public let upstream: Upstream

        /// Wraps `upstream`; prefer the `Publisher` operator method.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.receive(subscriber: ReducingStage(downstream: subscriber, strategy: Strategy()))
        }
    }

    /// The publisher `last(where:)` returns: once the upstream finishes, the last value that
    /// satisfied the predicate (if any).
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The selected value.
        public typealias Output = Upstream.Output
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher a value is selected from.
        public let upstream: Upstream

        /// Recognises the values that qualify.
        public let predicate: (Output) -> Bool

        /// Wraps `upstream`; prefer the `Publisher` operator method.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.receive(subscriber: ReducingStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }

    /// The publisher `tryLast(where:)` returns: like ``Publishers/LastWhere`` but the predicate
    /// may throw, which ends the stream with that error and no value.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The selected value.
        public typealias Output = Upstream.Output
        /// Anything the upstream or the predicate throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher a value is selected from.
        public let upstream: Upstream

        /// Recognises the values that qualify.
        public let predicate: (Output) throws -> Bool

        /// Wraps `upstream`; prefer the `Publisher` operator method.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            upstream.receive(subscriber: ReducingStage(downstream: subscriber, strategy: Strategy(predicate: predicate)))
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publishers.Last {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline var last: Output?

        @inlinable init() {}

        @usableFromInline static var operatorName: String { "Last" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            last = input
            return .continue
        }

        @inlinable
        mutating func finalValue() -> Output? { last }
    }
}

extension Publishers.LastWhere {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let predicate: (Output) -> Bool
        @usableFromInline var last: Output?

        @inlinable init(predicate: @escaping (Output) -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "LastWhere" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            if predicate(input) { last = input }
            return .continue
        }

        @inlinable
        mutating func finalValue() -> Output? { last }
    }
}

extension Publishers.TryLastWhere {
    @usableFromInline
    struct Strategy: ReducingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Output = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline let predicate: (Output) throws -> Bool
        @usableFromInline var last: Output?

        @inlinable init(predicate: @escaping (Output) throws -> Bool) { self.predicate = predicate }

        @usableFromInline static var operatorName: String { "TryLastWhere" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            do {
                if try predicate(input) { last = input }
                return .continue
            } catch {
                thrown = error
                return .failure
            }
        }

        @usableFromInline var thrown: (any Error)?

        @inlinable
        mutating func takeFailure() -> any Error {
            guard let thrown else { APIViolation.unexpected("\(Self.operatorName) lost its error") }
            return thrown
        }

        @inlinable
        mutating func finalValue() -> Output? { last }
    }
}

extension Publisher {
    /// Publishes the upstream's final value once it finishes.
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Publishes the last value satisfying `predicate` once the upstream finishes.
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Like `last(where:)`, but the predicate may throw; an error ends the stream with no value.
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

// Sendable when everything it stores is.
extension Publishers.Last: Sendable where Upstream: Sendable {}

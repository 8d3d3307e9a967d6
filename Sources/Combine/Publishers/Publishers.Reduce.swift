extension Publishers {
    /// The publisher `reduce(_:_:)` returns: it folds every value into an accumulator and
    /// publishes the final accumulator once, when the upstream finishes.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// Folding cannot fail, so errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are folded.
        public let upstream: Upstream

        /// The accumulator's starting value (published as is if the upstream is empty).
        public let initial: Output

        /// Combines the accumulator with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Wraps `upstream`; prefer `upstream.reduce(initial, nextPartialResult)`.
        @inlinable
        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(ReducingStage(
                downstream: subscriber, strategy: Strategy(accumulator: initial, next: nextPartialResult)))
        }
    }

    /// The publisher `tryReduce(_:_:)` returns: like ``Publishers/Reduce`` but the closure may
    /// throw, which ends the stream with that error and no value.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Anything the upstream or the closure throws, erased to `Error`.
        public typealias Failure = any Error

        /// The publisher whose values are folded.
        public let upstream: Upstream

        /// The accumulator's starting value.
        public let initial: Output

        /// Combines the accumulator with the next value, or throws to stop.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Wraps `upstream`; prefer `upstream.tryReduce(initial, nextPartialResult)`.
        @inlinable
        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Connects `subscriber`; the upstream is asked for everything at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(ReducingStage(
                downstream: subscriber, strategy: Strategy(accumulator: initial, next: nextPartialResult)))
        }
    }
}

/// The strategy of `reduce(_:_:)` and `tryReduce(_:_:)`: the accumulated value, published when
/// the upstream finishes and shown by the stage's mirror beside the initial one.
@usableFromInline
protocol AccumulatingStrategy: ReducingStrategy {
    var accumulator: Output { get }
    var initial: Output { get }
}

extension AccumulatingStrategy {
    @usableFromInline var reflectedResult: Any? { accumulator }
    @usableFromInline var reflectedInitial: Any? { initial }

    @inlinable
    mutating func finalValue() -> Output? { accumulator }
}

extension Publishers.Reduce {
    @usableFromInline
    struct Strategy: AccumulatingStrategy {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline var accumulator: Output
        @usableFromInline let initial: Output
        @usableFromInline let next: (Output, Upstream.Output) -> Output

        @inlinable
        init(accumulator: Output, next: @escaping (Output, Upstream.Output) -> Output) {
            self.accumulator = accumulator
            self.initial = accumulator
            self.next = next
        }

        @usableFromInline static var operatorName: String { "Reduce" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            accumulator = next(accumulator, input)
            return .continue
        }
    }
}

extension Publishers.TryReduce {
    @usableFromInline
    struct Strategy: AccumulatingStrategy, KeepsThrownError {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias UpstreamFailure = Upstream.Failure
        @usableFromInline typealias Failure = any Error

        @usableFromInline var accumulator: Output
        @usableFromInline let initial: Output
        @usableFromInline let next: (Output, Upstream.Output) throws -> Output

        @inlinable
        init(accumulator: Output, next: @escaping (Output, Upstream.Output) throws -> Output) {
            self.accumulator = accumulator
            self.initial = accumulator
            self.next = next
        }

        @usableFromInline static var operatorName: String { "TryReduce" }

        @inlinable
        mutating func receive(_ input: Input) -> ReducingOutcome {
            do {
                accumulator = try next(accumulator, input)
                return .continue
            } catch {
                thrown = error
                return .failure
            }
        }

        @usableFromInline var thrown: (any Error)?
    }
}

extension Publisher {
    /// Folds all values into one result, published when the upstream finishes.
    /// `[1, 2, 3, 4].publisher.reduce(1, *)` publishes 24.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Like `reduce`, but the closure may throw; an error ends the stream with no value.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

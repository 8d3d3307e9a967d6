// Apple's specialisations of the single-upstream operators for `Result.Publisher`: one value or
// one failure, so each answer is computed now and returned as another `Result` publisher. A
// failure passes through untouched (the closures are only called on success).

extension Result.Publisher where Success: Equatable {
    /// Whether the value equals `output`, or the failure.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// One value has no repeats.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Success: Comparable {
    /// One value is the smallest.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// One value is the largest.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Failure == Never {
    /// The same value, declared with a failure type it will never use.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(result.get()))
    }
}

extension Result.Publisher {
    /// Whether the value satisfies `predicate`, or the failure.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Like `allSatisfy`, but a thrown error becomes the failure.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(singleOpTry(predicate))
    }

    /// The value in a one-element array, or the failure.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// Whether the value satisfies `predicate`, or the failure.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Like `contains(where:)`, but a thrown error becomes the failure.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(singleOpTry(predicate))
    }

    /// 1, or the failure.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// The value is the first one.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// The value is the last one.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// Only the completion remains. As the result type in Apple's Combine implies, this finishes
    /// even when the result is a failure.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty<Output, Failure>() }

    /// The transformed value, or the failure.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Like `map`, but a thrown error becomes the failure.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(singleOpTry(transform))
    }

    /// The value, or the converted failure.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// One value wins any comparison; `areInIncreasingOrder` is never called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// One value wins any comparison; `areInIncreasingOrder` is never called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// One value wins any comparison, but as on Apple's platforms the closure is called once,
    /// with the value twice, and a thrown error becomes the failure; a failure stays as it is.
    @inlinable
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(singleOpTry { value in _ = try areInIncreasingOrder(value, value); return value })
    }

    /// One value wins any comparison, but as on Apple's platforms the closure is called once,
    /// with the value twice, and a thrown error becomes the failure; a failure stays as it is.
    @inlinable
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(singleOpTry { value in _ = try areInIncreasingOrder(value, value); return value })
    }

    /// The value folded once into `initialResult`, or the failure.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Like `reduce`, but a thrown error becomes the failure.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(singleOpTry { try nextPartialResult(initialResult, $0) })
    }

    /// One value has no repeats; `predicate` is never called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// One value has no repeats, but as on Apple's platforms `predicate` is called once, with
    /// the value twice, and a thrown error becomes the failure; a failure stays as it is.
    @inlinable
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(singleOpTry { value in _ = try predicate(value, value); return value })
    }

    /// A result is never empty: the value or the failure stays as it is.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// The value folded once into `initialResult`, or the failure.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Like `scan`, but a thrown error becomes the failure.
    @inlinable
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(singleOpTry { try nextPartialResult(initialResult, $0) })
    }

    /// Applies a throwing closure to the success value, erasing the failure type.
    @inlinable
    internal func singleOpTry<T>(_ body: (Output) throws -> T) -> Result<T, any Error> {
        switch result {
        case .success(let value): return Result<T, any Error> { try body(value) }
        case .failure(let error): return .failure(error)
        }
    }
}

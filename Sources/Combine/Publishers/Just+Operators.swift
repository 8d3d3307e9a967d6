// Apple's specialisations of the single-upstream operators for `Just`. A `Just` has exactly one
// value and cannot fail, so each operator's answer is known at once: these overloads compute it
// eagerly (their closures do not escape) and return the simplest publisher that replays it,
// exactly the types Apple's Combine returns, so code that names those types compiles unchanged.

extension Just where Output: Comparable {
    /// The only value is both the smallest and the largest.
    @inlinable
    public func min() -> Just<Output> { self }

    /// The only value is both the smallest and the largest.
    @inlinable
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Whether the single value equals `output`, answered now.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// A single value has no repeats.
    @inlinable
    public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
    /// Whether the single value satisfies `predicate`, answered now.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Like `allSatisfy`, but a thrown error becomes the publisher's failure.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// The single value wrapped in a one-element array.
    @inlinable
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// The transformed value, or an empty publisher when `transform` returns `nil`.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// The only value wins any comparison.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The only value wins any comparison.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// `elements` followed by the value, as one sequence publisher.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        prepend(elements)
    }

    /// The elements of `elements` followed by the value, as one sequence publisher.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure> where Output == S.Element {
        Publishers.Sequence(sequence: Array(elements) + [output])
    }

    /// The value followed by `elements`, as one sequence publisher.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        append(elements)
    }

    /// The value followed by the elements of `elements`, as one sequence publisher.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure> where Output == S.Element {
        Publishers.Sequence(sequence: [output] + Array(elements))
    }

    /// Whether the single value satisfies `predicate`, answered now.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Like `contains(where:)`, but a thrown error becomes the publisher's failure.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// A `Just` always publishes exactly one value.
    @inlinable
    public func count() -> Just<Int> { Just<Int>(1) }

    /// Empty when at least one value is dropped, otherwise the value.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        if count < 0 { APIViolation.invalidOperatorArgument("dropFirst(_:) needs a count >= 0, got \(count)") }
        return Optional<Output>.Publisher(count == 0 ? output : nil)
    }

    /// Empty when `predicate` drops the value, otherwise the value.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// The single value is the first one.
    @inlinable
    public func first() -> Just<Output> { self }

    /// The value if it satisfies `predicate`, otherwise an empty publisher.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The single value is the last one.
    @inlinable
    public func last() -> Just<Output> { self }

    /// The value if it satisfies `predicate`, otherwise an empty publisher.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The value if `isIncluded` accepts it, otherwise an empty publisher.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// Only the completion remains.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty<Output, Failure>() }

    /// A `Just` of the transformed value, computed now.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// The transformed value, or the thrown error as the failure.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try transform(output) })
    }

    /// A `Just` never fails, so this only changes the declared failure type.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }

    /// The value when `index` is 0, otherwise an empty publisher.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        if index < 0 { APIViolation.invalidOperatorArgument("output(at:) needs index >= 0, got \(index)") }
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// The value when `range`, taken relative to `0..<Int.max`, starts at position 0; otherwise an
    /// empty publisher.
    ///
    /// Only the lower bound counts, as in Apple's Combine: `0..<0` and `0...0` publish the value,
    /// `1..<10` and `-10..<10` publish nothing. No range traps.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        return Optional<Output>.Publisher(positions.lowerBound == 0 ? output : nil)
    }

    /// The value when `maxLength` is at least 1, otherwise an empty publisher.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        if maxLength < 0 { APIViolation.invalidOperatorArgument("prefix(_:) needs maxLength >= 0, got \(maxLength)") }
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// The value if it satisfies `predicate`, otherwise an empty publisher.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The value folded once into `initialResult`.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// Like `reduce`, but a thrown error becomes the publisher's failure.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// A single value has no repeats; `predicate` is never called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// A single value has no repeats, but as on Apple's platforms `predicate` is called once,
    /// with the value twice; if it throws, the result fails with that error.
    @inlinable
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(Result { _ = try predicate(output, output); return output })
    }

    /// A `Just` is never empty.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// The value folded once into `initialResult`.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// Like `scan`, but a thrown error becomes the publisher's failure.
    @inlinable
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// The same value, declared with a failure type it will never use.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }
}

// Apple's specialisations of the single-upstream operators for `Publishers.Sequence`. The
// elements are all known up front and the publisher never fails, so these overloads do the work
// now, with the standard library's sequence algorithms (their closures do not escape), and return
// another sequence publisher, or a `Result`, `Optional` or `Just` publisher holding the answer:
// exactly the result types Apple's Combine declares.

extension Publishers.Sequence where Failure == Never {
    /// The smallest element under `areInIncreasingOrder`, or empty for an empty sequence.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The largest element under `areInIncreasingOrder`, or empty for an empty sequence.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// The first element satisfying `predicate`, or empty.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// Whether every element satisfies `predicate`.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
    }

    /// Like `allSatisfy`, but a thrown error becomes the failure.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result<Bool, any Error> { try sequence.allSatisfy(predicate) })
    }

    /// All the elements as one array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(.success(Array(sequence)))
    }

    /// The non-`nil` results of `transform`, computed now.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Whether some element satisfies `predicate`.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
    }

    /// Like `contains(where:)`, but a thrown error becomes the failure.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result<Bool, any Error> { try sequence.contains(where: predicate) })
    }

    /// The elements after the leading ones `predicate` accepts.
    @inlinable
    public func drop(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// The elements after the first `count`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// The elements `isIncluded` accepts, computed now.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Only the completion remains.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty<Output, Failure>() }

    /// The transformed elements, computed now.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// At most the first `maxLength` elements.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// The leading elements `predicate` accepts.
    @inlinable
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// All elements folded into one result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// Like `reduce`, but a thrown error becomes the failure.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result<T, any Error> { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Every `nil` element replaced by `output` (the elements keep their optional type, as in
    /// Apple's declaration).
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Every intermediate fold result, computed now.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Sequence<[T], Failure> {
        var accumulator = initialResult
        var results: [T] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            accumulator = nextPartialResult(accumulator, element)
            results.append(accumulator)
        }
        return Publishers.Sequence<[T], Failure>(sequence: results)
    }

    /// The same elements, declared with another failure type (a sequence never fails).
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// The elements without consecutive repeats, computed now.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var result: [Output] = []
        for element in sequence where result.last != element {
            result.append(element)
        }
        return Publishers.Sequence<[Output], Failure>(sequence: result)
    }

    /// Whether `output` is one of the elements.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The smallest element, or empty for an empty sequence.
    @inlinable
    public func min() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.min()) }

    /// The largest element, or empty for an empty sequence.
    @inlinable
    public func max() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.max()) }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The first element, or empty.
    @inlinable
    public func first() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.first) }

    /// The element at `index`, or empty when the index is out of bounds.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// The number of elements.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }

    /// The elements at the positions in `range` that exist.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        let valid = range.clamped(to: sequence.startIndex..<sequence.endIndex)
        return Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[valid]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// The last element, or empty.
    @inlinable
    public func last() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.last) }

    /// The last element satisfying `predicate`, or empty.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The element at `index`, or empty when the index is out of bounds.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        let inBounds = index >= sequence.startIndex && index < sequence.endIndex
        return Optional<Output>.Publisher(inBounds ? sequence[index] : nil)
    }

    /// The number of elements, known now and never failing.
    @inlinable
    public func count() -> Just<Int> { Just<Int>(sequence.count) }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// The elements at the positions in `range` that exist.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        let valid = range.clamped(to: sequence.startIndex..<sequence.endIndex)
        return Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[valid]))
    }

    /// The number of elements.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// `elements` followed by this sequence, as one sequence publisher.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// The elements of `elements` followed by this sequence, as one sequence publisher.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure> where Elements.Element == S.Element {
        var combined = Elements(elements)
        combined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: combined)
    }

    /// `publisher`'s elements followed by this sequence, as one sequence publisher.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        prepend(publisher.sequence)
    }

    /// This sequence followed by `elements`, as one sequence publisher.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// This sequence followed by the elements of `elements`, as one sequence publisher.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure> where Elements.Element == S.Element {
        var combined = sequence
        combined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: combined)
    }

    /// This sequence followed by `publisher`'s elements, as one sequence publisher.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}

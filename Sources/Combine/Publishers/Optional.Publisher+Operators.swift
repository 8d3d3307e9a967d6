// Apple's specialisations of the single-upstream operators for `Optional.Publisher`: at most one
// value and no failure, so each answer is computed now and returned as another `Optional` or
// `Just` publisher. As in Apple's Combine, an absent value stays absent (for example `count()` of
// an empty optional publishes nothing rather than 0): the result types leave no other choice.

extension Optional.Publisher where Wrapped: Equatable {
    /// Whether the value equals `output`; empty when there is no value.
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// At most one value has no repeats.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// At most one value: it is the smallest.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher { self }

    /// At most one value: it is the largest.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
    /// Whether the value satisfies `predicate`; empty when there is no value.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The value in a one-element array; an empty array when there is no value, as on Apple's
    /// platforms (`collect()` of an upstream that finishes at once publishes `[]`).
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// The transformed value, or empty when there is none or `transform` returns `nil`.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// Whether the value satisfies `predicate`; empty when there is no value.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// 1 when there is a value; empty otherwise.
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Empty when `predicate` drops the value, otherwise unchanged.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// Empty when at least one value is dropped, otherwise unchanged.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        if count < 0 { APIViolation.invalidOperatorArgument("dropFirst(_:) needs a count >= 0, got \(count)") }
        return Optional<Wrapped>.Publisher(count == 0 ? output : nil)
    }

    /// The value if `isIncluded` accepts it, otherwise empty.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// The value, if any, is the first one.
    @inlinable
    public func first() -> Optional<Wrapped>.Publisher { self }

    /// The value if it satisfies `predicate`, otherwise empty.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher { filter(predicate) }

    /// Only the completion remains.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty<Output, Failure>() }

    /// The value, if any, is the last one.
    @inlinable
    public func last() -> Optional<Wrapped>.Publisher { self }

    /// The value if it satisfies `predicate`, otherwise empty.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher { filter(predicate) }

    /// The transformed value, computed now; empty when there is none.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// At most one value wins any comparison.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// At most one value wins any comparison.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// The value when `index` is 0, otherwise empty.
    @inlinable
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        if index < 0 { APIViolation.invalidOperatorArgument("output(at:) needs index >= 0, got \(index)") }
        return Optional<Wrapped>.Publisher(index == 0 ? output : nil)
    }

    /// The value when `range` includes position 0, otherwise empty.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        // Apple's two rules for this specialisation: no negative start, and an end below Int.max - 1.
        if positions.lowerBound < 0 {
            APIViolation.invalidOperatorArgument("output(in:) needs a range starting at 0 or later, got \(positions)")
        }
        if positions.upperBound >= Int.max - 1 {
            APIViolation.invalidOperatorArgument("output(in:) needs a range ending below Int.max - 1, got \(positions)")
        }
        return Optional<Wrapped>.Publisher(positions.contains(0) ? output : nil)
    }

    /// The value when `maxLength` is at least 1, otherwise empty.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        if maxLength < 0 { APIViolation.invalidOperatorArgument("prefix(_:) needs maxLength >= 0, got \(maxLength)") }
        return Optional<Wrapped>.Publisher(maxLength > 0 ? output : nil)
    }

    /// The value if it satisfies `predicate`, otherwise empty.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher { filter(predicate) }

    /// The value folded once into `initialResult`; empty when there is no value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// At most one value has no repeats; `predicate` is never called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// The value, or `output` when there is none.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Wrapped> { Just<Wrapped>(self.output ?? output) }

    /// The value folded once into `initialResult`; empty when there is no value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }
}

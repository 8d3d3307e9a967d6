/// Which qualifying value `first()`/`last()` and their `where` variants publish.
@usableFromInline
protocol SelectionEnd {
    /// `"First"` or `"Last"`, the start of the operators' names.
    static var name: String { get }
    /// The description of the `where:` variant's subscription: Apple names `first(where:)`'s
    /// `"TryFirst"` (and `tryFirst(where:)`'s `"TryFirstWhere"`), `last(where:)`'s `"LastWhere"`.
    static var whereName: String { get }
    /// Whether the first match is published at once, cancelling the upstream (`first`), rather
    /// than the latest one being kept until the upstream finishes (`last`).
    static var stopsAtFirstMatch: Bool { get }
}

/// `first()`, `first(where:)`, `tryFirst(where:)`.
@usableFromInline
enum FirstMatch: SelectionEnd {
    @usableFromInline static var name: String { "First" }
    @usableFromInline static var whereName: String { "TryFirst" }
    @inlinable static var stopsAtFirstMatch: Bool { true }
}

/// `last()`, `last(where:)`, `tryLast(where:)`.
@usableFromInline
enum LastMatch: SelectionEnd {
    @usableFromInline static var name: String { "Last" }
    @usableFromInline static var whereName: String { "LastWhere" }
    @inlinable static var stopsAtFirstMatch: Bool { false }
}

/// The reducing strategies of `first` and `last`: they remember a matching value and publish it
/// (or nothing) at the end.
@usableFromInline
protocol SelectingStrategy: ReducingStrategy where Output == Input {
    associatedtype End: SelectionEnd
    var selected: Output? { get set }
}

extension SelectingStrategy {
    /// Remembers `input` as the answer; `first` is done with it, `last` waits for a later one.
    @inlinable @inline(__always)
    mutating func select(_ input: Input) -> ReducingOutcome {
        selected = input
        return End.stopsAtFirstMatch ? .finish : .continue
    }

    @inlinable
    mutating func finalValue() -> Output? { selected }

    @usableFromInline
    var reflectedResult: Any? { selected }
}

/// `first()` and `last()`: every value qualifies.
@usableFromInline
struct SelectAny<Upstream: Publisher, End: SelectionEnd>: SelectingStrategy {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias UpstreamFailure = Upstream.Failure
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline var selected: Input?

    @inlinable init() {}

    @usableFromInline static var operatorName: String { End.name }

    @inlinable
    mutating func receive(_ input: Input) -> ReducingOutcome { select(input) }
}

/// `first(where:)` and `last(where:)`.
@usableFromInline
struct SelectWhere<Upstream: Publisher, End: SelectionEnd>: SelectingStrategy {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias UpstreamFailure = Upstream.Failure
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let predicate: (Input) -> Bool
    @usableFromInline var selected: Input?

    @inlinable init(predicate: @escaping (Input) -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { End.whereName }

    @inlinable
    mutating func receive(_ input: Input) -> ReducingOutcome {
        predicate(input) ? select(input) : .continue
    }
}

/// `tryFirst(where:)` and `tryLast(where:)`: a throwing predicate ends the stream with its error
/// and no value.
@usableFromInline
struct TrySelectWhere<Upstream: Publisher, End: SelectionEnd>: SelectingStrategy, KeepsThrownError {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias UpstreamFailure = Upstream.Failure
    @usableFromInline typealias Failure = any Error

    @usableFromInline let predicate: (Input) throws -> Bool
    @usableFromInline var selected: Input?
    @usableFromInline var thrown: (any Error)?

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "Try\(End.name)Where" }

    @inlinable
    mutating func receive(_ input: Input) -> ReducingOutcome {
        do {
            return try predicate(input) ? select(input) : .continue
        } catch {
            thrown = error
            return .failure
        }
    }
}

/// The question `allSatisfy` and `contains(where:)` (and their `try` variants) answer with one
/// `Bool`: both stop at the first value whose predicate result settles it, cancelling the upstream.
@usableFromInline
protocol VerdictQuestion {
    /// `"AllSatisfy"` or `"ContainsWhere"`, the operator's name without `Try`.
    static var name: String { get }
    /// The predicate result that settles the question, which is then also the answer: `false`
    /// for `allSatisfy` (one failing value), `true` for `contains(where:)` (one match). If no
    /// value settles it, the answer is the opposite.
    static var settlingResult: Bool { get }
}

/// `allSatisfy(_:)`, `tryAllSatisfy(_:)`.
@usableFromInline
enum EveryValuePasses: VerdictQuestion {
    @usableFromInline static var name: String { "AllSatisfy" }
    @inlinable static var settlingResult: Bool { false }
}

/// `contains(where:)`, `tryContains(where:)`.
@usableFromInline
enum SomeValueMatches: VerdictQuestion {
    @usableFromInline static var name: String { "ContainsWhere" }
    @inlinable static var settlingResult: Bool { true }
}

/// What ``VerdictStrategy`` and ``TryVerdictStrategy`` share: the answer so far, which the first
/// predicate result that settles the question fixes, and how the stage shows it.
@usableFromInline
protocol VerdictReaching: ReducingStrategy where Output == Bool {
    associatedtype Question: VerdictQuestion

    /// The answer so far: the opposite of the settling result until a value settles it.
    var answer: Bool { get set }
}

extension VerdictReaching {
    /// Settles the question if `result` does (and then stops the stream), else goes on.
    @inlinable
    mutating func weigh(_ result: Bool) -> ReducingOutcome {
        guard result == Question.settlingResult else { return .continue }
        answer = Question.settlingResult
        return .finish
    }

    @inlinable
    mutating func finalValue() -> Bool? { answer }

    @usableFromInline
    var reflectedResult: Any? { answer }

    @usableFromInline
    var reflectedInitial: Any? { !Question.settlingResult }
}

/// The reducing strategy of `allSatisfy` and `contains(where:)`.
@usableFromInline
struct VerdictStrategy<Upstream: Publisher, Question: VerdictQuestion>: VerdictReaching {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Output = Bool
    @usableFromInline typealias UpstreamFailure = Upstream.Failure
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let predicate: (Input) -> Bool
    @usableFromInline var answer = !Question.settlingResult

    @inlinable init(predicate: @escaping (Input) -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { Question.name }

    @inlinable
    mutating func receive(_ input: Input) -> ReducingOutcome {
        weigh(predicate(input))
    }
}

/// The reducing strategy of `tryAllSatisfy` and `tryContains(where:)`: a throwing predicate ends
/// the stream with its error and no value.
@usableFromInline
struct TryVerdictStrategy<Upstream: Publisher, Question: VerdictQuestion>: VerdictReaching, KeepsThrownError {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Output = Bool
    @usableFromInline typealias UpstreamFailure = Upstream.Failure
    @usableFromInline typealias Failure = any Error

    @usableFromInline let predicate: (Input) throws -> Bool
    @usableFromInline var answer = !Question.settlingResult
    @usableFromInline var thrown: (any Error)?

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "Try\(Question.name)" }

    @inlinable
    mutating func receive(_ input: Input) -> ReducingOutcome {
        do {
            return weigh(try predicate(input))
        } catch {
            thrown = error
            return .failure
        }
    }
}

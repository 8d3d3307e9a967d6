/// What `combineLatest` and `zip` (2, 3 and 4 inputs) share: upstreams of different output types
/// whose values are stored per input and turned into tuples.
///
/// The per-input storage and the rule that makes tuples differ between the two operators and are
/// described by a ``FanInCombineStorage``. Their demand protocols differ too, so each has its own
/// engine: ``FanInCombineStateMachine`` for `combineLatest`, ``ZipStateMachine`` for `zip`.
/// Both fail on the first failure and cancel the upstreams; `combineLatest` finishes once every
/// upstream has finished, `zip` as soon as an upstream has finished and none of its values is left
/// to pair.
@usableFromInline
protocol FanInCombineStorage {
    /// The tuple delivered downstream.
    associatedtype Output

    /// Empty storage: no input has sent anything.
    init()

    /// `true` for zip (values pair one to one, and are kept until paired), `false` for
    /// combineLatest (one tuple per arriving value, made from the latest value of every input).
    /// It decides when the inputs that have finished leave nothing to combine (``isExhausted``).
    static var pairsStrictly: Bool { get }

    /// The subscription's `description`, as Apple prints it.
    static var subscriptionDescription: String { get }

    /// The next tuple, if every input can contribute one; zip consumes what it uses.
    mutating func takeOutput() -> Output?

    /// Whether input `index` has nothing stored (only meaningful for zip).
    func isEmpty(at index: Int) -> Bool

    /// Releases every stored value.
    mutating func removeAll()
}

extension FanInCombineStorage {
    /// Whether no further tuple can be made now that some inputs have finished (`unfinished` of
    /// `arity` are still running; `isFinished` says which have finished). A zip can make none once
    /// a finished input has no value left to pair; a combineLatest still makes one for every value
    /// of a running input, so it is exhausted only when every input has finished.
    @inlinable
    func isExhausted(arity: Int, unfinished: Int, isFinished: (Int) -> Bool) -> Bool {
        guard Self.pairsStrictly else { return unfinished == 0 }
        return (0..<arity).contains { isFinished($0) && isEmpty(at: $0) }
    }
}

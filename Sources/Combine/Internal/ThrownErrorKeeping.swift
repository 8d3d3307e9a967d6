/// The strategy of a `try` operator (`tryFilter`, `tryMap`, `tryReduce`, …): when its closure
/// throws, it stores the error in `thrown` and reports `.failure`; the stage then asks for the
/// error with `takeFailure()`, which this protocol supplies for both stage kinds.
@usableFromInline
protocol KeepsThrownError {
    /// Apple's name for the operator, named in the crash report if the error went missing.
    static var operatorName: String { get }

    /// The error the operator's closure threw, set just before the strategy reports `.failure`.
    var thrown: (any Error)? { get }
}

extension KeepsThrownError {
    /// The kept error; its absence after a `.failure` is a bug in the strategy.
    @inlinable
    func keptError() -> any Error {
        guard let thrown else { APIViolation.unexpected("\(Self.operatorName) lost its error") }
        return thrown
    }
}

extension FilteringStrategy where Self: KeepsThrownError, Failure == any Error {
    @inlinable
    mutating func takeFailure() -> any Error { keptError() }
}

extension ReducingStrategy where Self: KeepsThrownError, Failure == any Error {
    @inlinable
    mutating func takeFailure() -> any Error { keptError() }
}

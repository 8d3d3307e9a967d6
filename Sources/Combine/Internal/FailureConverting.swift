/// A stage's rule for its failure type: the upstream's own (`filter`, `first`, `reduce`…) or
/// `any Error` (the `try` operators, whose closures may throw). Shared by the filtering and the
/// reducing strategies, which convert an upstream failure the same way.
@usableFromInline
protocol FailureConverting {
    /// How the upstream fails.
    associatedtype UpstreamFailure: Error
    /// How the stage fails.
    associatedtype Failure: Error

    /// Converts an upstream failure to the stage's failure type.
    static func convert(_ failure: UpstreamFailure) -> Failure
}

extension FailureConverting where Failure == UpstreamFailure {
    @inlinable
    static func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

extension FailureConverting where Failure == any Error {
    @inlinable
    static func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

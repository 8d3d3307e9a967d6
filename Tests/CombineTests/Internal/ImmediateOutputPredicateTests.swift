@testable import Combine
import Testing

/// `ImmediateOutput` answers by type in optimised builds and by conformance in unoptimised ones;
/// the two must agree on every publisher, or a release build would take the shortcut where a
/// debug build does not (or the reverse).
@Suite("ImmediateOutput: the answer by type and by conformance agree")
struct ImmediateOutputPredicateTests {
    enum TestError: Error { case boom }

    /// Both answers for one publisher: whether its type is a candidate, and its value.
    func expectAgreement<P: Publisher>(_ publisher: P, candidate: Bool, value expected: P.Output?,
                                       sourceLocation: SourceLocation = #_sourceLocation) where P.Output: Equatable {
        #expect(ImmediateOutput.isCandidateByType(P.self) == candidate, sourceLocation: sourceLocation)
        #expect(ImmediateOutput.isCandidateByConformance(P.self) == candidate, sourceLocation: sourceLocation)
        #expect(ImmediateOutput.valueByType(of: publisher) == expected, sourceLocation: sourceLocation)
        #expect(ImmediateOutput.valueByConformance(of: publisher) == expected, sourceLocation: sourceLocation)
    }

    @Test func theOneValuePublishersAndTheirFailureTypeWrappers() {
        expectAgreement(Just(1), candidate: true, value: 1)
        expectAgreement(Optional(2).publisher, candidate: true, value: 2)
        expectAgreement(Optional<Int>.none.publisher, candidate: true, value: nil)
        expectAgreement(Result<Int, TestError>.success(3).publisher, candidate: true, value: 3)
        expectAgreement(Result<Int, TestError>.failure(.boom).publisher, candidate: true, value: nil)
        // `Just`'s own `setFailureType(to:)` and `map` make a `Result.Publisher` and a `Just`.
        expectAgreement(Just(4).setFailureType(to: TestError.self), candidate: true, value: 4)
        expectAgreement(Just(1).map { $0 + 1 }, candidate: true, value: 2)
        // What `flatMap` and `switchToLatest` wrap inner publishers in when only the upstream
        // can fail.
        expectAgreement(Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just(4)), candidate: true, value: 4)
        expectAgreement(Publishers.SetFailureType<Optional<Int>.Publisher, TestError>(upstream: Optional(5).publisher),
                        candidate: true, value: 5)
        expectAgreement(Publishers.SetFailureType<Optional<Int>.Publisher, TestError>(upstream: Optional<Int>.none.publisher),
                        candidate: true, value: nil)
        expectAgreement(
            Publishers.SetFailureType<Result<Int, Never>.Publisher, TestError>(upstream: .init(6)),
            candidate: true, value: 6)
    }

    /// An optional output: a `nil` value is a value, told apart from "no value".
    @Test func anOptionalOutputOfNilIsAValue() {
        expectAgreement(Just<Int?>(nil), candidate: true, value: .some(nil))
        expectAgreement(Optional<Int?>.some(nil).publisher, candidate: true, value: .some(nil))
        expectAgreement(Publishers.SetFailureType<Just<Int?>, TestError>(upstream: Just(nil)),
                        candidate: true, value: .some(nil))
    }

    @Test func otherPublishersAreNotCandidates() {
        expectAgreement(Deferred { Just(1) }, candidate: false, value: nil)
        expectAgreement(Empty<Int, Never>(), candidate: false, value: nil)
        expectAgreement(Just(1).eraseToAnyPublisher(), candidate: false, value: nil)
        expectAgreement(PassthroughSubject<Int, Never>(), candidate: false, value: nil)
        // One wrapper is looked through, not two.
        expectAgreement(
            Publishers.SetFailureType<Publishers.SetFailureType<Just<Int>, Never>, TestError>(
                upstream: Publishers.SetFailureType(upstream: Just(1))),
            candidate: false, value: nil)
    }
}

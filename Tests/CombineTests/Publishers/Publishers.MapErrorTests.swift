import Combine
import TestSupport
import Testing

@Suite("Publishers.MapError")
struct PublishersMapErrorTests {
    enum Wrapped: Error, Equatable { case wrapped(SingleOp.TestError) }

    @Test func convertsFailureAndPassesValues() {
        let (up, sub) = SingleOp.attach({ $0.mapError { Wrapped.wrapped($0) } }, demand: .max(1), after: { _ in .max(1) })
        #expect(up.send(1) == .max(1))
        up.send(completion: .failure(.boom))
        #expect(sub.values == [1])
        #expect(sub.completions == [.failure(.wrapped(.boom))])
        #expect(SingleOp.events(sub).first == "subscription(TestUpstream)")
    }

    @Test func finishedAndCancel() {
        let (up, sub) = SingleOp.attach({ Publishers.MapError(upstream: $0, transform: { Wrapped.wrapped($0) }) })
        up.send(completion: .finished)
        #expect(sub.completions == [.finished])
        let (up2, sub2) = SingleOp.attach({ $0.mapError { $0 } })
        sub2.request(.max(1))
        sub2.cancel()
        #expect(SingleOp.calls(up2) == ["request(unlimited)", "request(max(1))", "cancel"])
    }
}

import Combine
import TestSupport
import Testing

@Suite("Publishers.ReplaceEmpty")
struct PublishersReplaceEmptyTests {
    @Test func emptyUpstreamGetsTheReplacement() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) })
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "value(42)", "finished"])
    }

    @Test func valuesPassAndNoReplacement() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) }, demand: .max(1))
        #expect(up.send(1) == .none)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "value(1)", "finished"])
        #expect(SingleOp.calls(up) == ["request(max(1))"])
    }

    @Test func failureIsNotReplaced() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) })
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "failure(boom)"])
    }

    @Test func replacementWaitsForDemand() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) }, demand: nil)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "value(42)", "finished"])
        #expect(up.calls.isEmpty)
    }

    @Test func cancellation() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) })
        sub.cancel()
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)"])
        #expect(up.isCancelled)
        #expect(Publishers.ReplaceEmpty(upstream: Just(1), output: 2) == Publishers.ReplaceEmpty(upstream: Just(1), output: 2))
    }
}

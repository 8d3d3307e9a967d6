import Combine
import TestSupport
import Testing

@Suite("Publishers.Contains")
struct PublishersContainsTests {
    @Test func trueAtFirstMatchFinishesEarlyAndCancelsUpstream() {
        let (up, sub) = SingleOp.attach({ $0.contains(2) })
        up.send(1)
        up.send(2)
        up.send(3)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Contains)", "value(true)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func earlyAnswerWaitsForDemand() {
        let (up, sub) = SingleOp.attach({ $0.contains(2) }, demand: nil)
        up.send(2)
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
        #expect(SingleOp.events(sub) == ["subscription(Contains)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(Contains)", "value(true)", "finished"])
    }

    @Test func falseOnFinishFailureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.contains(9) })
        up.send(1)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Contains)", "value(false)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.contains(9) })
        up2.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub2) == ["subscription(Contains)", "failure(boom)"])
        let (up3, sub3) = SingleOp.attach({ $0.contains(9) })
        sub3.cancel()
        up3.send(9)
        #expect(SingleOp.events(sub3) == ["subscription(Contains)"])
        #expect(up3.isCancelled)
        #expect(Publishers.Contains(upstream: Just(1), output: 1) == Publishers.Contains(upstream: Just(1), output: 1))
    }
}

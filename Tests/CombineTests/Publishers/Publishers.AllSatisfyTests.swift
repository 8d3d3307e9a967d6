import Combine
import TestSupport
import Testing

@Suite("Publishers.AllSatisfy / TryAllSatisfy")
struct PublishersAllSatisfyTests {
    typealias E = SingleOp.TestError

    @Test func trueWhenAllPassOnFinish() {
        let (up, sub) = SingleOp.attach({ $0.allSatisfy { $0 > 0 } }, demand: nil)
        up.send(1); up.send(2)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(AllSatisfy)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(AllSatisfy)", "value(true)", "finished"])
    }

    @Test func falseAtFirstFailingValueFinishesEarly() {
        let (up, sub) = SingleOp.attach({ $0.allSatisfy { $0 > 0 } })
        up.send(1); up.send(-1); up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(AllSatisfy)", "value(false)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func failureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.allSatisfy { $0 > 0 } })
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(AllSatisfy)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.allSatisfy { $0 > 0 } })
        sub2.cancel()
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(AllSatisfy)"])
        #expect(up2.isCancelled)
    }

    @Test func tryAllSatisfyThrowSendsNoValue() {
        let (up, sub) = SingleOp.attach({ $0.tryAllSatisfy { v in if v == 2 { throw E.boom }; return true } })
        up.send(1); up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(TryAllSatisfy)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }
}

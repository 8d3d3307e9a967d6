import Combine
import TestSupport
import Testing

@Suite("Publishers.ContainsWhere / TryContainsWhere")
struct PublishersContainsWhereTests {
    typealias E = SingleOp.TestError

    @Test func trueAtFirstMatch() {
        let (up, sub) = SingleOp.attach({ $0.contains { $0 > 1 } })
        up.send(1); up.send(2); up.send(3)
        #expect(SingleOp.events(sub) == ["subscription(ContainsWhere)", "value(true)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func falseOnFinishAndFailure() {
        let (up, sub) = SingleOp.attach({ $0.contains { $0 > 10 } }, demand: .max(1))
        up.send(1)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ContainsWhere)", "value(false)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.contains { $0 > 10 } })
        up2.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub2) == ["subscription(ContainsWhere)", "failure(boom)"])
        let (up3, sub3) = SingleOp.attach({ $0.contains { $0 > 10 } })
        sub3.cancel()
        #expect(up3.isCancelled)
        #expect(SingleOp.events(sub3) == ["subscription(ContainsWhere)"])
    }

    @Test func tryContainsThrowSendsNoValue() {
        let (up, sub) = SingleOp.attach({ $0.tryContains { v in if v == 2 { throw E.boom }; return false } })
        up.send(1); up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(TryContainsWhere)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }
}

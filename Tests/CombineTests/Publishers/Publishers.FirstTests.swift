import Combine
import TestSupport
import Testing

@Suite("Publishers.First / FirstWhere / TryFirstWhere")
struct PublishersFirstTests {
    typealias E = SingleOp.TestError

    @Test func firstFinishesEarlyAndCancels() {
        let (up, sub) = SingleOp.attach({ $0.first() })
        up.send(5); up.send(6)
        #expect(SingleOp.events(sub) == ["subscription(First)", "value(5)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func firstWaitsForDemandAndEmptyJustFinishes() {
        let (up, sub) = SingleOp.attach({ $0.first() }, demand: nil)
        up.send(5)
        #expect(SingleOp.events(sub) == ["subscription(First)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(First)", "value(5)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.first() }, demand: nil)
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(First)", "finished"])
    }

    @Test func firstWhereAndFailureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.first { $0 > 3 } })
        up.send(1); up.send(4); up.send(5)
        #expect(SingleOp.events(sub) == ["subscription(FirstWhere)", "value(4)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.first { $0 > 3 } })
        up2.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub2) == ["subscription(FirstWhere)", "failure(boom)"])
        let (up3, sub3) = SingleOp.attach({ $0.first() })
        sub3.cancel()
        up3.send(1)
        #expect(SingleOp.events(sub3) == ["subscription(First)"])
        #expect(SingleOp.calls(up3) == ["request(unlimited)", "cancel"])
    }

    @Test func tryFirstWhereThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryFirst { v in if v == 2 { throw E.boom }; return v > 5 } })
        up.send(1); up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(TryFirstWhere)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }
}

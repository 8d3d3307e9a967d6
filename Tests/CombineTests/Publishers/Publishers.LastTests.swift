import Combine
import TestSupport
import Testing

@Suite("Publishers.Last / LastWhere / TryLastWhere")
struct PublishersLastTests {
    typealias E = SingleOp.TestError

    @Test func lastOnFinish() {
        let (up, sub) = SingleOp.attach({ $0.last() }, demand: nil)
        up.send(1); up.send(2)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Last)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(Last)", "value(2)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
    }

    @Test func lastWhereNoMatchJustFinishes() {
        let (up, sub) = SingleOp.attach({ $0.last { $0 > 3 } })
        up.send(1); up.send(5); up.send(2)
        up.send(completion: .finished)
        #expect(sub.values == [5])
        let (up2, sub2) = SingleOp.attach({ $0.last { $0 > 30 } })
        up2.send(1)
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(LastWhere)", "finished"])
    }

    @Test func failureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.last() })
        up.send(1)
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(Last)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.last() })
        sub2.cancel()
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(Last)"])
        #expect(up2.isCancelled)
    }

    @Test func tryLastWhereThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryLast { v in if v == 2 { throw E.boom }; return true } })
        up.send(1); up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(TryLastWhere)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }
}

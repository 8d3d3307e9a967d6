import Combine
import TestSupport
import Testing

@Suite("Publishers.Reduce / TryReduce")
struct PublishersReduceTests {
    typealias E = SingleOp.TestError

    @Test func reducesOnFinishOnceDemandArrives() {
        let (up, sub) = SingleOp.attach({ $0.reduce(1, *) }, demand: nil)
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
        for v in 1...5 { up.send(v) }
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Reduce)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(Reduce)", "value(120)", "finished"])
    }

    @Test func emptyUpstreamPublishesInitial() {
        let (up, sub) = SingleOp.attach({ $0.reduce(7, +) })
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Reduce)", "value(7)", "finished"])
    }

    @Test func failureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.reduce(0, +) })
        up.send(1)
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(Reduce)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.reduce(0, +) })
        sub2.cancel()
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(Reduce)"])
        #expect(SingleOp.calls(up2) == ["request(unlimited)", "cancel"])
    }

    @Test func tryReduceThrowSendsOnlyTheFailure() {
        let (up, sub) = SingleOp.attach({ $0.tryReduce(1) { acc, v in if v == 5 { throw E.boom }; return acc * v } }, demand: nil)
        for v in 1...5 { up.send(v) }
        #expect(SingleOp.events(sub) == ["subscription(TryReduce)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(TryReduce)", "failure(boom)"])
    }

    // Mastering iOS 14 ch. 13, playground: `.reduce(1, { $0 * $1 })` over 1...4 prints 24.
    @Test func bookExampleProduct() {
        var printed: [String] = []
        func product<P: Publisher>(_ p: P) -> Publishers.Reduce<P, Int> where P.Output == Int { p.reduce(1, { $0 * $1 }) }
        _ = product([1, 2, 3, 4].publisher).sink { printed.append("\($0)") }
        #expect(printed == ["24"])
    }
}

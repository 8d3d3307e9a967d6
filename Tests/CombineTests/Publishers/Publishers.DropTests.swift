import Combine
import TestSupport
import Testing

@Suite("Publishers.Drop")
struct PublishersDropTests {
    @Test func firstRequestIncludesTheDroppedValues() {
        let (up, sub) = SingleOp.attach({ $0.dropFirst(2) }, demand: .max(42), after: { _ in .max(3) })
        #expect(SingleOp.calls(up) == ["request(max(44))"])
        #expect(up.send(1) == .none)
        #expect(up.send(2) == .none)
        #expect(up.send(3) == .max(3))
        sub.request(.max(1))
        #expect(SingleOp.calls(up) == ["request(max(44))", "request(max(1))"])
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Drop)", "value(3)", "finished"])
    }

    @Test func defaultDropsOneAndZeroDropsNothing() {
        let (up, sub) = SingleOp.attach({ $0.dropFirst() })
        up.send(1); up.send(2)
        #expect(sub.values == [2])
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
        let (up0, sub0) = SingleOp.attach({ $0.dropFirst(0) }, demand: .max(1))
        up0.send(1)
        #expect(sub0.values == [1])
        #expect(SingleOp.calls(up0) == ["request(max(1))"])
    }

    @Test func failureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.dropFirst(5) })
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(Drop)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.dropFirst(0) })
        sub2.cancel()
        up2.send(1)
        #expect(sub2.values.isEmpty)
        #expect(SingleOp.calls(up2) == ["request(unlimited)", "cancel"])
        #expect(Just(1).dropFirst(1) == Just(1).dropFirst(1))
    }
}

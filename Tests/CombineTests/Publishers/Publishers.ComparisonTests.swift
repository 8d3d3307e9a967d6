import Combine
import TestSupport
import Testing

@Suite("Publishers.Comparison / TryComparison (min, max)")
struct PublishersComparisonTests {
    typealias E = SingleOp.TestError

    @Test func maxAndMinOnFinish() {
        let (up, sub) = SingleOp.attach({ $0.max() }, demand: nil)
        for v in [3, 9, 1] { up.send(v) }
        up.send(completion: .finished)
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(Comparison)", "value(9)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.min() })
        for v in [3, 9, 1, 4] { up2.send(v) }
        up2.send(completion: .finished)
        #expect(sub2.values == [1])
    }

    @Test func byClosureAndTiesKeepFirst() {
        struct Item { let key: Int; let tag: String }
        let up = TestUpstream<Item, Never>()
        let sub = TrackingSubscriber<Item, Never>()
        up.max { $0.key < $1.key }.subscribe(sub)
        up.send(Item(key: 2, tag: "a")); up.send(Item(key: 2, tag: "b")); up.send(Item(key: 1, tag: "c"))
        up.send(completion: .finished)
        #expect(sub.values.map(\.tag) == ["a"])
        let up2 = TestUpstream<Item, Never>()
        let sub2 = TrackingSubscriber<Item, Never>()
        up2.min { $0.key < $1.key }.subscribe(sub2)
        up2.send(Item(key: 2, tag: "a")); up2.send(Item(key: 1, tag: "b")); up2.send(Item(key: 1, tag: "c"))
        up2.send(completion: .finished)
        #expect(sub2.values.map(\.tag) == ["b"])
    }

    @Test func emptyFailureCancel() {
        let (up, sub) = SingleOp.attach({ $0.max() })
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Comparison)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.min() })
        up2.send(1)
        up2.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub2) == ["subscription(Comparison)", "failure(boom)"])
        let (up3, sub3) = SingleOp.attach({ $0.min() })
        sub3.cancel()
        #expect(SingleOp.calls(up3) == ["request(unlimited)", "cancel"])
    }

    @Test func tryMinMaxFailOnThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryMax { a, b in if b == 0 { throw E.boom }; return a < b } })
        up.send(1); up.send(0); up.send(5)
        #expect(SingleOp.events(sub) == ["subscription(TryComparison)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
        let (up2, sub2) = SingleOp.attach({ $0.tryMin { $0 < $1 } })
        up2.send(4); up2.send(2); up2.send(3)
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(TryComparison)", "value(2)", "finished"])
    }
}

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

    // A synchronous upstream ends while Apple's stage is still asking it for everything, before the
    // downstream holds the subscription: the completion must still come after the subscription.
    @Test func synchronousUpstreamStillDeliversSubscriptionFirst() {
        func firstOf<P: Publisher>(_ p: P) -> Publishers.First<P> { p.first() }
        func collectOf<P: Publisher>(_ p: P) -> Publishers.Collect<P> { p.collect() }
        let empty = TrackingSubscriber<Int, Never>()
        firstOf([Int]().publisher).subscribe(empty)
        #expect(SingleOp.events(empty) == ["subscription(First)", "finished"])
        let all = TrackingSubscriber<[Int], Never>()
        collectOf([1, 2, 3].publisher).subscribe(all)
        #expect(SingleOp.events(all) == ["subscription(Collect)", "value([1, 2, 3])", "finished"])
        let failing = TrackingSubscriber<Int, SingleOp.TestError>()
        firstOf(Fail<Int, SingleOp.TestError>(error: .boom)).subscribe(failing)
        #expect(SingleOp.events(failing) == ["subscription(First)", "failure(boom)"])
    }
}

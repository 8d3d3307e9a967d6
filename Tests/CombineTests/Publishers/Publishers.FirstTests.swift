import Combine
import TestSupport
import Testing

/// An upstream driven by hand: it keeps the subscriber attached to it and sends events,
/// including ones the contract forbids, only when told.
private final class HandDriven<Output>: Publisher {
    typealias Failure = Never
    var subscriber: AnySubscriber<Output, Never>?
    var raw: Any?
    let subscription = RecordingSubscription(name: "S")
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        raw = subscriber
        self.subscriber = AnySubscriber(subscriber)
    }
    func subscribe() { subscriber?.receive(subscription: subscription) }
}

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
        // §9: with no value, the bare `finished` also waits for the first request.
        let (up2, sub2) = SingleOp.attach({ $0.first() }, demand: nil)
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(First)"])
        sub2.request(.max(1))
        #expect(SingleOp.events(sub2) == ["subscription(First)", "finished"])
    }

    @Test func subscriptionGoesDownstreamBeforeTheUpstreamIsAsked() {
        // §7: inside the downstream's receive(subscription:), the upstream has had no request yet.
        let upstream = HandDriven<Int>()
        var seenInside: [Subscribers.Demand]?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { _ in seenInside = upstream.subscription.requests },
            receiveValue: { _ in .none },
            receiveCompletion: { _ in })
        upstream.first().subscribe(subscriber)
        upstream.subscribe()
        #expect(seenInside == [])
        #expect(upstream.subscription.requests == [.unlimited])
    }

    @Test func cancelBeforeTheSubscriptionIsIgnored() throws {
        // §6: a cancel before the upstream's subscription does nothing; the late subscription is
        // asked for everything. §8: a value or completion before it is ignored.
        let upstream = HandDriven<Int>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        var calls = 0
        upstream.first { calls += 1; return $0 > 0 }.subscribe(subscriber)
        let stage = try #require(upstream.raw as? any Cancellable)
        #expect(upstream.subscriber?.receive(5) == Subscribers.Demand.none)
        upstream.subscriber?.receive(completion: .finished)
        stage.cancel()
        upstream.subscribe()
        #expect(calls == 0)
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(!upstream.subscription.isCancelled)
        _ = upstream.subscriber?.receive(7)
        #expect(SingleOp.events(subscriber) == ["subscription(TryFirst)", "value(7)", "finished"])
    }

    @Test func reflection() throws {
        // §28: Apple's reduce-like stages show downstream, result, initial, status.
        let (_, sub) = SingleOp.attach({ $0.first() })
        let subscription = try #require(sub.subscription)
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == ["downstream", "result", "initial", "status"])
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "First")
    }

    @Test func firstWhereAndFailureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.first { $0 > 3 } })
        up.send(1); up.send(4); up.send(5)
        // Apple describes first(where:)'s subscription as "TryFirst" (§2c, §28).
        #expect(SingleOp.events(sub) == ["subscription(TryFirst)", "value(4)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.first { $0 > 3 } })
        up2.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub2) == ["subscription(TryFirst)", "failure(boom)"])
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

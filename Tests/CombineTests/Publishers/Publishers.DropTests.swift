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
        // Spec §19: dropFirst has no terminal state; what the upstream still sends is passed on.
        up2.send(1)
        #expect(sub2.values == [1])
        #expect(SingleOp.calls(up2) == ["request(unlimited)", "cancel"])
        #expect(Just(1).dropFirst(1) == Just(1).dropFirst(1))
    }

    @Test func subscriptionGoesDownstreamFirstAndEarlyRequestsAreAddedUp() {
        // Spec §7: the downstream gets "Drop" before the upstream subscribes; what it asks for
        // meanwhile is requested together with the values to drop.
        let upstream = LateUpstream()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(3))
        upstream.dropFirst(2).subscribe(sub)
        #expect(SingleOp.events(sub) == ["subscription(Drop)"])
        sub.request(.max(4))
        let link = TestUpstream<Int, SingleOp.TestError>()
        link.subscribe(upstream.subscriber!)
        #expect(SingleOp.calls(link) == ["request(max(9))"])
    }

    @Test func completionForgetsTheSubscriptionAndALaterOneIsAccepted() {
        // Spec §19: no terminal state; a new upstream subscription after a completion is asked
        // for what was requested while none was held, plus the values still to drop.
        let upstream = LateUpstream()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(3))
        upstream.dropFirst(1).subscribe(sub)
        let first = TestUpstream<Int, SingleOp.TestError>()
        first.subscribe(upstream.subscriber!)
        first.send(completion: .finished)
        sub.request(.max(5))
        let second = TestUpstream<Int, SingleOp.TestError>()
        second.subscribe(upstream.subscriber!)
        #expect(SingleOp.calls(second) == ["request(max(9))"])
        second.send(7)
        second.send(8)
        second.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Drop)", "finished", "value(8)", "finished"])
    }

}

/// Keeps its subscriber without subscribing it, so a test decides when a subscription arrives.
private final class LateUpstream: Publisher {
    typealias Output = Int
    typealias Failure = SingleOp.TestError

    var subscriber: AnySubscriber<Int, SingleOp.TestError>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == SingleOp.TestError {
        self.subscriber = AnySubscriber(subscriber)
    }
}

import Combine
import TestSupport
import Testing

@Suite("Publishers.DropWhile / TryDropWhile")
struct PublishersDropWhileTests {
    typealias E = SingleOp.TestError

    @Test func gateOpensOnceAndStaysOpen() {
        let (up, sub) = SingleOp.attach({ $0.drop { $0 < 3 } }, demand: .max(5))
        #expect(up.send(1) == .max(1))
        #expect(up.send(2) == .max(1))
        #expect(up.send(3) == .none)
        up.send(1)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(DropWhile)", "value(3)", "value(1)", "finished"])
    }

    @Test func demandFailureCancel() {
        let (up, sub) = SingleOp.attach({ $0.drop { _ in false } }, demand: .max(1))
        up.send(1)
        sub.request(.max(2))
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(2))"])
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(DropWhile)", "value(1)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.drop { _ in false } })
        sub2.cancel()
        up2.send(1)
        #expect(sub2.values.isEmpty)
        #expect(up2.isCancelled)
    }

    @Test func tryDropWhileFailsOnThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryDrop { v in if v == 2 { throw E.boom }; return true } })
        up.send(1)
        up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(TryDropWhile)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    /// Spec §8: before the upstream's subscription, a value is not shown to the predicate and
    /// returns `.none`, and a completion changes nothing; §6: a cancel then changes nothing either,
    /// so the late subscription goes downstream and the stage runs as usual.
    @Test func eventsAndCancelBeforeTheSubscriptionAreIgnored() {
        for throwing in [false, true] {
            var seen: [Int] = []
            let upstream = LateSubscriptionUpstream<Int, SingleOp.TestError>()
            let subscriber = TrackingSubscriber<Int, any Error>(initialDemand: .max(5))
            let predicate: (Int) -> Bool = { seen.append($0); return $0 < 3 }
            if throwing {
                upstream.tryDrop(while: predicate).subscribe(subscriber)
            } else {
                upstream.drop(while: predicate).mapError { $0 as any Error }.subscribe(subscriber)
            }
            #expect(upstream.send(1) == .none)
            upstream.send(completion: .failure(.boom))
            upstream.cancelSubscriber()
            let late = RecordingSubscription()
            upstream.send(subscription: late)
            #expect(late.cancelCount == 0)
            #expect(late.requests == [.max(5)])
            #expect(upstream.send(2) == .max(1))
            #expect(upstream.send(4) == .none)
            upstream.send(completion: .finished)
            #expect(seen == [2, 4])
            #expect(subscriber.values == [4])
            #expect(subscriber.completions.count == 1)
            #expect(subscriber.events.first.map(String.init(describing:))
                == "subscription(\(throwing ? "TryDropWhile" : "DropWhile"))")
        }
    }
}

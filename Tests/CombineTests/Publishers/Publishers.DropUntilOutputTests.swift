import Combine
import TestSupport
import Testing

@Suite("Publishers.DropUntilOutput")
struct PublishersDropUntilOutputTests {
    typealias Up = TestUpstream<Int, SingleOp.TestError>

    @Test func dropsUntilTriggerThenPassesEverything() {
        let upstream = Up(), trigger = Up(name: "Trigger")
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: nil, demandAfterValue: { .max($0) })
        upstream.drop(untilOutputFrom: trigger).subscribe(sub)
        #expect(SingleOp.events(sub) == ["subscription(DropUntilOutput)"])
        #expect(SingleOp.calls(trigger) == ["request(max(1))"])
        #expect(upstream.calls.isEmpty)
        sub.request(.max(4))
        #expect(SingleOp.calls(upstream) == ["request(max(4))"])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(trigger.send(1000) == .none)
        #expect(upstream.send(3) == .max(3))
        #expect(upstream.send(4) == .max(4))
        #expect(sub.values == [3, 4])
        #expect(SingleOp.calls(trigger) == ["request(max(1))"])
    }

    @Test func triggerFinishingFirstEndsTheStream() {
        let upstream = Up(), trigger = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(100))
        upstream.drop(untilOutputFrom: trigger).subscribe(sub)
        upstream.send(1)
        trigger.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(DropUntilOutput)", "finished"])
        #expect(SingleOp.calls(upstream) == ["request(max(100))", "cancel"])
    }

    @Test func failuresFromEitherSideBeforeTriggerAndIgnoredAfter() {
        let upstream = Up(), trigger = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(sub)
        trigger.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(DropUntilOutput)", "failure(boom)"])

        let upstream2 = Up(), trigger2 = Up()
        let sub2 = TrackingSubscriber<Int, SingleOp.TestError>()
        upstream2.drop(untilOutputFrom: trigger2).subscribe(sub2)
        trigger2.send(0)
        trigger2.send(completion: .failure(.boom))
        upstream2.send(5)
        upstream2.send(completion: .failure(.other))
        #expect(SingleOp.events(sub2) == ["subscription(DropUntilOutput)", "value(5)", "failure(other)"])
    }

    @Test func cancelReachesBoth() {
        let upstream = Up(), trigger = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(2))
        upstream.drop(untilOutputFrom: trigger).subscribe(sub)
        sub.cancel()
        trigger.send(1)
        upstream.send(1)
        #expect(SingleOp.calls(upstream) == ["request(max(2))", "cancel"])
        #expect(SingleOp.calls(trigger) == ["request(max(1))", "cancel"])
        #expect(sub.values.isEmpty)
    }

    @Test func swallowedValuesCountAgainstTheDemand() async {
        // Spec §10 rule 3: a value dropped before the trigger still uses up demand.
        await #expect(processExitsWith: .failure) {
            let upstream = TestUpstream<Int, SingleOp.TestError>()
            let trigger = TestUpstream<Int, SingleOp.TestError>()
            upstream.drop(untilOutputFrom: trigger)
                .subscribe(TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(1)))
            upstream.send(1)
            upstream.send(2)
        }
    }

}

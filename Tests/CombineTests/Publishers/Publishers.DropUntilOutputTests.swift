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

    /// Apple's operator is done with the trigger's subscription once the trigger has sent its
    /// value, and asks a trigger subscription that comes later for one value (after the value, a
    /// cancel or an upstream completion; spec §12). A second subscription while one is held is
    /// cancelled, and so is one after the trigger completed without a value. Apple lets go of the
    /// spent subscription without a cancel (a subject trigger would then keep the chain alive);
    /// ours is cancelled when the stream ends (a deliberate difference).
    @Test func triggerSubscriptionsAfterTheValueACancelOrACompletion() {
        let upstream = Up(), trigger = LateSubscriptionUpstream<Int, SingleOp.TestError>()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(5))
        upstream.drop(untilOutputFrom: trigger).subscribe(sub)
        let first = RecordingSubscription(), extra = RecordingSubscription()
        trigger.send(subscription: first)
        trigger.send(subscription: extra)
        #expect(first.requests == [.max(1)])
        #expect(extra.isCancelled)
        trigger.send(1)
        #expect(first.cancelCount == 0)
        let afterValue = RecordingSubscription()
        trigger.send(subscription: afterValue)
        #expect(afterValue.requests == [.max(1)])
        sub.cancel()
        #expect(first.cancelCount == 1)
        #expect(afterValue.cancelCount == 1)
        let afterCancel = RecordingSubscription()
        trigger.send(subscription: afterCancel)
        #expect(afterCancel.requests == [.max(1)])
        #expect(afterCancel.cancelCount == 0)

        let upstream2 = Up(), trigger2 = LateSubscriptionUpstream<Int, SingleOp.TestError>()
        upstream2.drop(untilOutputFrom: trigger2).subscribe(TrackingSubscriber<Int, SingleOp.TestError>())
        trigger2.send(completion: .finished)
        let afterCompletion = RecordingSubscription()
        trigger2.send(subscription: afterCompletion)
        #expect(afterCompletion.isCancelled)
        #expect(afterCompletion.requests.isEmpty)
    }

    /// Values the operator passes on do not use up the demand it counts; only swallowed ones do.
    /// Here the one value requested was passed on, so one value swallowed after the upstream
    /// finished is still within the demand (Apple's operator traps only beyond it).
    @Test func passedValuesDoNotUseUpTheCountedDemand() {
        let upstream = Up(), trigger = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(1))
        upstream.drop(untilOutputFrom: trigger).subscribe(sub)
        trigger.send(0)
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .finished)
        #expect(upstream.send(2) == .none)
        #expect(SingleOp.events(sub) == ["subscription(DropUntilOutput)", "value(1)", "finished"])
    }

    /// Spec §28: the subscriber attached to the other publisher shows itself as the operator's
    /// subscription does, with no mirror children.
    @Test func triggerSubscriberShape() {
        let trigger = SubscriberCapturingUpstream<Int, SingleOp.TestError>()
        _ = Up().drop(untilOutputFrom: trigger).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        let stage = trigger.subscriber
        #expect((stage as? CustomStringConvertible)?.description == "DropUntilOutput")
        #expect((stage as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "DropUntilOutput")
        #expect((stage as? CustomReflectable)?.customMirror.children.count == 0)
        #expect(!(stage is Cancellable))
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

import Combine
import TestSupport
import Testing

@Suite("Publishers.PrefixUntilOutput")
struct PublishersPrefixUntilOutputTests {
    typealias Up = TestUpstream<Int, SingleOp.TestError>

    @Test func passesUntilTheOtherPublishes() {
        let upstream = Up(), other = Up(name: "Other")
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(3), demandAfterValue: { _ in .max(2) })
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        #expect(SingleOp.calls(other) == ["request(max(1))"])
        #expect(SingleOp.calls(upstream) == ["request(max(3))"])
        #expect(upstream.send(1) == .max(2))
        upstream.send(2)
        #expect(other.send(1000) == .none)
        upstream.send(3)
        #expect(Array(SingleOp.events(sub).dropFirst()) == ["value(1)", "value(2)", "finished"])
        #expect(SingleOp.calls(upstream) == ["request(max(3))", "cancel"])
        #expect(SingleOp.calls(other) == ["request(max(1))"])
    }

    @Test func otherCompletingWithoutValueChangesNothing() {
        let upstream = Up(), other = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>()
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        other.send(completion: .failure(.boom))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(Array(SingleOp.events(sub).dropFirst()) == ["value(1)", "finished"])
    }

    @Test func upstreamCompletionCancelsOtherAndFailurePassesOn() {
        let upstream = Up(), other = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>()
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        upstream.send(completion: .failure(.boom))
        upstream.send(1)
        #expect(Array(SingleOp.events(sub).dropFirst()) == ["failure(boom)"])
        #expect(SingleOp.calls(other) == ["request(max(1))", "cancel"])
    }

    @Test func cancelReachesBoth() {
        let upstream = Up(), other = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: nil)
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        sub.cancel()
        upstream.send(1)
        #expect(SingleOp.calls(upstream) == ["cancel"])
        #expect(SingleOp.calls(other) == ["request(max(1))", "cancel"])
        #expect(sub.values.isEmpty)
    }

    @Test func stageHasNoDescriptionOrMirror() {
        // Spec §28: Apple's object has no description, mirror or playground description.
        let sub = TrackingSubscriber<Int, SingleOp.TestError>()
        Up().prefix(untilOutputFrom: Up()).subscribe(sub)
        let subscription = try! #require(sub.subscription)
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
    }

}

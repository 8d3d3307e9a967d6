import Combine
import TestSupport
import Testing

/// The one tagged subscriber behind the sides of merge, combineLatest and zip and the inner
/// subscribers of flatMap and switchToLatest: each shows itself as its operator does, answers
/// values as its operator does, and its events reach its own slot.
@Suite("TaggedSubscriber")
struct TaggedSubscriberTests {
    @Test func mergesSidesShowTheirNameOnly() throws {
        let left = SubscriberCapturingUpstream<Int, Never>()
        let right = SubscriberCapturingUpstream<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        left.merge(with: right).subscribe(tracker)
        for side in [left.subscriber, right.subscriber] {
            #expect(String(describing: side) == "Merge")
            #expect(!(side is CustomReflectable))
            #expect(!(side is CustomPlaygroundDisplayConvertible))
            #expect(side is CustomCombineIdentifierConvertible)
        }
    }

    @Test func eachMergeSideForwardsToItsOwnUpstreamsSlot() throws {
        let left = SubscriberCapturingUpstream<Int, Never>()
        let right = SubscriberCapturingUpstream<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
        left.merge(with: right).subscribe(tracker)
        let leftSide = try #require(left.subscriber as? any Subscriber<Int, Never>)
        let rightSide = try #require(right.subscriber as? any Subscriber<Int, Never>)
        let leftSubscription = RecordingSubscription(name: "left")
        let rightSubscription = RecordingSubscription(name: "right")
        leftSide.receive(subscription: leftSubscription)
        rightSide.receive(subscription: rightSubscription)
        tracker.subscription?.request(.max(1))
        #expect(leftSubscription.requests == [.max(1)])
        #expect(rightSubscription.requests == [.max(1)])
        // The left upstream has finished: its later values are dropped, the right one's are not.
        leftSide.receive(completion: .finished)
        _ = leftSide.receive(1)
        _ = rightSide.receive(2)
        #expect(tracker.values == [2])
    }

    @Test func flatMapsInnerSubscriberNamesItsSubscription() throws {
        let upstream = SubscriberCapturingUpstream<Int, Never>()
        let inner = SubscriberCapturingUpstream<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.flatMap { _ in inner }.subscribe(tracker)
        let subscription = try #require(tracker.subscription)
        let outer = try #require(upstream.subscriber as? any Subscriber<Int, Never>)
        outer.receive(subscription: RecordingSubscription())
        _ = outer.receive(1)
        let innerSubscriber = inner.subscriber
        #expect(String(describing: innerSubscriber) == "FlatMap")
        let children = Mirror(reflecting: innerSubscriber).children
        #expect(children.map(\.label) == ["parentSubscription"])
        #expect(children.first?.value as? CombineIdentifier == subscription.combineIdentifier)
        #expect((innerSubscriber as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "FlatMap")
    }

    @Test func combineLatestsSidesShowTheirNameAndAnswerNone() throws {
        let left = SubscriberCapturingUpstream<Int, Never>()
        let right = SubscriberCapturingUpstream<String, Never>()
        let tracker = TrackingSubscriber<(Int, String), Never>(initialDemand: .unlimited)
        left.combineLatest(right).subscribe(tracker)
        for side in [left.subscriber, right.subscriber] {
            #expect(String(describing: side) == "CombineLatest")
            #expect(!(side is CustomReflectable))
            #expect(!(side is CustomPlaygroundDisplayConvertible))
            #expect(!(side is any Subscription))
            #expect(side is CustomCombineIdentifierConvertible)
        }
        // Each side takes its own input type.
        let leftSide = try #require(left.subscriber as? any Subscriber<Int, Never>)
        let rightSide = try #require(right.subscriber as? any Subscriber<String, Never>)
        leftSide.receive(subscription: RecordingSubscription())
        rightSide.receive(subscription: RecordingSubscription())
        // A value that completes a tuple with unlimited demand is still answered `.none`: the
        // subscriber's demand reaches the upstreams as requests.
        #expect(leftSide.receive(1) == .none)
        #expect(rightSide.receive("a") == .none)
        #expect(leftSide.receive(2) == .none)
        #expect(tracker.values.map { "\($0.0)\($0.1)" } == ["1a", "2a"])
    }

    @Test func zipsSideAnswersWithTheSubscribersAnswerAndForwardsToItsUpstream() throws {
        let left = SubscriberCapturingUpstream<Int, Never>()
        let right = SubscriberCapturingUpstream<String, Never>()
        let tracker = TrackingSubscriber<(Int, String), Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(3) })
        left.zip(right).subscribe(tracker)
        let leftSide = try #require(left.subscriber as? any Subscriber<Int, Never>)
        let rightSide = try #require(right.subscriber as? any Subscriber<String, Never>)
        #expect(!(leftSide is CustomStringConvertible))
        #expect(!(leftSide is CustomReflectable))
        let leftUpstream = RecordingSubscription(name: "left")
        let rightUpstream = RecordingSubscription(name: "right")
        leftSide.receive(subscription: leftUpstream)
        rightSide.receive(subscription: rightUpstream)
        // The value that completes the tuple returns the subscriber's answer; the other `.none`.
        #expect(leftSide.receive(1) == .none)
        #expect(rightSide.receive("a") == .max(3))
        #expect(tracker.values.map { "\($0.0)\($0.1)" } == ["1a"])
        // A request or a cancel made on a side reaches its own upstream alone, and the side keeps
        // one identity as a subscriber and as a subscription.
        let leftSubscription = try #require(left.subscriber as? any Subscription)
        #expect(leftSubscription.combineIdentifier == leftSide.combineIdentifier)
        leftSubscription.request(.max(5))
        leftSubscription.cancel()
        #expect(leftUpstream.requests == [.max(1), .max(5)])
        #expect(leftUpstream.cancelCount == 1)
        #expect(rightUpstream.requests == [.max(1)])
        #expect(rightUpstream.cancelCount == 0)
    }
}

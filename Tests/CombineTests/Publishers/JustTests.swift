import Combine
import Foundation
import TestSupport
import Testing

@Suite("Just")
struct JustTests {
    @Test func deliversValueThenFinishesOnDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Just(42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Just")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Just"), .value(42), .completion(.finished)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [42])
    }

    @Test func cancelBeforeDemandDeliversNothing() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Just(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription("Just")])
    }

    @Test func equatableAndOutput() {
        #expect(Just(1) == Just(1))
        #expect(Just(1) != Just(2))
        #expect(Just("a").output == "a")
    }

    @Test func bookExampleSink() {
        // The books' first pipeline: Just("Hello world!") then a sink printing the value and
        // completion.
        var log: [String] = []
        _ = Just("Hello world!").sink(
            receiveCompletion: { log.append("Received completion \($0)") },
            receiveValue: { log.append("Received value \($0)") })
        #expect(log == ["Received value Hello world!", "Received completion finished"])
    }

    @Test func releasesSubscriberAfterCancel() {
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
            weakSubscriber = subscriber
            Just(1).subscribe(subscriber)
            subscription = subscriber.subscription
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
    }

    /// Class subscribers and value-type ones (here `AnySubscriber`) take different subscription
    /// classes inside `Just`; both deliver the same way and let go of the subscriber.
    @Test func valueTypeSubscriberDeliversAndIsReleased() {
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
            weakSubscriber = subscriber
            Just(1).subscribe(AnySubscriber(subscriber))
            subscription = subscriber.subscription
            #expect(subscriber.events == [.subscription("Just")])
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)

        weak var delivered: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
            delivered = subscriber
            Just(7).subscribe(AnySubscriber(subscriber))
            subscription = subscriber.subscription
            subscriber.request(.max(1))
            #expect(subscriber.events == [.subscription("Just"), .value(7), .completion(.finished)])
        }
        #expect(delivered == nil)
        #expect(String(describing: subscription!) == "Just")
    }

    @Test func classSubscriberIsReleasedAfterDelivery() {
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
            weakSubscriber = subscriber
            Just(1).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.request(.max(1))
        }
        #expect(weakSubscriber == nil)
        // Apple's shape (edge spec §28): the value as one unlabelled child.
        let child = Mirror(reflecting: subscription!).children.first
        #expect(child?.label == nil)
        #expect(child?.value as? Int == 1)
    }

    /// A `Sink` gets a stateless subscription from `Just`; it must behave like any other.
    @Test func sinkGetsTheValueOnceAndIsReleased() {
        var log: [String] = []
        weak var weakSink: Subscribers.Sink<Int, Never>?
        do {
            let sink = Subscribers.Sink<Int, Never>(
                receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("\($0)") })
            weakSink = sink
            Just(5).subscribe(sink)
            // A second subscription to a finished sink delivers nothing.
            Just(6).subscribe(sink)
        }
        #expect(log == ["5", "finished"])
        #expect(weakSink == nil)
    }

    @Test func cancelledOrAlreadySubscribedSinkGetsNothingFromJust() {
        // A cancel before any subscription is ignored (§21), so Just still delivers.
        var values: [Int] = []
        let cancelled = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        cancelled.cancel()
        Just(1).subscribe(cancelled)
        #expect(values == [1])
        values = []

        var completions = 0
        let upstream = TestUpstream<Int, Never>()
        let busy = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
        upstream.subscribe(busy)
        Just(2).subscribe(busy)
        #expect(values.isEmpty)
        #expect(completions == 0)
        _ = upstream.send(3)
        #expect(values == [3])
        busy.cancel()
        #expect(upstream.isCancelled)
    }

    /// Through `AnyPublisher` the subscriber checks in `Just.receive(subscriber:)` run
    /// unspecialised; the three kinds of subscriber still get the right subscription.
    @Test func erasedJustServesEveryKindOfSubscriber() {
        let erased = Just(4).eraseToAnyPublisher()
        var values: [Int] = []
        _ = erased.sink { values.append($0) }
        #expect(values == [4])

        let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        erased.subscribe(tracker)
        #expect(tracker.events == [.subscription("Just"), .value(4), .completion(.finished)])

        let viaStruct = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        erased.subscribe(AnySubscriber(viaStruct))
        #expect(viaStruct.values == [4])
    }
}


import Combine
import CombineTesting
import TestSupport
import Testing

@Suite("Publishers.Delay")
struct PublishersDelayTests {
    @Test func shiftsValuesAndCompletionByTheInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let cancellable = subject.delay(for: 10, scheduler: scheduler)
            .sink(
                receiveCompletion: { _ in log.append("finished@\(scheduler.now.ticks)") },
                receiveValue: { log.append("\($0)@\(scheduler.now.ticks)") })
        subject.send(1)
        scheduler.advance(by: 3)
        subject.send(2)
        subject.send(completion: .finished)
        scheduler.advance(by: 6)
        #expect(log.isEmpty)
        scheduler.advance(by: 10)
        #expect(log == ["1@10", "2@13", "finished@13"])
        cancellable.cancel()
    }

    @Test func subscriptionAndDemandAreNotDelayed() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandAfterValue: { _ in .max(1) })
        upstream.delay(for: 5, tolerance: 1, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.events.count == 1)
        #expect(upstream.calls == [.request(.max(2))])
        upstream.send(7)
        scheduler.advance(by: 5)
        #expect(subscriber.values == [7])
        #expect(upstream.calls == [.request(.max(2)), .request(.max(1))])
    }

    @Test func bookExampleJustDelayed() {
        // Using Combine, testing with EntwineTest: `Just(1).delay(for: 1, scheduler:
        // scheduler).sink { didSink = true }`.
        let scheduler = TestScheduler()
        var didSink = false
        let cancellable = Just(1).delay(for: 1, scheduler: scheduler).sink { _ in didSink = true }
        #expect(!didSink)
        scheduler.run()
        #expect(didSink)
        cancellable.cancel()
    }

    @Test func cancelDropsScheduledEvents() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.run()
        #expect(subscriber.values == [])
        #expect(upstream.isCancelled)
    }

    /// Spec §28: delay's subscription has no description, mirror or playground description.
    @Test func subscriptionHasNoReflectionShape() throws {
        let scheduler = TestScheduler()
        var subscription: (any Subscription)?
        let cancellable = Empty<Int, Never>(completeImmediately: false)
            .delay(for: 5, scheduler: scheduler)
            .handleEvents(receiveSubscription: { subscription = $0 })
            .sink { _ in }
        let inner = try #require(subscription)
        #expect(!(inner is CustomStringConvertible))
        #expect(!(inner is CustomReflectable))
        #expect(!(inner is CustomPlaygroundDisplayConvertible))
        cancellable.cancel()
    }

    /// Spec §6: a cancel before the subscription arrives does nothing; the late subscription goes
    /// downstream and gets what the subscriber asks for.
    @Test func cancelBeforeSubscriptionIsANoOp() {
        let scheduler = TestScheduler()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
        upstream.cancelSubscriber()
        upstream.send(completion: .finished)
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(3)])
        #expect(subscriber.events.count == 1)
    }

    /// Spec §21: a scheduled delivery keeps the subscriber alive until it runs; a cancel in
    /// between stops the delivery only.
    @Test func scheduledDeliveryKeepsTheSubscriberUntilItRuns() {
        expectScheduledDeliveryKeepsTheSubscriberUntilItRuns { $0.delay(for: 5, scheduler: $1) }
    }
}

import Combine
import CombineTesting
import TestSupport
import Testing

@Suite("Publishers.Timeout")
struct PublishersTimeoutTests {
    struct TimedOut: Error, Equatable {}

    @Test func finishesNormallyWithoutCustomError() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.timeout(10, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: 9)
        #expect(subscriber.completions.isEmpty)
        scheduler.advance(by: 1)
        #expect(subscriber.events == [.subscription("Timeout"), .completion(.finished)])
        #expect(upstream.isCancelled)
    }

    @Test func failsWithTheCustomError() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, TimedOut>()
        let subscriber = TrackingSubscriber<Int, TimedOut>()
        upstream.timeout(.seconds(5), scheduler: scheduler, customError: { TimedOut() }).subscribe(subscriber)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.completions == [.failure(TimedOut())])
    }

    @Test func eachValueRestartsTheClock() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.timeout(10, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: 8)
        upstream.send(1)
        scheduler.advance(by: 8)
        upstream.send(2)
        scheduler.advance(by: 8)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions.isEmpty)
        scheduler.advance(by: 2)
        #expect(subscriber.completions == [.finished])
        upstream.send(3)
        scheduler.run()
        #expect(subscriber.values == [1, 2])
    }

    @Test func upstreamCompletionBeforeTheTimeoutIsForwarded() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimedOut>()
        let subscriber = TrackingSubscriber<Int, TimedOut>()
        subject.timeout(10, scheduler: scheduler, customError: { TimedOut() }).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        scheduler.run()
        #expect(subscriber.events == [.subscription("Timeout"), .value(1), .completion(.finished)])
    }

    /// Spec §20: the timer is a repeating action (`now`, `minTol`, `schedEvery`), armed at the
    /// subscription and at the first request; each value cancels it, arms it again and then
    /// schedules the delivery.
    @Test func schedulerCallsFollowApple() {
        let scheduler = CallRecordingScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.timeout(13, scheduler: scheduler).subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.request(.max(1))
        scheduler.clock.advance(by: 10)
        upstream.send(1)
        #expect(scheduler.calls == [
            "now", "minTol", "schedEvery(13, 13, 7) -> token#1",
            "now", "minTol", "schedEvery(13, 13, 7) -> token#2", "token#1.cancel", "token#1 released",
            "token#2.cancel", "token#2 released", "now", "minTol", "schedEvery(23, 13, 7) -> token#3", "sched",
        ])
        #expect(upstream.calls == [.request(.max(1)), .request(.max(1))])
        scheduler.clock.advance()
        #expect(subscriber.values == [1])
        subscriber.cancel()
    }

    /// Spec §20: until the completion's delivery runs, a cancel still reaches the upstream and the
    /// completion is not delivered.
    @Test func cancelBeforeTheCompletionIsDeliveredStopsIt() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.timeout(13, scheduler: scheduler).subscribe(subscriber)
        upstream.send(completion: .finished)
        subscriber.cancel()
        scheduler.advance(by: 100)
        #expect(upstream.calls == [.request(.max(1)), .cancel])
        #expect(subscriber.events == [.subscription("Timeout")])
    }

    /// Spec §2b: on an immediate scheduler the timer fires while it is armed; the subscriber gets
    /// its subscription, then the completion, and the upstream is cancelled (Apple crashes).
    @Test func immediateSchedulerTimesOutAfterTheSubscription() {
        let upstream = TestUpstream<Int, TimedOut>()
        let subscriber = TrackingSubscriber<Int, TimedOut>()
        upstream.timeout(.seconds(1), scheduler: ImmediateScheduler.shared, customError: { TimedOut() })
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Timeout"), .completion(.failure(TimedOut()))])
        #expect(upstream.isCancelled)
    }

    /// Spec §6: a cancel before the subscription arrives does nothing.
    @Test func cancelBeforeSubscriptionIsANoOp() {
        let scheduler = TestScheduler()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.timeout(13, scheduler: scheduler).subscribe(subscriber)
        upstream.cancelSubscriber()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(2)])
        subscriber.cancel()
    }
}

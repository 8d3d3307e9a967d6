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
}

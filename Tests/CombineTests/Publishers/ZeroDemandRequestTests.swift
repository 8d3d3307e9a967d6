import Combine
import CombineTesting
import TestSupport
import Testing

/// `request(.none)` on the subscriptions where Apple's Combine accepts it: some operators forward
/// the zero request unchanged to their upstream, others ignore it. Neither traps. The places where
/// Apple traps keep trapping (see the misuse-diagnostics suite).
@Suite("request(.none) accepted where Apple accepts it")
struct ZeroDemandRequestTests {
    // MARK: forwarded unchanged

    @Test func receiveOnForwardsZeroRequestInOrder() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(10))
        upstream.receive(on: scheduler).subscribe(subscriber)
        subscriber.request(.max(4))
        subscriber.request(.max(5))
        subscriber.request(.none)
        #expect(upstream.calls == [.request(.max(10)), .request(.max(4)), .request(.max(5)), .request(.none)])
    }

    @Test func receiveOnImmediateSchedulerForwardsZeroRequest() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.calls == [.request(.max(1)), .request(.none)])
        upstream.send(3)
        #expect(subscriber.values == [3])
    }

    @Test func delayForwardsZeroRequest() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.calls == [.request(.max(2)), .request(.none)])
    }

    @Test func handleEventsReportsAndForwardsZeroRequest() {
        let upstream = TestUpstream<Int, Never>()
        var requests: [Subscribers.Demand] = []
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.handleEvents(receiveRequest: { requests.append($0) }).subscribe(subscriber)
        subscriber.request(.none)
        #expect(requests == [.max(2), .none])
        #expect(upstream.calls == [.request(.max(2)), .request(.none)])
    }

    @Test func measureIntervalForwardsZeroRequest() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(initialDemand: .max(2))
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.calls == [.request(.max(2)), .request(.none)])
    }

    @Test func subscribeOnSendsZeroRequestOnTheScheduler() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        subscriber.request(.none)
        #expect(upstream.calls == [.request(.max(2))])
        scheduler.advance()
        #expect(upstream.calls == [.request(.max(2)), .request(.none)])
    }

    @Test func timeoutForwardsZeroRequest() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.timeout(10, scheduler: scheduler).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.calls == [.request(.max(2)), .request(.none)])
    }

    @Test func appendForwardsZeroRequestAndKeepsCountingDemand() {
        let first = TestUpstream<Int, Never>(name: "First")
        let second = TestUpstream<Int, Never>(name: "Second")
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(10), demandAfterValue: { _ in .max(7) })
        first.append(second).subscribe(subscriber)
        subscriber.request(.none)
        #expect(first.calls == [.request(.max(10)), .request(.none)])
        subscriber.request(.max(3))
        first.send(1)
        first.send(completion: .finished)
        // requested 10 + 0 + 3, delivered 1, returned 7
        #expect(second.calls == [.request(.max(19))])
        subscriber.request(.none)
        #expect(second.calls == [.request(.max(19)), .request(.none)])
        #expect(subscriber.values == [1])
    }

    @Test func prependForwardsZeroRequest() {
        let first = TestUpstream<Int, Never>(name: "First")
        let second = TestUpstream<Int, Never>(name: "Second")
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        second.prepend(first).subscribe(subscriber)
        subscriber.request(.none)
        #expect(first.calls == [.request(.max(1)), .request(.none)])
    }

    @Test func dropUntilOutputAddsZeroRequestWhileWaitingThenForwardsIt() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(10))
        // subscribe(on:) keeps the upstream's subscription back until the scheduler runs.
        upstream.subscribe(on: scheduler).drop(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.request(.max(4))
        subscriber.request(.none)
        scheduler.advance()
        #expect(upstream.calls == [.request(.max(14))])
        subscriber.request(.none)
        scheduler.advance()
        #expect(upstream.calls == [.request(.max(14)), .request(.none)])
    }

    // MARK: ignored

    @Test func bufferIgnoresZeroRequest() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        subscriber.request(.none)
        #expect(!upstream.calls.contains(.request(.none)))
        upstream.send(1)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    @Test func shareSubscriptionIgnoresZeroRequest() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.share().subscribe(subscriber)
        subscriber.request(.none)
        subject.send(1)
        subscriber.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(subscriber.events == [.subscription("Multicast"), .value(2)])
    }

    @Test func multicastSubscriptionIgnoresZeroRequest() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        let connectable = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        connectable.subscribe(subscriber)
        let connection = connectable.connect()
        subscriber.request(.none)
        upstream.send(1)
        subscriber.request(.max(1))
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [2])
        connection.cancel()
    }

    @Test func autoconnectSubscriptionIgnoresZeroRequest() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.makeConnectable().autoconnect().subscribe(subscriber)
        subscriber.request(.none)
        upstream.send(1)
        subscriber.request(.max(1))
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [2])
        subscriber.cancel()
    }

    @Test func recordIgnoresZeroRequest() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(subscriber)
        subscriber.request(.none)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completions.isEmpty)
    }

    @Test func sequenceIgnoresZeroRequest() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        [1, 2].publisher.subscribe(subscriber)
        subscriber.request(.none)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions.count == 1)
    }

    @Test func throttleIgnoresZeroRequest() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.throttle(for: 5, scheduler: scheduler, latest: true).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.calls == [.request(.unlimited)])
    }
}

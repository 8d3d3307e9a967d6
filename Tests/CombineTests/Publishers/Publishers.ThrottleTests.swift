import Combine
import CombineTesting
import TestSupport
import Testing

@Suite("Publishers.Throttle")
struct PublishersThrottleTests {
    /// Sends 1 at t=0, 2 at t=1, 3 at t=5, 4 at t=12, 5 at t=30, with a 10-tick interval.
    private func run(latest: Bool) -> [(Int, Int)] {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var received: [(Int, Int)] = []
        let cancellable = subject.throttle(for: 10, scheduler: scheduler, latest: latest)
            .sink { received.append((scheduler.now.ticks, $0)) }
        subject.send(1)
        scheduler.advance(by: 1)
        subject.send(2)
        scheduler.advance(by: 4)
        subject.send(3)
        scheduler.advance(by: 7)
        subject.send(4)
        scheduler.advance(by: 18)
        subject.send(5)
        scheduler.advance(by: 50)
        cancellable.cancel()
        return received
    }

    @Test func latestTruePublishesFirstValueAtOnceThenTheLatestPerInterval() {
        let received = run(latest: true)
        // 1 at once; 2 and 3 held until t=10 → 3; 4 held until t=20; 5 after a silent window → at once.
        #expect(received.map(\.0) == [0, 10, 20, 30])
        #expect(received.map(\.1) == [1, 3, 4, 5])
    }

    @Test func latestFalsePublishesTheFirstValueOfEachInterval() {
        let received = run(latest: false)
        #expect(received.map(\.0) == [0, 10, 20, 30])
        #expect(received.map(\.1) == [1, 2, 4, 5])
    }

    @Test func finishedFlushesTheHeldValueFirst() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .finished)
        // Spec §20: the completion waits behind the held value, at the time already planned.
        scheduler.advance(by: 9)
        #expect(subscriber.events == [.subscription("Throttle"), .value(1)])
        scheduler.advance(by: 1)
        #expect(subscriber.events == [.subscription("Throttle"), .value(1), .value(2), .completion(.finished)])
        scheduler.run()
        #expect(subscriber.values == [1, 2])
    }

    /// Spec §20: like `finished`, a failure waits behind the held value, which is published first.
    @Test func failureFlushesTheHeldValueFirst() {
        struct Boom: Error, Equatable {}
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        subject.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .failure(Boom()))
        scheduler.advance(by: 9)
        #expect(subscriber.events == [.subscription("Throttle"), .value(1)])
        scheduler.advance(by: 1)
        #expect(subscriber.events == [.subscription("Throttle"), .value(1), .value(2), .completion(.failure(Boom()))])
    }

    /// Spec §20 and §7: `now` when the subscriber is made and when the subscription arrives, then
    /// the upstream is asked before the subscription goes downstream; one `now` per value, `sched`
    /// when the value is due at once, `minTol` and `schedAfter` otherwise; `now` at each emission.
    @Test func schedulerCallsFollowApple() {
        let scheduler = CallRecordingScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        var requestsSeenBySubscriber: [TestUpstream<Int, Never>.Call]?
        let probe = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                requestsSeenBySubscriber = upstream.calls
                subscriber.receive(subscription: subscription)
            },
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) })
        upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(probe)
        #expect(requestsSeenBySubscriber == [.request(.unlimited)])
        #expect(scheduler.calls == ["now", "now"])
        scheduler.clearCalls()
        // No demand: the value is dropped, nothing is scheduled.
        upstream.send(1)
        #expect(scheduler.calls == ["now"])
        subscriber.subscription?.request(.max(2))
        upstream.send(2)
        scheduler.clock.advance()
        upstream.send(3)
        upstream.send(4)
        scheduler.clock.advance(by: 10)
        #expect(subscriber.values == [2, 4])
        #expect(scheduler.calls == ["now", "now", "sched", "now", "now", "minTol", "schedAfter(10, 7)", "now", "now"])
    }

    /// Spec §20 rule 3: a completion that waits behind a planned emission adds no scheduler call,
    /// and the emission that delivers both does not read the clock.
    @Test func anEmissionWithACompletionBehindItReadsNoClock() {
        let scheduler = CallRecordingScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        scheduler.clock.advance()
        upstream.send(2)
        scheduler.clearCalls()
        upstream.send(completion: .finished)
        #expect(scheduler.calls == ["now"])
        scheduler.clock.advance(by: 10)
        #expect(subscriber.events == [.subscription("Throttle"), .value(1), .value(2), .completion(.finished)])
        #expect(scheduler.calls == ["now"])
    }

    /// Spec §11: a zero request is accepted and ignored.
    @Test func zeroRequestIsIgnored() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: Subscribers.Demand.none)
        upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
        #expect(upstream.calls == [.request(.unlimited)])
    }

    /// Spec §6: a cancel before the subscription arrives is remembered; the late subscription is
    /// cancelled.
    @Test func cancelBeforeSubscriptionIsRemembered() {
        let scheduler = TestScheduler()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(TrackingSubscriber<Int, Never>())
        upstream.cancelSubscriber()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 1)
        #expect(late.requests == [])
    }

    @Test func cancelReleasesEverything() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.throttle(for: 10, scheduler: scheduler, latest: false).subscribe(subscriber)
            upstream.send(1)
            scheduler.advance()
            upstream.send(2)
            subscriber.cancel()
            scheduler.run()
            #expect(subscriber.values == [1])
        }
        #expect(upstream.isCancelled)
        #expect(weakSubscriber == nil)
    }
}

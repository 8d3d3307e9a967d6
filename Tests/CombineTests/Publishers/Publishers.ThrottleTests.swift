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
        scheduler.advance()
        #expect(subscriber.events == [.subscription("Throttle"), .value(1), .value(2), .completion(.finished)])
        scheduler.run()
        #expect(subscriber.values == [1, 2])
    }

    @Test func failureDropsTheHeldValue() {
        struct Boom: Error, Equatable {}
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        subject.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .failure(Boom()))
        scheduler.run()
        #expect(subscriber.events == [.subscription("Throttle"), .value(1), .completion(.failure(Boom()))])
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

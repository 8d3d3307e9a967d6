import Combine
import CombineTesting
import TestSupport
import Testing

@Suite("Publishers.CollectByTime")
struct PublishersCollectByTimeTests {
    struct Boom: Error, Equatable {}

    @Test func byTimePublishesWhatArrivedInEachInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>()
        subject.collect(.byTime(scheduler, 10)).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: 10)
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: 10)  // an empty interval publishes nothing
        #expect(subscriber.values == [[1, 2]])
        subject.send(3)
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.events == [
            .subscription("CollectByTime"), .value([1, 2]), .value([3]), .completion(.finished),
        ])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func byTimeOrCountPublishesAFullGroupAtOnceAndRestartsTheTimer() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var received: [(Int, [Int])] = []
        let cancellable = subject.collect(.byTimeOrCount(scheduler, 10, 3))
            .sink { received.append((scheduler.now.ticks, $0)) }
        scheduler.advance(by: 4)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        scheduler.advance()
        subject.send(4)
        scheduler.advance(by: 9)
        #expect(received.map(\.1) == [[1, 2, 3]])
        scheduler.advance(by: 1)  // the timer restarted at t=4
        #expect(received.map(\.0) == [4, 14])
        #expect(received.map(\.1) == [[1, 2, 3], [4]])
        cancellable.cancel()
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func failureDropsTheBuffer() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let subscriber = TrackingSubscriber<[Int], Boom>()
        subject.collect(.byTimeOrCount(scheduler, 10, 5)).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(Boom()))
        scheduler.advance()
        #expect(subscriber.events == [.subscription("CollectByTime"), .completion(.failure(Boom()))])
    }

    @Test func byTimeOrCountAsksUpstreamForEnoughValuesToFillTheGroups() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>(initialDemand: .max(2))
        upstream.collect(.byTimeOrCount(scheduler, 10, 5)).subscribe(subscriber)
        #expect(upstream.calls == [.request(.max(10))])
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(10)), .cancel])
    }
}

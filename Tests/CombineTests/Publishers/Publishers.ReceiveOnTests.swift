import Combine
import CombineTesting
import Foundation
import TestSupport
import Testing

@Suite("Publishers.ReceiveOn")
struct PublishersReceiveOnTests {
    @Test func subscriptionIsSynchronousValuesAndCompletionAreScheduledInOrder() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ReceiveOn")])
        #expect(upstream.calls == [.request(.unlimited)])  // demand is not moved
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [])
        scheduler.advance()
        #expect(subscriber.events == [.subscription("ReceiveOn"), .value(1), .value(2), .completion(.finished)])
    }

    @Test func demandReturnedFromReceiveGoesUpstream() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        #expect(upstream.calls == [.request(.max(1)), .request(.max(1))])
    }

    @Test func cancelDropsPendingDeliveries() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance()
        #expect(subscriber.values == [])
        #expect(upstream.isCancelled)
    }

    @Test func immediateSchedulerDeliversOnTheSpot() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2, 3].publisher.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions == [.finished])
    }

    @Test func serialDispatchQueueKeepsOrder() async {
        let queue = DispatchQueue(label: "receiveOn.serial")
        let values = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            var received: [Int] = []
            var cancellable: AnyCancellable?
            cancellable = (1...1000).publisher
                .receive(on: queue)
                .sink(
                    receiveCompletion: { _ in
                        continuation.resume(returning: received)
                        _ = cancellable
                    },
                    receiveValue: {
                        dispatchPrecondition(condition: .onQueue(queue))
                        received.append($0)
                    })
        }
        #expect(values == Array(1...1000))
    }

    @Test func releasesEverythingAfterCancel() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.receive(on: scheduler).subscribe(subscriber)
            upstream.send(1)
            subscriber.cancel()
        }
        scheduler.advance()
        #expect(weakSubscriber == nil)
    }
}

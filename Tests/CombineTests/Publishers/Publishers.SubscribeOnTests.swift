import Combine
import CombineTesting
import Foundation
import TestSupport
import Testing

@Suite("Publishers.SubscribeOn")
struct PublishersSubscribeOnTests {
    @Test func subscribeRequestAndCancelRunOnTheScheduler() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        #expect(upstream.subscriptionCount == 0)
        scheduler.advance()
        #expect(upstream.subscriptionCount == 1)
        #expect(subscriber.events == [.subscription("SubscribeOn")])
        // The initial request was scheduled too; it ran at the same instant, after the subscribe.
        #expect(upstream.calls == [.request(.max(2))])
        subscriber.request(.max(3))
        #expect(upstream.calls == [.request(.max(2))])
        scheduler.advance()
        #expect(upstream.calls == [.request(.max(2)), .request(.max(3))])
        upstream.send(1)  // values are not moved
        #expect(subscriber.values == [1])
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(2)), .request(.max(3))])
        scheduler.advance()
        #expect(upstream.calls == [.request(.max(2)), .request(.max(3)), .cancel])
    }

    /// Kodeco ch. 17, subscribe(on:) and receive(on:): with `subscribe(on: queue)` the subscription
    /// work runs on the queue; adding `receive(on: DispatchQueue.main)` would move only the result.
    @Test func bookExampleSubscriptionWorkRunsOnTheQueue() async {
        let queue = DispatchQueue(label: "serial queue")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "serial queue")
        let onQueue = await withCheckedContinuation { (continuation: CheckedContinuation<[Bool], Never>) in
            var log: [Bool] = []
            var cancellable: AnyCancellable?
            cancellable = ExpensiveComputation {
                log.append(DispatchQueue.getSpecific(key: key) == "serial queue")  // "Beginning expensive computation"
            }
            .subscribe(on: queue)
            .sink { _ in
                log.append(DispatchQueue.getSpecific(key: key) == "serial queue")  // "Received computation result"
                continuation.resume(returning: log)
                _ = cancellable
            }
        }
        #expect(onQueue == [true, true])
    }

    /// Kodeco ch. 17, receive(on:): `.subscribe(on: queue).receive(on: DispatchQueue.main)` does
    /// the work on the queue and delivers "Computation complete" on the main queue.
    @Test func bookExampleSubscribeOnThenReceiveOnMain() async {
        let queue = DispatchQueue(label: "serial queue")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "serial queue")
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let log = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            var log: [String] = []
            var cancellable: AnyCancellable?
            cancellable = ExpensiveComputation {
                log.append("Beginning expensive computation on \(DispatchQueue.getSpecific(key: key) ?? "?")")
            }
            .subscribe(on: queue)
            .receive(on: DispatchQueue.main)
            .sink { value in
                log.append("Received computation result on \(DispatchQueue.getSpecific(key: key) ?? "?"): '\(value)'")
                continuation.resume(returning: log)
                _ = cancellable
            }
        }
        #expect(log == [
            "Beginning expensive computation on serial queue",
            "Received computation result on main: 'Computation complete'",
        ])
    }

    /// Spec §6: a cancel before the subscription arrives does nothing.
    @Test func cancelBeforeSubscriptionIsANoOp() {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        upstream.cancelSubscriber()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(3)])
    }
}

/// The book's `ExpensiveComputation`: does its work in `receive(subscriber:)`, then publishes.
private struct ExpensiveComputation: Publisher {
    typealias Output = String
    typealias Failure = Never
    let work: () -> Void
    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
        work()
        Just("Computation complete").subscribe(subscriber)
    }

}

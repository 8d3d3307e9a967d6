import Combine
import Foundation
import Observation
import TestSupport
import Testing
import Tributary

/// A model whose property may be changed from any thread: its storage is behind a lock, and its
/// accessors report to the registrar as the `@Observable` macro's own would.
@Observable
final class SharedCounter: Sendable {
    @ObservationIgnored private let storage = Locked(0)

    var value: Int {
        get {
            access(keyPath: \.value)
            return storage.current
        }
        set {
            withMutation(keyPath: \.value) { storage.withLock { $0 = newValue } }
        }
    }
}

/// The subscription on real threads: changes, requests and a cancel from several threads at once.
@Suite("ObservationSubscription", .tags(.concurrency))
struct ObservationSubscriptionTests {
    @Test func changesFromManyThreadsAreDeliveredOneAtATime() async {
        let writers = 4
        let writesEach = 500
        let requesters = 2
        let requestsEach = 100
        let model = SharedCounter()
        let queue = DispatchQueue(label: "ObservationSubscriptionTests.reads")
        // No demand on subscription: the first value would come from inside receive(subscription:),
        // which the checker would count as an overlap.
        let subscriber = SerializationCheckingSubscriber<Int, Never>(initialDemand: .none)
        model.publisher(for: \.value, on: queue).subscribe(subscriber)
        subscriber.request(.max(1))

        await onThreads(writers + requesters) { index in
            if index < writers {
                for write in 1...writesEach { model.value = index * 10_000 + write }
            } else {
                for _ in 0..<requestsEach { subscriber.request(.max(1)) }
            }
        }
        // A change made on the queue the publisher reads on is always seen: the read runs after it.
        queue.sync { model.value = -1 }
        subscriber.request(.unlimited)
        #expect(await eventually { subscriber.values.last == -1 })

        let values = subscriber.values
        #expect(subscriber.overlaps == 0)
        #expect(values.count <= 1 + requesters * requestsEach + 1)
        let written = Set((0..<writers).flatMap { thread in (1...writesEach).map { thread * 10_000 + $0 } })
        #expect(values.dropFirst().dropLast().allSatisfy(written.contains))
        #expect(values.first == 0)
        #expect(subscriber.completions.isEmpty)
        subscriber.cancel()
    }

    @Test func nothingIsDeliveredAfterACancelRacingWithChanges() async {
        for _ in 0..<20 {
            let model = SharedCounter()
            let queue = DispatchQueue(label: "ObservationSubscriptionTests.cancel")
            let subscriber = SerializationCheckingSubscriber<Int, Never>(initialDemand: .none)
            model.publisher(for: \.value, on: queue).subscribe(subscriber)
            subscriber.request(.unlimited)
            await onThreads(3) { index in
                switch index {
                case 0, 1:
                    for write in 1...300 { model.value = index * 1_000 + write }
                default:
                    usleep(200)
                    subscriber.cancel()
                }
            }
            // Every thread that could deliver has returned, and the reads handed over before the
            // cancel have run: from here on, nothing may arrive.
            queue.sync {}
            let sealed = subscriber.values.count
            await onThreads(2) { index in
                for write in 1...100 { model.value = index * 1_000 + write }
            }
            queue.sync {}
            #expect(subscriber.values.count == sealed)
            #expect(subscriber.overlaps == 0)
            #expect(subscriber.completions.isEmpty)
        }
    }

    @Test func theSubscriberIsReleasedAfterACancelRacingWithChanges() async {
        let model = SharedCounter()
        let queue = DispatchQueue(label: "ObservationSubscriptionTests.release")
        let weakSubscriber = WeakReference()
        do {
            let subscriber = SerializationCheckingSubscriber<Int, Never>()
            weakSubscriber.object = subscriber
            model.publisher(for: \.value, on: queue).subscribe(subscriber)
            await onThreads(2) { index in
                if index == 0 {
                    for write in 1...300 { model.value = write }
                } else {
                    usleep(100)
                    subscriber.cancel()
                }
            }
        }
        queue.sync {}
        // A thread may keep its closure, and so the subscriber, a moment after its work is done.
        #expect(await eventually { weakSubscriber.object == nil })
    }

    @Test func aModelReleasedWhileAReadIsPendingFinishesTheSubscription() async {
        let queue = DispatchQueue(label: "ObservationSubscriptionTests.gone")
        let subscriber = SerializationCheckingSubscriber<Int, Never>(initialDemand: .none)
        let weakModel = WeakReference()
        queue.suspend()
        do {
            let model = SharedCounter()
            weakModel.object = model
            model.publisher(for: \.value, on: queue).subscribe(subscriber)
            subscriber.request(.unlimited)
            await onThreads(2) { index in model.value = index + 1 }
        }
        // A thread may keep its closure, and so the model, a moment after its work is done.
        #expect(await eventually { weakModel.object == nil })
        queue.resume()
        #expect(await eventually { subscriber.completions == [.finished] })
        #expect(subscriber.values == [0])
        #expect(subscriber.overlaps == 0)
    }
}


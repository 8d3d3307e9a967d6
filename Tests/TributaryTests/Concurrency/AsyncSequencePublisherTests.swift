import Combine
import Foundation
import TestSupport
import Testing
import Tributary

@Suite("AsyncSequencePublisher", .tags(.concurrency))
struct AsyncSequencePublisherTests {
    @Test func deliversEveryElementInOrderThenFinishes() async {
        let subscriber = TrackingSubscriber<Int, Never>()
        AsyncSequencePublisher(PullCountingSequence(limit: 5)).subscribe(subscriber)
        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.events == [
            .subscription("AsyncSequencePublisher"),
            .value(1), .value(2), .value(3), .value(4), .value(5), .completion(.finished),
        ])
    }

    @Test func pullsOnlyWhatWasRequested() async {
        let sequence = PullCountingSequence()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        AsyncSequencePublisher(sequence).subscribe(subscriber)
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(sequence.pulls == 0, "no demand, no pull")

        subscriber.request(.max(2))
        #expect(await eventually { subscriber.values.count == 2 })
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(sequence.pulls == 2)
        #expect(subscriber.values == [1, 2])

        subscriber.request(.max(3))
        #expect(await eventually { subscriber.values.count == 5 })
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(sequence.pulls == 5)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        subscriber.cancel()
    }

    @Test func demandReturnedFromReceiveIsHonoured() async {
        let sequence = PullCountingSequence(limit: 10)
        let subscriber = TrackingSubscriber<Int, Never>(
            initialDemand: .max(1), demandAfterValue: { $0 < 4 ? .max(1) : .none })
        AsyncSequencePublisher(sequence).subscribe(subscriber)
        #expect(await eventually { subscriber.values.count == 4 })
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(sequence.pulls == 4)
        subscriber.cancel()
    }

    @Test func failureIsForwarded() async {
        struct Boom: Error, Equatable {}
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.yield(2)
            continuation.finish(throwing: Boom())
        }
        let subscriber = TrackingSubscriber<Int, any Error>()
        AsyncSequencePublisher(stream).subscribe(subscriber)
        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.values == [1, 2])
        guard case .failure(let error) = subscriber.completions.first else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is Boom)
    }

    @Test func neverFailingStreamHasFailureNever() async {
        let stream = AsyncStream<String> { continuation in
            continuation.yield("a")
            continuation.finish()
        }
        let publisher: AsyncSequencePublisher<AsyncStream<String>> = AsyncSequencePublisher(stream)
        let subscriber = TrackingSubscriber<String, Never>()
        publisher.subscribe(subscriber)
        #expect(await eventually { subscriber.completions == [.finished] })
        #expect(subscriber.values == ["a"])
    }

    @Test func cancellingTheSubscriptionCancelsTheTaskAndReleasesEverything() async {
        let terminated = Locked<AsyncStream<Int>.Continuation.Termination?>(nil)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { reason in terminated.withLock { $0 = reason } }

        let weakSubscriber = WeakReference()
        let weakSubscription = WeakReference()
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber.object = subscriber
            AsyncSequencePublisher(stream).subscribe(subscriber)
            weakSubscription.object = subscriber.subscription as AnyObject?
            continuation.yield(1)
            #expect(await eventually { subscriber.values == [1] })
            subscriber.cancel()
        }
        // The iterating task was waiting inside the stream's next(): cancelling it terminates the
        // stream, which proves the task ended.
        #expect(await eventually { terminated.withLock { $0 } == .cancelled })
        #expect(await eventually { weakSubscriber.object == nil && weakSubscription.object == nil })
        continuation.yield(2)  // nobody listens any more; must not crash
    }

    @Test func cancellingWhileParkedForDemandEndsTheTask() async {
        let sequence = PullCountingSequence()
        let weakSubscriber = WeakReference()
        let weakSubscription = WeakReference()
        do {
            let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
            weakSubscriber.object = subscriber
            AsyncSequencePublisher(sequence).subscribe(subscriber)
            weakSubscription.object = subscriber.subscription as AnyObject?
            #expect(await eventually { subscriber.values == [1] })
            subscriber.cancel()
        }
        #expect(await eventually { weakSubscriber.object == nil && weakSubscription.object == nil })
        #expect(sequence.pulls == 1)
    }

    @Test func cancelBeforeAnyDemandNeverStartsIterating() async {
        let sequence = PullCountingSequence()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        AsyncSequencePublisher(sequence).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(5))  // after cancel: ignored
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(sequence.pulls == 0)
        #expect(subscriber.values.isEmpty)
    }

    @Test func theSequenceEndingReleasesEverything() async {
        let weakSubscriber = WeakReference()
        let weakSubscription = WeakReference()
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber.object = subscriber
            AsyncSequencePublisher(PullCountingSequence(limit: 2)).subscribe(subscriber)
            weakSubscription.object = subscriber.subscription as AnyObject?
            #expect(await eventually { subscriber.completions == [.finished] })
        }
        #expect(await eventually { weakSubscriber.object == nil && weakSubscription.object == nil })
    }

    @Test func eachSubscriptionIteratesFromTheStart() async {
        let publisher = AsyncSequencePublisher(PullCountingSequence(limit: 3))
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(await eventually { first.completions.count == 1 && second.completions.count == 1 })
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [1, 2, 3])
    }

    @Test func requestDuringReceiveSubscriptionDoesNotOvertakeIt() async {
        // TrackingSubscriber requests inside receive(subscription:); the subscription event must
        // still be recorded before any value.
        for _ in 0..<50 {
            let subscriber = TrackingSubscriber<Int, Never>()
            AsyncSequencePublisher(PullCountingSequence(limit: 1)).subscribe(subscriber)
            #expect(await eventually { subscriber.completions.count == 1 })
            #expect(subscriber.events.first == .subscription("AsyncSequencePublisher"))
        }
    }
}

/// Counts 1, 2, 3… (up to `limit`, or forever) and records how many times `next()` was called,
/// shared across every iterator made from it.
private struct PullCountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let limit: Int?
    private let counter = Counter()

    init(limit: Int? = nil) { self.limit = limit }

    var pulls: Int { counter.pulls.withLock { $0 } }

    func makeAsyncIterator() -> Iterator { Iterator(limit: limit, counter: counter) }

    struct Iterator: AsyncIteratorProtocol {
        let limit: Int?
        let counter: Counter
        var current = 0

        mutating func next() async -> Int? {
            counter.pulls.withLock { $0 += 1 }
            if let limit, current >= limit { return nil }
            current += 1
            return current
        }
    }

    final class Counter: Sendable {
        let pulls = Locked(0)
    }
}

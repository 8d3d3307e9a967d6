import Combine
import Foundation
import TestSupport
import Testing

@Suite("AsyncPublisher", .tags(.concurrency))
struct AsyncPublisherTests {
    typealias Probe = AsyncProbePublisher<Int, Never>

    @Test func subscribesWhenTheIteratorIsMadeAndRequestsOnePerNext() async {
        let probe = Probe()
        let sequence = probe.values
        #expect(probe.subscribedCount == 0)
        var iterator = sequence.makeAsyncIterator()
        #expect(probe.subscribedCount == 1)
        #expect(probe.requests.isEmpty, "no demand before next()")

        let consumer = Task {
            var received: [Int] = []
            while let value = await iterator.next() { received.append(value) }
            return received
        }
        for index in 1...5 {
            #expect(await eventually { probe.requests.count == index })
            // Exactly one outstanding request at a time.
            #expect(probe.requests == Array(repeating: .max(1), count: index))
            probe.send(index * 10)
        }
        #expect(await eventually { probe.requests.count == 6 })
        let subscription = probe.subscription
        probe.send(completion: .finished)
        #expect(await consumer.value == [10, 20, 30, 40, 50])
        #expect(subscription?.requests == Array(repeating: .max(1), count: 6))
    }

    /// Each value is handed over inside `request(_:)`, so no `next()` suspends; the completion
    /// comes inside the request answered by the last value.
    @Test func forAwaitOverASynchronousPublisher() async {
        var received: [Int] = []
        for await value in AsyncProbeRange(1...100).values { received.append(value) }
        #expect(received == Array(1...100))
    }

    @Test func nextAfterFinishKeepsReturningNil() async {
        let probe = Probe()
        var iterator = probe.values.makeAsyncIterator()
        // Completion before any next(): stored and reported by the first call.
        probe.send(completion: .finished)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
        #expect(probe.requests.isEmpty)
    }

    @Test func cancellingTheTaskCancelsTheSubscriptionAndReleasesEverything() async {
        let probe = Probe()
        let consumer = Task {
            var received: [Int] = []
            for await value in probe.values { received.append(value) }
            return received
        }
        // Generous windows: the task may wait for a pool thread while other tests block theirs. A
        // value sent before the iterator asks would stop the process, so nothing is sent then.
        guard await eventually(within: 60, { probe.requests.count == 1 }) else {
            Issue.record("the consuming task never asked for a value")
            return consumer.cancel()
        }
        probe.send(1)
        #expect(await eventually(within: 60) { probe.requests.count == 2 })
        consumer.cancel()
        #expect(await consumer.value == [1], "the loop ends normally on cancellation")
        #expect(probe.weakSubscription?.isCancelled ?? true)
        #expect(await eventually { probe.weakSubscriber == nil && probe.weakSubscription == nil })
    }

    @Test func taskCancelledBeforeNextNeverWaits() async {
        let probe = Probe()
        let consumer = Task {
            // Spin until cancelled, then start iterating.
            while !Task.isCancelled { await Task.yield() }
            var iterator = probe.values.makeAsyncIterator()
            let first = await iterator.next()
            let second = await iterator.next()
            return (first, second)
        }
        consumer.cancel()
        let (first, second) = await consumer.value
        #expect(first == nil && second == nil)
        #expect(probe.weakSubscription == nil || probe.weakSubscription!.isCancelled)
        #expect(probe.requests.isEmpty)
    }

    @Test func cancelBeforeTheSubscriptionArrivesCancelsItOnArrival() async {
        let probe = Probe(deferSubscription: true)
        let consumer = Task {
            var iterator = probe.values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await eventually { probe.subscribedCount == 1 })
        consumer.cancel()
        #expect(await consumer.value == nil)
        let subscription = probe.subscription
        probe.attachNow()
        #expect(subscription?.isCancelled == true)
        #expect(subscription?.requests.isEmpty == true)
    }

    @Test func nextBeforeTheSubscriptionArrivesRequestsOnArrival() async {
        let probe = Probe(deferSubscription: true)
        let consumer = Task {
            var iterator = probe.values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await eventually { probe.subscribedCount == 1 })
        // Give the task time to suspend in next() before the subscription arrives.
        try? await Task.sleep(nanoseconds: 20_000_000)
        probe.attachNow()
        #expect(await eventually { probe.requests == [.max(1)] })
        probe.send(7)
        #expect(await consumer.value == 7)
    }

    @Test func upstreamFinishingEndsTheTaskAndReleasesEverything() async {
        let probe = Probe()
        let consumer = Task {
            var count = 0
            for await _ in probe.values { count += 1 }
            return count
        }
        #expect(await eventually { probe.requests.count == 1 })
        probe.send(1)
        #expect(await eventually { probe.requests.count == 2 })
        probe.send(completion: .finished)
        #expect(await consumer.value == 1)
        #expect(await eventually { probe.weakSubscriber == nil })
    }

    @Test func leavingTheLoopEarlyCancelsTheSubscription() async {
        let probe = Probe()
        let consumer = Task {
            for await value in probe.values where value == 2 { return value }
            return -1
        }
        #expect(await eventually { probe.requests.count == 1 })
        probe.send(1)
        #expect(await eventually { probe.requests.count == 2 })
        probe.send(2)
        #expect(await consumer.value == 2)
        #expect(await eventually { probe.weakSubscriber == nil && probe.weakSubscription == nil })
    }

    @Test func eachIteratorIsASubscriptionOfItsOwn() async {
        let sequence = AsyncProbeRange(1...3).values
        var first = sequence.makeAsyncIterator()
        var second = sequence.makeAsyncIterator()
        #expect(await first.next() == 1)
        #expect(await second.next() == 1)
        #expect(await first.next() == 2)
    }
}

extension AsyncPublisherTests {
    @Test func passthroughSubjectDeliversInOrderAndFinishes() async {
        let subject = PassthroughSubject<Int, Never>()
        let consumer = Task {
            var received: [Int] = []
            for await value in subject.values { received.append(value) }
            return received
        }
        // The subject drops values for a subscriber without demand, so send each value only once
        // the consumer is waiting for it.
        for value in 1...20 {
            subject.send(value)
            try? await Task.sleep(nanoseconds: 100_000)
        }
        subject.send(completion: .finished)
        let received = await consumer.value
        #expect(received == received.sorted() && Set(received).count == received.count)
        #expect(received.allSatisfy { (1...20).contains($0) })
    }

    @Test func sequencePublisherAsAsyncSequence() async {
        var received: [String] = []
        for await value in ["a", "b", "c"].publisher.values { received.append(value) }
        #expect(received == ["a", "b", "c"])
        var fromJust: [Int] = []
        for await value in Just(7).values { fromJust.append(value) }
        #expect(fromJust == [7])
    }

    @Test func testUpstreamRecordsOneRequestPerNext() async {
        let upstream = TestUpstream<Int, Never>()
        var iterator = upstream.values.makeAsyncIterator()
        #expect(upstream.calls.isEmpty)
        let consumer = Task {
            var received: [Int] = []
            while let value = await iterator.next() {
                received.append(value)
            }
            return received
        }
        for value in 1...3 {
            #expect(await eventually { upstream.calls.count == value })
            upstream.send(value)
        }
        #expect(await eventually { upstream.calls.count == 4 })
        upstream.send(completion: .finished)
        #expect(await consumer.value == [1, 2, 3])
        #expect(upstream.calls == Array(repeating: .request(.max(1)), count: 4))
    }

    /// Every request is answered from another thread, so an answer may arrive while the `next()`
    /// that asked is between its request and its suspension, or after it has suspended: each value
    /// still arrives once and in order, and each call requests exactly once.
    @Test func answersRacingTheSuspensionAreNeitherLostNorRequestedTwice() async {
        let count = 5_000
        let upstream = AsyncProbeEchoPublisher(count: count)
        var received: [Int] = []
        for await value in upstream.values { received.append(value) }
        #expect(received == Array(0..<count))
        #expect(upstream.requests == Array(repeating: .max(1), count: count + 1))
    }

    @Test func aBufferInFrontLetsASlowConsumerCatchUp() async {
        let subject = PassthroughSubject<Int, Never>()
        // Without a buffer, values sent before the consumer asks are lost.
        var bare = subject.values.makeAsyncIterator()
        // With one, up to its size are kept for the consumer.
        var buffered = subject
            .buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest)
            .values
            .makeAsyncIterator()
        for value in 1...8 { subject.send(value) }  // nobody is inside next() yet
        subject.send(completion: .finished)
        var fromBuffer: [Int] = []
        while let value = await buffered.next() { fromBuffer.append(value) }
        var fromBare: [Int] = []
        while let value = await bare.next() { fromBare.append(value) }
        #expect(fromBuffer == [1, 2, 3, 4, 5])
        #expect(fromBare.isEmpty)
    }

    /// Many consumers of one subject, one producer: every consumer sees an in-order,
    /// duplicate-free subsequence of what was sent, and every consumer's task ends when the
    /// subject finishes.
    @Test func stressThousandConsumersOfOneSubject() async {
        let subject = PassthroughSubject<Int, Never>()
        let subscribed = Locked(0)
        let consumerCount = 1_000
        let valueCount = 300
        var consumers: [Task<[Int], Never>] = []
        consumers.reserveCapacity(consumerCount)
        for _ in 0..<consumerCount {
            consumers.append(Task {
                var iterator = subject.values.makeAsyncIterator()
                subscribed.increment()
                var received: [Int] = []
                while let value = await iterator.next() { received.append(value) }
                return received
            })
        }
        #expect(await eventually(within: 30) { subscribed.current == consumerCount })
        let producer = Task {
            for value in 0..<valueCount {
                subject.send(value)
                if value % 16 == 0 { await Task.yield() }
            }
            subject.send(completion: .finished)
        }
        await producer.value
        var total = 0
        for consumer in consumers {
            let received = await consumer.value
            total += received.count
            var previous = -1
            for value in received {
                if value <= previous {
                    Issue.record("out of order or duplicated: \(value) after \(previous)")
                    break
                }
                previous = value
            }
            #expect(received.allSatisfy { (0..<valueCount).contains($0) })
        }
        #expect(total > 0, "some values reached the consumers")
    }
}

/// A synchronous publisher of a range that honours demand, delivering values from inside
/// `request(_:)` (the reentrant case: the value arrives before `request` returns).
struct AsyncProbeRange: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = Never
    let range: ClosedRange<Int>
    init(_ range: ClosedRange<Int>) { self.range = range }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Inner(subscriber: subscriber, range: range))
    }

    final class Inner<S: Subscriber>: Subscription, @unchecked Sendable where S.Input == Int, S.Failure == Never {
        let lock = NSRecursiveLock()
        var subscriber: S?
        var next: Int
        let last: Int
        var demand = Subscribers.Demand.none
        var emitting = false
        init(subscriber: S, range: ClosedRange<Int>) {
            self.subscriber = subscriber
            next = range.lowerBound
            last = range.upperBound
        }
        func request(_ more: Subscribers.Demand) {
            lock.lock()
            demand += more
            if emitting { lock.unlock(); return }
            emitting = true
            while demand > 0, let subscriber, next <= last {
                demand -= 1
                let value = next
                next += 1
                lock.unlock()
                let extra = subscriber.receive(value)
                lock.lock()
                demand += extra
            }
            var finished: S?
            if next > last, let subscriber {
                finished = subscriber
                self.subscriber = nil
            }
            emitting = false
            lock.unlock()
            finished?.receive(completion: .finished)
        }
        func cancel() {
            lock.withLock { subscriber = nil }
        }
    }
}

/// A publisher of `0..<count` that answers each request of one from a serial queue of its own,
/// then finishes at the request after the last value.
final class AsyncProbeEchoPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    private let count: Int
    private let lock = NSLock()
    private var recorded: [Subscribers.Demand] = []
    var requests: [Subscribers.Demand] { lock.withLock { recorded } }

    init(count: Int) { self.count = count }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Echo(publisher: self, subscriber: AnySubscriber(subscriber)))
    }

    private func record(_ demand: Subscribers.Demand) { lock.withLock { recorded.append(demand) } }

    /// Touched by the requesting thread (`request`, which only records and hands over) and by
    /// the serial queue (everything else).
    private final class Echo: Subscription, @unchecked Sendable {
        let publisher: AsyncProbeEchoPublisher
        let subscriber: AnySubscriber<Int, Never>
        let queue = DispatchQueue(label: "AsyncProbeEchoPublisher")
        var next = 0

        init(publisher: AsyncProbeEchoPublisher, subscriber: AnySubscriber<Int, Never>) {
            self.publisher = publisher
            self.subscriber = subscriber
        }

        func request(_ demand: Subscribers.Demand) {
            publisher.record(demand)
            queue.async { self.answer() }
        }

        private func answer() {
            if next < publisher.count {
                _ = subscriber.receive(next)
                next += 1
            } else {
                subscriber.receive(completion: .finished)
            }
        }

        func cancel() {}
    }
}

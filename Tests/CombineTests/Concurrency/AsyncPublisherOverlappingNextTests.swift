import Combine
import Foundation
import TestSupport
import Testing

/// Lets several tasks share one iterator, as copies of Apple's iterators share their subscription.
private final class SharedIterator<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
    let iterator: Iterator
    init(_ iterator: Iterator) { self.iterator = iterator }
    /// A copy of the iterator: it reads from the same subscription.
    var copy: Iterator { iterator }
}

/// Several `next()` calls in flight on copies of one iterator: they queue oldest first, each adds
/// one to the demand, and cancellation of any waiting task ends them all.
@Suite("AsyncPublisher with several next() waiting")
struct AsyncPublisherOverlappingNextTests {
    typealias Probe = AsyncProbePublisher<Int, Never>
    typealias ThrowingProbe = AsyncProbePublisher<Int, AsyncProbeError>

    @Test func valuesGoToTheOldestWaitingCall() async {
        let probe = Probe()
        let shared = SharedIterator(probe.values.makeAsyncIterator())
        let first = Task { var iterator = shared.copy; return await iterator.next() }
        #expect(await eventually { probe.requests.count == 1 })
        let second = Task { var iterator = shared.copy; return await iterator.next() }
        #expect(await eventually { probe.requests.count == 2 })
        #expect(probe.requests == [.max(1), .max(1)])
        #expect(probe.send(10) == .none)
        #expect(await first.value == 10)
        #expect(probe.send(20) == .none)
        #expect(await second.value == 20)
    }

    @Test func callsBeforeTheSubscriptionAreRequestedTogetherOnArrival() async {
        let probe = Probe(deferSubscription: true)
        let shared = SharedIterator(probe.values.makeAsyncIterator())
        let started = Locked(0)
        let first = Task { var iterator = shared.copy; started.withLock { $0 += 1 }; return await iterator.next() }
        let second = Task { var iterator = shared.copy; started.withLock { $0 += 1 }; return await iterator.next() }
        #expect(await eventually { started.withLock { $0 } == 2 })
        // Give both tasks time to suspend in next() before the subscription arrives.
        try? await Task.sleep(nanoseconds: 20_000_000)
        probe.attachNow()
        #expect(probe.requests == [.max(2)])
        probe.send(1)
        probe.send(2)
        let values = [await first.value, await second.value]
        #expect(values.sorted { ($0 ?? 0) < ($1 ?? 0) } == [1, 2])
    }

    @Test func cancellingOneWaitingTaskEndsEveryWaitingCallAndCancelsOnce() async {
        let probe = Probe()
        let shared = SharedIterator(probe.values.makeAsyncIterator())
        let tasks = (0..<3).map { _ in Task { var iterator = shared.copy; return await iterator.next() } }
        #expect(await eventually { probe.requests.count == 3 })
        let subscription = probe.subscription
        tasks[1].cancel()
        for task in tasks { #expect(await task.value == nil) }
        #expect(subscription?.requests == [.max(1), .max(1), .max(1)])
        #expect(subscription?.isCancelled == true)
        var iterator = shared.copy
        #expect(await iterator.next() == nil)
    }

    @Test func finishingEndsEveryWaitingCall() async {
        let probe = Probe()
        let shared = SharedIterator(probe.values.makeAsyncIterator())
        let tasks = (0..<2).map { _ in Task { var iterator = shared.copy; return await iterator.next() } }
        #expect(await eventually { probe.requests.count == 2 })
        probe.send(completion: .finished)
        for task in tasks { #expect(await task.value == nil) }
        var iterator = shared.copy
        #expect(await iterator.next() == nil)
    }

    @Test func aValueBeforeTheSubscriptionEndsEveryWaitingCall() async {
        let probe = Probe(deferSubscription: true)
        let shared = SharedIterator(probe.values.makeAsyncIterator())
        let started = Locked(0)
        let tasks = (0..<2).map { _ in
            Task { var iterator = shared.copy; started.withLock { $0 += 1 }; return await iterator.next() }
        }
        #expect(await eventually { started.withLock { $0 } == 2 })
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(probe.send(5) == .none)
        for task in tasks { #expect(await task.value == nil) }
    }

    @Test func throwingFailureGoesToTheOldestCallAndTheOthersEnd() async throws {
        let probe = ThrowingProbe()
        let shared = SharedIterator(probe.values.makeAsyncIterator())
        let first = Task { var iterator = shared.copy; return try await iterator.next() }
        #expect(await eventually { probe.requests.count == 1 })
        let second = Task { var iterator = shared.copy; return try await iterator.next() }
        #expect(await eventually { probe.requests.count == 2 })
        probe.send(completion: .failure(AsyncProbeError(code: 7)))
        await #expect(throws: AsyncProbeError(code: 7)) { try await first.value }
        #expect(try await second.value == nil)
        var iterator = shared.copy
        #expect(try await iterator.next() == nil)
    }

    @Test func throwingFinishEndsEveryWaitingCall() async throws {
        let probe = ThrowingProbe()
        let shared = SharedIterator(probe.values.makeAsyncIterator())
        let tasks = (0..<2).map { _ in Task { var iterator = shared.copy; return try await iterator.next() } }
        #expect(await eventually { probe.requests.count == 2 })
        probe.send(completion: .finished)
        for task in tasks { #expect(try await task.value == nil) }
    }
}

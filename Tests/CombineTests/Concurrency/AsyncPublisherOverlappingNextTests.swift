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

    /// Spec §22: the calls a value before the subscription ended still count: when the
    /// subscription then arrives, Apple requests their demand, `max(2)`.
    @Test func aValueBeforeTheSubscriptionKeepsTheDemandOfTheCallsItEnded() async throws {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let shared = SharedIterator(upstream.values.makeAsyncIterator())
        let tasks = await Self.waitingCalls(2) { var iterator = shared.copy; return await iterator.next() }
        #expect(upstream.send(5) == .none)
        for task in tasks { #expect(try await task.value == nil) }
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.requests == [.max(2)])
        #expect(!subscription.isCancelled)
    }

    /// Spec §22: a completion before the subscription ends the waiting calls (the oldest gets it,
    /// the others `nil`) and a subscription that arrives afterwards is cancelled. Each call is
    /// awaited with a deadline: before the fix they never returned.
    @Test func aFinishBeforeTheSubscriptionEndsEveryWaitingCall() async {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let shared = SharedIterator(upstream.values.makeAsyncIterator())
        let tasks = await Self.waitingCalls(2) { var iterator = shared.copy; return await iterator.next() }
        upstream.send(completion: .finished)
        let results = await Self.resultsWithinDeadline(tasks)
        #expect(results.count == 2)
        for result in results {
            if case .success(nil)? = result {} else { Issue.record("a call did not end with nil: \(String(describing: result))") }
        }
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.isCancelled)
        #expect(subscription.requests.isEmpty)
        var iterator = shared.copy
        #expect(await iterator.next() == nil)
    }

    @Test func aFailureBeforeTheSubscriptionGoesToTheOldestWaitingCall() async throws {
        let upstream = LateSubscriptionUpstream<Int, AsyncProbeError>()
        let shared = SharedIterator(upstream.values.makeAsyncIterator())
        let tasks = await Self.waitingCalls(2) { var iterator = shared.copy; return try await iterator.next() }
        upstream.send(completion: .failure(AsyncProbeError(code: 3)))
        let results = await Self.resultsWithinDeadline(tasks)
        #expect(results.count == 2)
        if case .failure(let error as AsyncProbeError)? = results.first { #expect(error.code == 3) } else {
            Issue.record("the oldest call did not throw the failure: \(String(describing: results.first))")
        }
        if case .success(let value)? = results.last { #expect(value == nil) } else {
            Issue.record("the second call did not end with nil: \(String(describing: results.last))")
        }
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.isCancelled)
        var iterator = shared.copy
        #expect(try await iterator.next() == nil)
    }

    /// Starts `count` tasks calling `next()`, one after another, each given time to suspend
    /// before the next starts, so that they wait oldest first.
    private static func waitingCalls<T: Sendable>(
        _ count: Int, _ body: @escaping @Sendable () async throws -> T
    ) async -> [Task<T, any Error>] {
        var tasks: [Task<T, any Error>] = []
        for _ in 0..<count {
            let started = Locked(false)
            tasks.append(Task { started.withLock { $0 = true }; return try await body() })
            #expect(await eventually { started.withLock { $0 } })
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return tasks
    }

    /// Each task's result, or `nil` for one still running after a deadline (which is then
    /// cancelled, so that the test ends instead of hanging).
    private static func resultsWithinDeadline<T: Sendable>(_ tasks: [Task<T, any Error>]) async -> [Result<T, any Error>?] {
        let done = Locked(0)
        for task in tasks { Task { _ = await task.result; done.withLock { $0 += 1 } } }
        let ended = await eventually(within: 5) { done.withLock { $0 } == tasks.count }
        #expect(ended, "a next() call waiting before the subscription never returned")
        if !ended {
            for task in tasks { task.cancel() }
            return tasks.map { _ in nil }
        }
        var results: [Result<T, any Error>?] = []
        for task in tasks { results.append(await task.result) }
        return results
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

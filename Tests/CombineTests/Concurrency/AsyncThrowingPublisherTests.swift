import Combine
import Foundation
import TestSupport
import Testing

@Suite("AsyncThrowingPublisher", .tags(.concurrency))
struct AsyncThrowingPublisherTests {
    typealias Probe = AsyncProbePublisher<Int, AsyncProbeError>

    @Test func deliversInOrderThenThrowsTheFailureOnce() async throws {
        let probe = Probe()
        let consumer = Task {
            var iterator = probe.values.makeAsyncIterator()
            var received: [Int] = []
            do {
                while let value = try await iterator.next() { received.append(value) }
                Issue.record("expected a failure")
            } catch let error as AsyncProbeError {
                #expect(error == AsyncProbeError(code: 3))
            }
            let afterFailure = try await iterator.next()
            return (received, afterFailure)
        }
        for index in 1...3 {
            #expect(await eventually { probe.requests.count == index })
            probe.send(index)
        }
        #expect(await eventually { probe.requests.count == 4 })
        let subscription = probe.subscription
        probe.send(completion: .failure(AsyncProbeError(code: 3)))
        let (received, afterFailure) = try await consumer.value
        #expect(received == [1, 2, 3])
        #expect(afterFailure == nil)
        #expect(subscription?.requests == Array(repeating: .max(1), count: 4))
        #expect(await eventually { probe.weakSubscriber == nil })
    }

    @Test func failureBeforeNextIsThrownByTheFirstCall() async throws {
        let probe = Probe()
        var iterator = probe.values.makeAsyncIterator()
        probe.send(completion: .failure(AsyncProbeError(code: 1)))
        await #expect(throws: AsyncProbeError(code: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func finishingEndsTheLoop() async throws {
        let probe = Probe()
        let consumer = Task {
            var received: [Int] = []
            for try await value in probe.values { received.append(value) }
            return received
        }
        #expect(await eventually { probe.requests.count == 1 })
        probe.send(42)
        #expect(await eventually { probe.requests.count == 2 })
        probe.send(completion: .finished)
        #expect(try await consumer.value == [42])
    }

    @Test func neverFailingPublisherCanUseTheThrowingSequenceToo() async throws {
        var received: [Int] = []
        for try await value in AsyncThrowingPublisher(AsyncProbeRange(1...3)) { received.append(value) }
        #expect(received == [1, 2, 3])
    }

    @Test func cancellingTheTaskEndsTheLoopWithoutThrowing() async throws {
        let probe = Probe()
        let consumer = Task {
            var received: [Int] = []
            for try await value in probe.values { received.append(value) }
            return received
        }
        #expect(await eventually { probe.requests.count == 1 })
        probe.send(5)
        #expect(await eventually { probe.requests.count == 2 })
        consumer.cancel()
        #expect(try await consumer.value == [5])
        #expect(await eventually { probe.weakSubscriber == nil && probe.weakSubscription == nil })
    }
}

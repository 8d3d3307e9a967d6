import Combine
import Foundation
import TestSupport
import Testing
import Tributary

@Suite("Future+Async", .tags(.concurrency))
struct FutureAsyncTests {
    @Test func nonThrowingOperationFulfilsTheFuture() async {
        let future = Future { () async -> Int in
            try? await Task.sleep(nanoseconds: 1_000_000)
            return 42
        }
        #expect(await future.value == 42)
    }

    @Test func trailingClosureInfersTheFailureType() async throws {
        let never = Future { await Self.answer() }
        let neverType: Future<Int, Never> = never
        #expect(await neverType.value == 41)
        let throwing = Future { try await Self.failingAnswer(fail: false) }
        let throwingType: Future<Int, any Error> = throwing
        #expect(try await throwingType.value == 43)
    }

    @Test func thrownErrorFailsTheFuture() async {
        let future = Future(performing: { try await Self.failingAnswer(fail: true) })
        await #expect(throws: FutureAsyncTestError.self) { try await future.value }
    }

    @Test func runsOnceEagerlyAndSharesTheResult() async {
        let runs = Locked(0)
        let future = Future(priority: .high) { () async -> Int in
            runs.increment()
            return 7
        }
        async let first = future.value
        async let second = future.value
        #expect(await [first, second] == [7, 7])
        #expect(await future.value == 7)
        #expect(runs.current == 1)
    }

    @Test func deferredRunsTheWorkPerSubscriber() async {
        let runs = Locked(0)
        let deferred = Deferred {
            Future { () async -> Int in
                runs.withLock { $0 += 1 }
                return runs.withLock { $0 }
            }
        }
        var received: [Int] = []
        for await value in deferred.values { received.append(value) }
        for await value in deferred.values { received.append(value) }
        #expect(received.sorted() == [1, 2])
        #expect(runs.withLock { $0 } == 2)
    }

    @Test func sinkReceivesValueThenFinished() async {
        let future = Future { await Self.answer() }
        let events = Locked<[String]>([])
        var cancellable: AnyCancellable?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cancellable = future.sink(
                receiveCompletion: { completion in
                    events.withLock { $0.append("\(completion)") }
                    continuation.resume()
                },
                receiveValue: { value in events.withLock { $0.append("\(value)") } })
        }
        cancellable?.cancel()
        #expect(events.withLock { $0 } == ["41", "finished"])
    }

    static func answer() async -> Int { 41 }

    static func failingAnswer(fail: Bool) async throws -> Int {
        if fail { throw FutureAsyncTestError() }
        return 43
    }
}

struct FutureAsyncTestError: Error {}

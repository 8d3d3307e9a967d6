import Combine
import Foundation
import TestSupport
import Testing

@Suite("Future+Concurrency", .tags(.concurrency))
struct FutureConcurrencyTests {
    @Test func valueOfAnAlreadyFulfilledFuture() async {
        let future = Future<Int, Never> { promise in promise(.success(3)) }
        #expect(await future.value == 3)
        #expect(await future.value == 3, "awaiting again subscribes again and gets the stored value")
    }

    @Test func valueFulfilledLaterFromAnotherThread() async {
        let handle = PromiseHandle<String, Never>()
        let future = Future<String, Never> { handle.store($0) }
        let waiter = Task { await future.value }
        try? await Task.sleep(nanoseconds: 10_000_000)
        DispatchQueue.global().async { handle.fulfill(.success("done")) }
        #expect(await waiter.value == "done")
    }

    @Test func throwingValue() async throws {
        let ok = Future<Int, AsyncProbeError> { $0(.success(1)) }
        #expect(try await ok.value == 1)
        let failing = Future<Int, AsyncProbeError> { $0(.failure(AsyncProbeError(code: 9))) }
        await #expect(throws: AsyncProbeError(code: 9)) { try await failing.value }
    }

    @Test func failureArrivingLater() async {
        let handle = PromiseHandle<Int, AsyncProbeError>()
        let future = Future<Int, AsyncProbeError> { handle.store($0) }
        let waiter = Task { try await future.value }
        try? await Task.sleep(nanoseconds: 5_000_000)
        handle.fulfill(.failure(AsyncProbeError(code: 2)))
        await #expect(throws: AsyncProbeError(code: 2)) { try await waiter.value }
    }

    @Test func cancellingTheThrowingWaitThrowsCancellationError() async throws {
        let handle = PromiseHandle<Int, any Error>()
        let future = Future<Int, any Error> { handle.store($0) }
        let waiter = Task { try await future.value }
        try? await Task.sleep(nanoseconds: 5_000_000)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        // The future is unaffected: fulfilled later, it still answers.
        handle.fulfill(.success(5))
        #expect(try await future.value == 5)
    }

    @Test func alreadyCancelledTaskThrowsWithoutWaiting() async {
        let future = Future<Int, any Error> { _ in }
        let waiter = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await future.value
        }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func nonThrowingValueWaitsThroughCancellation() async {
        let handle = PromiseHandle<Int, Never>()
        let future = Future<Int, Never> { handle.store($0) }
        let waiter = Task { await future.value }
        try? await Task.sleep(nanoseconds: 5_000_000)
        waiter.cancel()
        try? await Task.sleep(nanoseconds: 5_000_000)
        handle.fulfill(.success(8))
        #expect(await waiter.value == 8)
    }

    @Test func manyConcurrentAwaiters() async {
        let handle = PromiseHandle<Int, Never>()
        let future = Future<Int, Never> { handle.store($0) }
        let sum = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { await future.value }
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: 2_000_000)
                handle.fulfill(.success(1))
                return 0
            }
            return await group.reduce(0, +)
        }
        #expect(sum == 200)
    }
}

/// Keeps a future's promise so a test can fulfil it later, from any thread.
final class PromiseHandle<Output, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var promise: Future<Output, Failure>.Promise?

    func store(_ promise: @escaping Future<Output, Failure>.Promise) {
        lock.withLock { self.promise = promise }
    }

    func fulfill(_ result: Result<Output, Failure>) {
        let promise = lock.withLock { self.promise }
        promise?(result)
    }
}

import Combine
import Foundation
import TestSupport
import Testing

@Suite("AnyCancellable")
struct AnyCancellableTests {
    @Test func closureRunsOnceOnCancelAndNotAgainOnDeinit() {
        var runs = 0
        do {
            let cancellable = AnyCancellable { runs += 1 }
            cancellable.cancel()
            cancellable.cancel()
            #expect(runs == 1)
        }
        #expect(runs == 1)
    }

    @Test func deinitRunsTheActionOnce() {
        var runs = 0
        do { _ = AnyCancellable { runs += 1 } }
        #expect(runs == 1)
        let counter = RecordingSubscription()
        do { _ = AnyCancellable(counter) }
        #expect(counter.cancelCount == 1)
    }

    @Test func cancellableIsCancelledOnceAndReleased() {
        weak var weakCounter: RecordingSubscription?
        let cancellable: AnyCancellable
        do {
            let counter = RecordingSubscription()
            weakCounter = counter
            cancellable = AnyCancellable(counter)
        }
        #expect(weakCounter != nil)
        cancellable.cancel()
        #expect(weakCounter == nil)
        cancellable.cancel()
    }

    @Test func closureIsReleasedAfterCancel() {
        final class Token {}
        weak var weakToken: Token?
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = AnyCancellable { withExtendedLifetime(token) {} }
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }

    @Test(.tags(.concurrency)) func concurrentCancelsRunTheActionExactlyOnce() {
        for _ in 0..<500 {
            let counter = RecordingSubscription()
            let cancellable = AnyCancellable(counter)
            onThreadsBlocking(4) { _ in cancellable.cancel() }
            #expect(counter.cancelCount == 1)
            if counter.cancelCount != 1 { break }
        }
    }

    @Test func hashableByIdentity() {
        let first = AnyCancellable {}
        let second = AnyCancellable {}
        #expect(first == first)
        #expect(first != second)
        var set = Set<AnyCancellable>()
        first.store(in: &set)
        first.store(in: &set)
        second.store(in: &set)
        #expect(set.count == 2)
        var array: [AnyCancellable] = []
        AnyCancellable(RecordingSubscription()).store(in: &array)
        #expect(array.count == 1)
    }
}

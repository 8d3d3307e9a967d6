import Combine
import TestSupport
import Testing

@Suite("Publishers.CollectByCount")
struct PublishersCollectByCountTests {
    @Test func demandIsCountedInBatches() {
        let (up, sub) = SingleOp.attach({ $0.collect(3) }, demand: .max(2), after: { _ in .max(1) })
        #expect(SingleOp.calls(up) == ["request(max(6))"])
        #expect(up.send(1) == .none)
        #expect(up.send(2) == .none)
        #expect(up.send(3) == .max(3))
        up.send(4)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(CollectByCount)", "value([1, 2, 3])", "value([4])", "finished"])
    }

    @Test func stepByStepDemand() {
        let (up, sub) = SingleOp.attach({ $0.collect(2) }, demand: .max(1))
        up.send(1); up.send(2)
        sub.request(.max(1))
        #expect(SingleOp.calls(up) == ["request(max(2))", "request(max(2))"])
        #expect(sub.values == [[1, 2]])
    }

    @Test func failureDropsPartialBatchAndCancelWorks() {
        let (up, sub) = SingleOp.attach({ $0.collect(2) })
        up.send(1)
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(CollectByCount)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.collect(2) })
        sub2.cancel()
        up2.send(1); up2.send(2)
        #expect(sub2.values.isEmpty)
        #expect(up2.isCancelled)
    }

    @Test func cancelDiscardsThePartialBatch() {
        // Spec §12, §30: completions still go on after a cancel, but the batch being collected
        // went with the cancel: a later `finished` is sent alone.
        let (up, sub) = SingleOp.attach({ $0.collect(3) }, demand: .max(2))
        #expect(up.send(1) == .none)
        #expect(up.send(2) == .none)
        let subscription = sub.subscription
        func buffer() -> String? {
            subscription.flatMap { Mirror(reflecting: $0).children.first { $0.label == "buffer" } }.map { "\($0.value)" }
        }
        #expect(buffer() == "[1, 2]")
        sub.cancel()
        #expect(buffer() == "[]")
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(CollectByCount)", "finished"])
    }

    @Test func manyBatchesThenPartialBatchOnFinish() {
        let up = TestUpstream<Int, Never>()
        let sub = TrackingSubscriber<[Int], Never>(initialDemand: .unlimited)
        up.collect(3).subscribe(sub)
        for value in 0..<10 { _ = up.send(value) }
        up.send(completion: .finished)
        #expect(sub.values == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]])
        #expect(sub.completions == [.finished])
    }

    /// Batches larger than the buffer's first allocation, and a huge count that must not be
    /// allocated up front.
    @Test func largeAndHugeCounts() {
        let up = TestUpstream<Int, Never>()
        let sub = TrackingSubscriber<[Int], Never>(initialDemand: .unlimited)
        up.collect(150).subscribe(sub)
        for value in 0..<400 { _ = up.send(value) }
        up.send(completion: .finished)
        #expect(sub.values == [Array(0..<150), Array(150..<300), Array(300..<400)])

        let hugeUp = TestUpstream<Int, Never>()
        let hugeSub = TrackingSubscriber<[Int], Never>(initialDemand: .max(1))
        hugeUp.collect(.max).subscribe(hugeSub)
        for value in 0..<3 { _ = hugeUp.send(value) }
        hugeUp.send(completion: .finished)
        #expect(hugeSub.values == [[0, 1, 2]])
    }

    /// Values waiting in an unfinished batch are released with the subscription, after a
    /// failure, and once handed on.
    @Test func bufferedValuesAreReleased() {
        final class Token {}
        weak var pending: Token?
        let up = ReleasingTestUpstream<Token, Never>()
        let cancellable = up.collect(3).sink { _ in }
        do {
            let token = Token()
            pending = token
            up.send(token)
        }
        #expect(pending != nil)
        cancellable.cancel()
        #expect(pending == nil)

        weak var afterFailure: Token?
        let failing = TestUpstream<Token, TestFailure>()
        let sub = TrackingSubscriber<[Token], TestFailure>(initialDemand: .unlimited)
        failing.collect(3).subscribe(sub)
        do {
            let token = Token()
            afterFailure = token
            _ = failing.send(token)
        }
        failing.send(completion: .failure(.boom))
        #expect(afterFailure == nil)
    }
}

private enum TestFailure: Error { case boom }


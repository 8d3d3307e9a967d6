import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom, full }

/// An upstream that respects demand: `send` waits until the subscriber has asked for a value.
private final class PacedUpstream: Publisher, Subscription, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    private let condition = NSCondition()
    private var credit: Subscribers.Demand = .none
    private var cancelled = false
    private var deliver: ((Int) -> Subscribers.Demand)?
    private var finish: (() -> Void)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        condition.withLock {
            deliver = { subscriber.receive($0) }
            finish = { subscriber.receive(completion: .finished) }
        }
        subscriber.receive(subscription: self)
    }

    func request(_ demand: Subscribers.Demand) {
        condition.withLock {
            credit += demand
            condition.broadcast()
        }
    }

    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    func send(_ value: Int) {
        let target: ((Int) -> Subscribers.Demand)? = condition.withLock {
            while credit == .none && !cancelled { condition.wait() }
            if cancelled { return nil }
            credit -= 1
            return deliver
        }
        guard let target else { return }
        let more = target(value)
        if more != .none { request(more) }
    }

    func complete() {
        condition.withLock { finish }?()
    }
}

@Suite("Publishers.Buffer", .tags(.concurrency))
struct BufferTests {
    @Test func keepFullPrefetchesAndTopsUp() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.calls == [.request(.max(3))])
        for value in 1...3 { #expect(upstream.send(value) == .none) }
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
        #expect(upstream.calls == [.request(.max(3)), .request(.max(2))])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        #expect(upstream.calls == [.request(.max(3)), .request(.max(2)), .request(.max(1))])
        // Outstanding demand of one: the next value goes straight through and is replaced.
        #expect(upstream.send(4) == .max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    /// Values delivered after the upstream finished still have their room asked for, as Apple's
    /// stage asks: after the completion, the upstream receives the top-up it would have had.
    @Test func keepFullAsksAFinishedUpstreamForTheRoomItsLastValuesLeft() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(upstream.calls == [.request(.max(2)), .request(.max(1))])
        subscriber.request(.max(2))
        #expect(subscriber.events.suffix(2) == [.value(2), .completion(.finished)])
        #expect(upstream.calls == [.request(.max(2)), .request(.max(1)), .request(.max(1))])
    }

    @Test func dropNewestDiscardsArrivals() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        subscriber.request(.unlimited)
        #expect(subscriber.values == [1, 2])
    }

    @Test func dropOldestKeepsTheLatest() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        subscriber.request(.max(1))
        #expect(subscriber.values == [4])
        subscriber.request(.max(5))
        #expect(subscriber.values == [4, 5])
    }

    @Test func customErrorCancelsUpstreamAndGoesOutWhenDemandRunsOut() {
        // Spec §15 rule 3: the overflow cancels the upstream; the error waits for the subscriber
        // to ask, then goes out as soon as its demand runs out, and the values still buffered
        // are dropped.
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: nil)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .customError { .full }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(upstream.calls == [.request(.max(2)), .cancel])
        #expect(subscriber.events == [.subscription("Buffer")])
        upstream.send(4)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .completion(.failure(.full))])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .completion(.failure(.full))])
    }

    @Test func customErrorDropsWhatIsStillBufferedWhenDemandRunsOut() {
        // The example of spec §15 rule 3: size 5, ten values with no demand, then three asked for.
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .customError { .full }).subscribe(subscriber)
        for value in 0..<10 { upstream.send(value) }
        subscriber.request(.max(3))
        #expect(subscriber.events == [
            .subscription("Buffer"), .value(0), .value(1), .value(2), .completion(.failure(.full)),
        ])
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 5)
    }

    @Test func customErrorWaitsBehindTheBufferWhileDemandLasts() {
        // With demand to spare, every buffered value goes out before the error.
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: nil)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .customError { .full }).subscribe(subscriber)
        for value in 1...3 { upstream.send(value) }
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .value(2), .completion(.failure(.full))])
    }

    @Test func byRequestAsksForEverythingBeforeTheSubscriptionGoesDownstream() {
        // Spec §15 rule 1 and §7: `.byRequest` requests `unlimited` first, then hands the
        // subscription down; later requests, zero included, are not forwarded.
        let upstream = TestUpstream<Int, Never>()
        var callsSeenBySubscriber: [TestUpstream<Int, Never>.Call] = []
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest)
            .subscribe(AnySubscriber(receiveSubscription: { _ in callsSeenBySubscriber = upstream.calls }))
        #expect(callsSeenBySubscriber == [.request(.unlimited)])
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        subscriber.request(.max(2))
        subscriber.request(.none)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(3))
        #expect(subscriber.values == [1, 2, 3])
        #expect(upstream.calls == [.request(.unlimited), .request(.unlimited)])
    }

    @Test func valuesAfterFinishedAreStillBuffered() {
        // Spec §15 rule 2.
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 4, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .value(2), .completion(.finished)])
    }

    @Test func byRequestUnlimited() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        for value in 1...4 { #expect(upstream.send(value) == .none) }
        upstream.send(completion: .finished)
        #expect(upstream.calls == [.request(.unlimited)])
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func keepFullAsksForOneMorePerValuePassedStraightThrough() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(10))
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.calls == [.request(.max(2))])
        for value in 1...10 { #expect(upstream.send(value) == .max(1)) }
        #expect(upstream.calls == [.request(.max(2))])  // the rest came back from `receive`
        #expect(subscriber.values == Array(1...10))
    }

    @Test func keepFullReturnsOneMoreFromReceiveWhenTheSubscriberAsksFromInsideIt() {
        // Spec §15 rule 1, §30: a value delivered straight away asks for its replacement through
        // `receive(_:)`'s return, even when the subscriber requests its next value from inside
        // `receive(_:)` (as `values` does); no separate `request(.max(1))` reaches the upstream.
        let upstream = TestUpstream<Int, Never>()
        var subscriberRef: TrackingSubscriber<Int, Never>?
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in subscriberRef?.request(.max(1)) })
        subscriberRef = subscriber
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...3 { #expect(upstream.send(value) == .max(1)) }
        #expect(upstream.calls == [.request(.max(2))])
        #expect(subscriber.values == [1, 2, 3])
        subscriberRef = nil
    }

    @Test func finishedWaitsForBufferedValues() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.completions.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .value(2)])
        // Spec §15 rule 2: `finished` also waits for demand left over.
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .value(2), .completion(.finished)])
        // Each value delivered after the upstream finished still asks it for the room it left,
        // as Apple's stage does; the completion leaves nothing missing, so nothing more is asked.
        #expect(upstream.calls == [.request(.max(4)), .request(.max(1)), .request(.max(1))])
    }

    @Test func failureCutsAhead() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: nil)
        upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription("Buffer"), .completion(.failure(.boom))])
    }

    @Test func cancelReachesUpstreamAndDropsBuffer() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.calls == [.request(.max(4)), .cancel])
        #expect(subscriber.values.isEmpty)
    }

    @Test func reentrantRequestFromReceive() {
        let upstream = TestUpstream<Int, Never>()
        var subscriberRef: TrackingSubscriber<Int, Never>?
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil, onValue: { _ in subscriberRef?.request(.max(1)) })
        subscriberRef = subscriber
        upstream.buffer(size: 10, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        subscriberRef = nil
    }

    @Test func largeBurstIsFIFO() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.buffer(size: 100_000, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 0..<100_000 { upstream.send(value) }
        subscriber.request(.max(50_000))
        for value in 100_000..<150_000 { upstream.send(value) }
        subscriber.request(.unlimited)
        let inOrder = subscriber.values == Array(0..<150_000)
        #expect(inOrder)
    }

    @Test func publisherProperties() {
        let buffer = EquatableUpstream(id: 1).buffer(size: 7, prefetch: .byRequest, whenFull: .dropOldest)
        #expect(buffer.size == 7)
        #expect(buffer.prefetch == .byRequest)
        #expect(buffer.upstream == EquatableUpstream(id: 1))
        if case .dropOldest = buffer.whenFull {} else { Issue.record("expected dropOldest") }
        #expect(Set([Publishers.PrefetchStrategy.keepFull, .byRequest, .keepFull]).count == 2)
    }

    @Test func reflection() throws {
        let subscriber = TrackingSubscriber<Int, Never>()
        TestUpstream<Int, Never>().buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Buffer")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Buffer")
        // Spec §28: Apple's children.
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label)
            == ["values", "state", "downstreamDemand", "terminal"])
    }

    @Test func releasedAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>(initialDemand: .max(1))
            upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(1)
            upstream.send(2)
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }

    @Test func concurrentCancelStopsDelivery() {
        for _ in 0..<20 {
            let upstream = PacedUpstream()
            let checker = SerializationCheckingSubscriber<Int, Never>(initialDemand: .none)
            upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(checker)
            onThreadsBlocking(3) { worker in
                switch worker {
                case 0: for value in 0..<500 { upstream.send(value) }
                case 1: for _ in 0..<500 { checker.subscription?.request(.max(1)) }
                default:
                    usleep(200)
                    checker.subscription?.cancel()
                }
            }
            let seen = checker.values.count
            checker.subscription?.request(.unlimited)
            upstream.complete()
            #expect(checker.values.count == seen)
            #expect(checker.completions.isEmpty)
            #expect(checker.overlaps == 0)
            let ordered = zip(checker.values, checker.values.dropFirst()).allSatisfy { $0 < $1 }
            #expect(ordered)
        }
    }

    @Test func concurrentProducerAndRequestersLoseNothing() async {
        // Only `.keepFull` bounds what the upstream may send: `.byRequest` asks for `unlimited`
        // (spec §15 rule 1), so a producer faster than the requesters overflows by design.
        for prefetch in [Publishers.PrefetchStrategy.keepFull] {
            let upstream = PacedUpstream()
            let checker = SerializationCheckingSubscriber<Int, Never>(initialDemand: .none)
            upstream.buffer(size: 8, prefetch: prefetch, whenFull: .customError { fatalError("overflow") }).subscribe(checker)
            let count = 2_000
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for value in 0..<count { upstream.send(value) }
                    upstream.complete()
                }
                for _ in 0..<3 {
                    group.addTask {
                        for _ in 0..<(count / 3 + 1) { checker.subscription?.request(.max(1)) }
                    }
                }
            }
            checker.subscription?.request(.unlimited)
            let inOrder = checker.values == Array(0..<count)
            #expect(inOrder)
            #expect(checker.completions.count == 1)
            #expect(checker.overlaps == 0)
        }
    }
}

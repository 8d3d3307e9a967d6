import Combine
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Publishers.Merge", .tags(.concurrency))
struct MergeTests {
    typealias Upstream = TestUpstream<Int, TestError>
    typealias Tracker = TrackingSubscriber<Int, TestError>

    enum TestError: Error, Equatable { case boom }

    @Test func interleavesValuesInArrivalOrderAndFinishesWhenAllFinish() {
        let a = Upstream(), b = Upstream()
        let tracker = Tracker()
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        b.send(4)
        #expect(tracker.values == [1, 2, 3, 4])
        #expect(tracker.completions.isEmpty)
        b.send(completion: .finished)
        #expect(tracker.events == [.subscription("Merge"), .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        #expect(a.calls == [.request(.unlimited)])
        #expect(b.calls == [.request(.unlimited)])
    }

    @Test func failureIsDeliveredAtOnceAndCancelsTheOthers() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let tracker = Tracker()
        Publishers.Merge3(a, b, c).subscribe(tracker)
        a.send(1)
        c.send(completion: .finished)
        b.send(completion: .failure(.boom))
        a.send(2)
        a.send(completion: .finished)
        #expect(tracker.events == [.subscription("Merge"), .value(1), .completion(.failure(.boom))])
        #expect(a.calls == [.request(.unlimited), .cancel])
        #expect(b.calls == [.request(.unlimited)])
        #expect(c.calls == [.request(.unlimited)])
    }

    /// Calls into one subscriber are serialised, so a subscriber needs no lock of its own: a
    /// thread that takes the role, lock-free or under the mutex, after another gave it back sees
    /// everything the other's delivery did (the thread sanitizer checks the plain counter).
    @Test func subscriberWithoutALockSeesEveryEarlierDelivery() {
        final class Counter: @unchecked Sendable { var count = 0 }
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        let counter = Counter()
        let cancellable = a.merge(with: b).sink { _ in counter.count += 1 }
        // Enough for the sanitizer to see every hand-over of the role between the two threads;
        // a larger count blocks two of the pool's threads long enough to starve the suite's
        // asynchronous tests under the thread sanitizer.
        let perThread = 5_000
        onThreadsBlocking(2) { side in
            for value in 1...perThread { if side == 0 { a.send(value) } else { b.send(value) } }
        }
        #expect(counter.count == 2 * perThread)
        cancellable.cancel()
    }

    @Test func demandIsHonouredStepByStep() {
        let a = Upstream(), b = Upstream()
        let tracker = Tracker(initialDemand: .max(1))
        a.merge(with: b).subscribe(tracker)
        #expect(a.calls == [.request(.max(1))])
        #expect(b.calls == [.request(.max(1))])
        a.send(1)
        b.send(2)  // within b's grant, but the subscriber has no demand left: waits
        #expect(tracker.values == [1])
        tracker.request(.max(1))
        #expect(tracker.values == [1, 2])
        // The queue is empty and no demand is left: no upstream is asked for more.
        #expect(a.calls == [.request(.max(1))])
        #expect(b.calls == [.request(.max(1))])
        tracker.request(.max(2))
        #expect(a.calls == [.request(.max(1)), .request(.max(2))])
        #expect(b.calls == [.request(.max(1)), .request(.max(2))])
        b.send(3)
        a.send(4)
        a.send(5)  // beyond the subscriber's demand: queued, not delivered
        #expect(tracker.values == [1, 2, 3, 4])
        tracker.request(.max(1))
        #expect(tracker.values == [1, 2, 3, 4, 5])
    }

    @Test func demandReturnedFromReceiveIsForwarded() {
        let a = Upstream(), b = Upstream()
        let tracker = Tracker(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        #expect(a.calls == [.request(.max(1)), .request(.max(1))])
        #expect(b.calls == [.request(.max(1))])
        b.send(2)
        #expect(tracker.values == [1, 2])
        #expect(b.calls == [.request(.max(1)), .request(.max(1))])
    }

    @Test func finishWaitsForQueuedValues() {
        let a = Upstream(), b = Upstream()
        let tracker = Tracker(initialDemand: .max(1))
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(tracker.values == [1])
        #expect(tracker.completions.isEmpty)
        tracker.request(.max(1))
        #expect(tracker.values == [1, 2])
        #expect(tracker.completions == [.finished])
    }

    @Test func failureDropsQueuedValues() {
        let a = Upstream(), b = Upstream()
        let tracker = Tracker(initialDemand: .max(1))
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        a.send(2)
        b.send(completion: .failure(.boom))
        #expect(tracker.values == [1])
        #expect(tracker.completions == [.failure(.boom)])
        tracker.request(.max(5))
        #expect(tracker.values == [1])
    }

    @Test func cancelReachesEveryUpstreamAndStopsEverything() {
        let a = Upstream(), b = Upstream()
        weak var weakTracker: Tracker?
        do {
            let tracker = Tracker()
            weakTracker = tracker
            a.merge(with: b).subscribe(tracker)
            a.send(1)
            tracker.cancel()
            a.send(2)
            b.send(3)
            b.send(completion: .finished)
            #expect(tracker.values == [1])
            #expect(tracker.completions.isEmpty)
            tracker.cancel()
        }
        #expect(a.calls == [.request(.unlimited), .cancel])
        #expect(b.calls == [.request(.unlimited), .cancel])
        // The subscription let go of its subscriber (no cycle with the subscriber's reference).
        #expect(weakTracker == nil)
    }

    @Test func subscriptionIsReleasedWhenUpstreamsGoAway() {
        weak var weakSubscription: AnyObject?
        do {
            let a = Upstream(), b = Upstream()
            let tracker = Tracker()
            a.merge(with: b).subscribe(tracker)
            weakSubscription = tracker.subscription as AnyObject
            tracker.cancel()
        }
        #expect(weakSubscription == nil)
    }

    @Test func reentrantSendIsDeliveredAfterTheCurrentValue() {
        let a = Upstream(), b = Upstream()
        var tracker: Tracker!
        tracker = Tracker(onValue: { value in
            if value < 3 {
                a.send(value + 10)
                #expect(tracker.values.last == value, "no recursion into the subscriber")
            }
        })
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        b.send(2)
        #expect(tracker.values == [1, 11, 2, 12])
    }

    /// With unlimited demand values skip the lock; a value from an upstream that already finished
    /// must still be dropped, and the other upstream's values still delivered.
    @Test func valueFromAFinishedUpstreamIsDroppedAtUnlimitedDemand() {
        let a = Upstream(), b = Upstream()
        let tracker = Tracker()
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        a.send(completion: .finished)
        a.send(2)
        b.send(3)
        a.send(4)
        b.send(5)
        #expect(tracker.values == [1, 3, 5])
        #expect(tracker.completions.isEmpty)
    }

    /// A subscriber that cancels from inside a value delivered without the lock gets nothing more,
    /// and the merge lets go of it before the delivery's thread returns.
    @Test func cancelInsideALockFreeDeliveryReleasesTheSubscriber() {
        let a = Upstream(), b = Upstream()
        weak var weakTracker: Tracker?
        do {
            var tracker: Tracker!
            tracker = Tracker(onValue: { value in
                if value == 2 { tracker.cancel() }
            })
            weakTracker = tracker
            a.merge(with: b).subscribe(tracker)
            a.send(1)
            b.send(2)
            a.send(3)
            #expect(tracker.values == [1, 2])
            tracker = nil
        }
        #expect(weakTracker == nil)
        #expect(a.calls == [.request(.unlimited), .cancel])
    }

    /// Demand that becomes unlimited from inside a delivery opens the lock-free path for the
    /// following values, and every upstream is asked for everything.
    @Test func demandBecomingUnlimitedInsideADeliveryOpensTheLockFreePath() {
        let a = Upstream(), b = Upstream()
        let tracker = Tracker(initialDemand: .max(1), demandAfterValue: { $0 == 1 ? .unlimited : .none })
        a.merge(with: b).subscribe(tracker)
        a.send(1)
        b.send(2)
        a.send(3)
        #expect(tracker.values == [1, 2, 3])
        #expect(a.calls == [.request(.max(1)), .request(.unlimited)])
        #expect(b.calls == [.request(.max(1)), .request(.unlimited)])
    }

    @Test func mergeManyAndAllArities() {
        let ups = (0..<8).map { Upstream(name: "U\($0)") }
        let t8 = Tracker()
        ups[0].merge(with: ups[1], ups[2], ups[3], ups[4], ups[5], ups[6], ups[7]).subscribe(t8)
        for (index, upstream) in ups.enumerated() { upstream.send(index) }
        #expect(t8.values == Array(0..<8))

        let t4: Tracker = Tracker()
        let merge4: Publishers.Merge4<Upstream, Upstream, Upstream, Upstream> =
            Publishers.Merge(ups[0], ups[1]).merge(with: ups[2], ups[3])
        merge4.subscribe(t4)
        ups[3].send(30)
        #expect(t4.values == [30])

        let _: Publishers.Merge8<Upstream, Upstream, Upstream, Upstream, Upstream, Upstream, Upstream, Upstream> =
            Publishers.Merge5(ups[0], ups[1], ups[2], ups[3], ups[4]).merge(with: ups[5], ups[6], ups[7])
        let _: Publishers.Merge8<Upstream, Upstream, Upstream, Upstream, Upstream, Upstream, Upstream, Upstream> =
            Publishers.Merge7(ups[0], ups[1], ups[2], ups[3], ups[4], ups[5], ups[6]).merge(with: ups[7])

        let many: Publishers.MergeMany<Upstream> = ups[0].merge(with: ups[1]).merge(with: ups[2])
        #expect(many.publishers.count == 3)
        let tMany = Tracker()
        many.subscribe(tMany)
        ups[2].send(7)
        ups[1].send(8)
        #expect(tMany.values == [7, 8])
        #expect(Publishers.MergeMany(ups[0...2]).publishers.count == 3)
    }

    @Test func emptyMergeManyFinishesImmediately() {
        let tracker = Tracker()
        Publishers.MergeMany<Upstream>([]).subscribe(tracker)
        #expect(tracker.events == [.subscription("Merge"), .completion(.finished)])
    }

    @Test func equatableWhenUpstreamsAre() {
        struct P: Publisher, Equatable {
            typealias Output = Int
            typealias Failure = Never
            let id: Int
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
        }
        #expect(Publishers.Merge(P(id: 1), P(id: 2)) == Publishers.Merge(P(id: 1), P(id: 2)))
        #expect(Publishers.Merge(P(id: 1), P(id: 2)) != Publishers.Merge(P(id: 2), P(id: 1)))
        #expect(Publishers.Merge8(P(id: 1), P(id: 2), P(id: 3), P(id: 4), P(id: 5), P(id: 6), P(id: 7), P(id: 8))
            == Publishers.Merge8(P(id: 1), P(id: 2), P(id: 3), P(id: 4), P(id: 5), P(id: 6), P(id: 7), P(id: 8)))
        #expect(Publishers.MergeMany(P(id: 1), P(id: 2)) == Publishers.MergeMany([P(id: 1), P(id: 2)]))
    }

    @Test(arguments: [Subscribers.Demand.unlimited, .max(1)])
    func concurrentSendsAreSerialisedWithoutLossOrReordering(demand: Subscribers.Demand) {
        let sources = 4, perSource = 10_000
        let probe = SerializationCheckingSubscriber<(Int, Int), Never>(
            initialDemand: demand, demandAfterValue: demand == .unlimited ? .none : .max(1))
        TaggedRace.run(sources: sources, perSource: perSource) { ups in
            Publishers.MergeMany(ups).subscribe(probe)
        }
        #expect(TaggedRace.countsIfInOrder(probe.values, sources: sources) == Array(repeating: perSource, count: sources))
        #expect(probe.overlaps == 0)
        #expect(probe.completions.count == 1)
        #expect(probe.eventsAfterCompletion == 0)
    }

    /// Mastering iOS 14 ch. 13 (its example, reconstructed): merging odd and even subjects gives
    /// single values in send order.
    @Test func bookOddAndEvenSubjects() {
        let odd = PassthroughSubject<Int, Never>(), even = PassthroughSubject<Int, Never>()
        var printed: [Int] = []
        let cancellable = odd.merge(with: even).sink { printed.append($0) }
        for value in 1...6 { (value.isMultiple(of: 2) ? even : odd).send(value) }
        #expect(printed == [1, 2, 3, 4, 5, 6])
        cancellable.cancel()
    }

    /// Kodeco ch. 14's `mergedStories(ids:)`: folding `merge(with:)` over type-erased publishers,
    /// then finishing once every story publisher has finished.
    @Test func bookReduceOfMergePattern() {
        struct Story: Equatable { let id: Int }
        func story(id: Int) -> AnyPublisher<Story, any Error> {
            Just(Story(id: id)).setFailureType(to: (any Error).self).eraseToAnyPublisher()
        }
        func mergedStories(ids storyIDs: [Int]) -> AnyPublisher<Story, any Error> {
            precondition(!storyIDs.isEmpty)
            let initialPublisher = story(id: storyIDs[0])
            let remainder = Array(storyIDs.dropFirst())
            return remainder.reduce(initialPublisher) { combined, id in
                combined.merge(with: story(id: id)).eraseToAnyPublisher()
            }
        }
        var stories: [Story] = []
        var completion: String?
        let cancellable = mergedStories(ids: [1000, 1001, 1002])
            .sink(receiveCompletion: { completion = "\($0)" }, receiveValue: { stories.append($0) })
        #expect(stories == [Story(id: 1000), Story(id: 1001), Story(id: 1002)])
        #expect(completion == "finished")
        cancellable.cancel()
    }

    @Test func cancelFromReceiveSubscriptionCancelsEachUpstreamAsItArrives() {
        let a = Upstream(), b = Upstream()
        a.merge(with: b).subscribe(AnySubscriber<Int, TestError>(receiveSubscription: { $0.cancel() }))
        #expect(a.calls == [.cancel])
        #expect(b.calls == [.cancel])
    }
}

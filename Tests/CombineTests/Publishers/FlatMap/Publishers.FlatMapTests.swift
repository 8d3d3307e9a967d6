import Combine
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Publishers.FlatMap", .tags(.concurrency))
struct FlatMapTests {
    enum TestError: Error, Equatable { case boom, bang }
    typealias Inner = TestUpstream<Int, TestError>

    @Test func republishesInnerValuesAndAbsorbsInnerCompletions() {
        var received: [Int] = []
        var completion: Subscribers.Completion<Never>?
        let cancellable = [1, 2, 3].publisher
            .flatMap { Just($0 * 10) }
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
        #expect(received == [10, 20, 30])
        #expect(completion == .finished)
        cancellable.cancel()
    }

    @Test func finishesOnlyAfterUpstreamAndEveryInner() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner(), Inner()]
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.flatMap { inners[$0] }.subscribe(tracker)
        #expect(tracker.events.first?.description == "subscription(FlatMap)")
        #expect(outer.calls == [.request(.unlimited)])
        outer.send(0)
        outer.send(1)
        #expect(inners[0].calls == [.request(.unlimited)])
        inners[1].send(1)
        inners[0].send(2)
        inners[0].send(completion: .finished)
        inners[1].send(3)
        outer.send(completion: .finished)
        #expect(tracker.completions.isEmpty)
        inners[1].send(completion: .finished)
        #expect(tracker.events.dropFirst() == [.value(1), .value(2), .value(3), .completion(.finished)])
        #expect(outer.calls == [.request(.unlimited)], "no extra request when maxPublishers is unlimited")
    }

    @Test func maxPublishersOneConcatenates() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner(), Inner(), Inner()]
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.flatMap(maxPublishers: .max(1)) { inners[$0] }.subscribe(tracker)
        #expect(outer.calls == [.request(.max(1))])
        outer.send(0)
        inners[0].send(1)
        inners[0].send(2)
        #expect(outer.calls == [.request(.max(1))])
        inners[0].send(completion: .finished)
        #expect(outer.calls == [.request(.max(1)), .request(.max(1))])
        outer.send(1)
        inners[1].send(3)
        outer.send(completion: .finished)
        inners[1].send(completion: .finished)
        #expect(tracker.values == [1, 2, 3])
        #expect(tracker.completions == [.finished])
        #expect(outer.calls == [.request(.max(1)), .request(.max(1))], "no request after the upstream finished")
    }

    /// §2d: with a finite `maxPublishers`, every `finished` from an inner asks the upstream for
    /// one more publisher, even a repeated one from an inner that already finished, sent from
    /// inside the upstream's `request` (Apple's operator does not filter them).
    @Test func everyInnerFinishedAsksTheUpstreamForOneMore() {
        let inner = Inner()
        let upstream = FinishingOnRequestUpstream(repeats: 3) { inner.send(completion: .finished) }
        let tracker = TrackingSubscriber<Int, TestError>()
        upstream.flatMap(maxPublishers: .max(1)) { _ in inner }.subscribe(tracker)
        #expect(upstream.requests == [.max(1)])
        upstream.send(0)
        inner.send(1)
        inner.send(completion: .finished)
        // The first finished asks for one; each of the three repeated inside that request asks again.
        #expect(upstream.requests == Array(repeating: .max(1), count: 5))
        #expect(tracker.values == [1])
        #expect(tracker.completions.isEmpty)
    }

    @Test func maxPublishersBoundsConcurrentInners() {
        // The book's test_flatMapWithMax2Publishers, with an upstream that honours demand.
        let intSubject1 = PassthroughSubject<Int, Never>()
        let intSubject2 = PassthroughSubject<Int, Never>()
        let intSubject3 = PassthroughSubject<Int, Never>()
        let publisher = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        var results: [Int] = []
        let cancellable = publisher
            .flatMap(maxPublishers: .max(2)) { $0 }
            .sink { results.append($0) }
        publisher.send(intSubject1)
        intSubject1.send(1)
        publisher.send(intSubject2)
        intSubject2.send(2)
        publisher.send(intSubject3)  // no demand for a third publisher: dropped by the subject
        intSubject3.send(3)
        intSubject2.send(4)
        publisher.send(completion: .finished)
        #expect(results == [1, 2, 4])
        cancellable.cancel()
    }

    /// Spec §13 rules 2–4: each inner is asked for one value at a time, whatever the subscriber's
    /// demand; a value delivered at once asks for the next through its return value, a buffered
    /// one through a request once it has been delivered.
    @Test func innersAreAskedForOneValueAtATime() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner(), Inner()]
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(2))
        outer.flatMap { inners[$0] }.subscribe(tracker)
        outer.send(0)
        #expect(inners[0].calls == [.request(.max(1))])
        #expect(inners[0].send(1) == .max(1))
        outer.send(1)
        #expect(inners[1].calls == [.request(.max(1))])
        #expect(inners[1].send(2) == .max(1))
        #expect(inners[0].send(3) == .none, "no demand left: buffered")
        #expect(tracker.values == [1, 2])
        tracker.request(.max(1))
        #expect(tracker.values == [1, 2, 3])
        #expect(inners[0].calls == [.request(.max(1)), .request(.max(1))])
        #expect(inners[1].calls == [.request(.max(1))])
        tracker.request(.unlimited)
        #expect(inners[0].calls.last == .request(.unlimited))
        #expect(inners[1].calls.last == .request(.unlimited))
        #expect(inners[1].send(4) == .none)
    }

    /// Spec §13 rule 2: a zero demand still asks a new inner for one value, which is buffered.
    @Test func zeroDemandStillAsksEachInnerForOne() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inner = Inner()
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
        outer.flatMap { _ in inner }.subscribe(tracker)
        outer.send(0)
        #expect(inner.calls == [.request(.max(1))])
        #expect(inner.send(1) == .none)
        #expect(tracker.values.isEmpty)
        tracker.request(.max(1))
        #expect(tracker.values == [1])
        #expect(inner.calls == [.request(.max(1)), .request(.max(1))])
    }

    /// Spec §13 rule 4: values an inner sends synchronously while being asked for one more are
    /// buffered, not delivered inside that request.
    @Test func valuesSentDuringTheRequestForOneMoreAreBuffered() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inner = Inner()
        var requests = 0
        var returned: Subscribers.Demand?
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil, demandAfterValue: { _ in .max(1) })
        outer.flatMap { _ in SendingOnRequest(inner: inner, onRequest: {
            requests += 1
            if requests == 2 { returned = inner.send(2) }  // inside the request for one more after value 1
        }) }.subscribe(tracker)
        outer.send(0)
        inner.send(1)
        tracker.request(.max(1))
        #expect(returned == Subscribers.Demand.none, "buffered: delivered after the request returned")
        #expect(tracker.values == [1, 2])
    }

    /// Spec §8 and §7: an upstream that finishes before its subscription finishes the flat map.
    @Test func upstreamCompletionBeforeItsSubscriptionIsForwarded() {
        let outer = LateSubscriptionUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.flatMap { _ in Inner() }.subscribe(tracker)
        outer.send(completion: .finished)
        #expect(tracker.events == [.subscription("FlatMap"), .completion(.finished)])
    }

    /// Spec §28: the subscription is also the upstream's subscriber, with no mirror children;
    /// an inner subscriber names its parent.
    @Test func shapes() throws {
        let outer = LateSubscriptionUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<Int, TestError>()
        var innerSubscriber: Any?
        outer.flatMap { _ in InnerCapture { innerSubscriber = $0 } }.subscribe(tracker)
        let subscription = try #require(tracker.subscription)
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        outer.send(subscription: RecordingSubscription())
        outer.send(1)
        let inner = try #require(innerSubscriber)
        let children = Mirror(reflecting: inner).children
        #expect(children.map(\.label) == ["parentSubscription"])
        #expect(children.first?.value as? CombineIdentifier == subscription.combineIdentifier)
        #expect(String(describing: inner) == "FlatMap")
    }

    /// Spec §13 rule 5: the flat map finishes only when no inner is active or pending. An inner
    /// that finishes before its subscription is still pending; a second subscription of one inner
    /// replaces the first without cancelling it.
    @Test func completionWaitsForEveryPendingInner() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inner = LateSubscriptionUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.flatMap { _ in inner }.subscribe(tracker)
        outer.send(0)
        outer.send(completion: .finished)
        inner.send(completion: .finished)
        #expect(tracker.completions.isEmpty, "the inner's subscription has not arrived")
        let late = RecordingSubscription()
        inner.send(subscription: late)
        #expect(late.requests == [.unlimited])
        inner.send(completion: .finished)
        #expect(tracker.completions == [.finished])

        // Two arrivals for one inner: the second replaces the first, uncancelled, and Apple's
        // test after a request then finds nothing left.
        let outer2 = TestUpstream<Int, TestError>(name: "Outer")
        let inner2 = LateSubscriptionUpstream<Int, TestError>()
        let tracker2 = TrackingSubscriber<Int, TestError>(initialDemand: nil)
        outer2.flatMap { _ in inner2 }.subscribe(tracker2)
        outer2.send(0)
        outer2.send(completion: .finished)
        let first = RecordingSubscription(), second = RecordingSubscription()
        inner2.send(subscription: first)
        inner2.send(subscription: second)
        #expect(first.requests == [.max(1)] && first.cancelCount == 0)
        #expect(second.requests == [.max(1)])
        #expect(tracker2.completions.isEmpty)
        tracker2.request(.max(1))
        #expect(tracker2.completions == [.finished])
    }

    @Test func zeroRequestTrapsEvenAfterACancel() async {
        // Spec §11: Apple checks the demand before anything else.
        await #expect(processExitsWith: .failure) {
            let tracker = TrackingSubscriber<Int, Never>()
            Empty<Int, Never>(completeImmediately: false).flatMap { Just($0) }.subscribe(tracker)
            tracker.cancel()
            tracker.subscription?.request(.none)
        }
    }

    @Test func innerFailureFailsAndCancelsEverythingElse() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner(), Inner()]
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.flatMap { inners[$0] }.subscribe(tracker)
        outer.send(0)
        outer.send(1)
        inners[0].send(completion: .failure(.boom))
        inners[1].send(5)
        #expect(tracker.events.dropFirst() == [.completion(.failure(.boom))])
        // Spec §13 rule 6: the other inners are cancelled, not the failing one, not the upstream.
        #expect(outer.calls == [.request(.unlimited)])
        #expect(inners[0].calls == [.request(.unlimited)])
        #expect(inners[1].calls == [.request(.unlimited), .cancel])
    }

    @Test func upstreamFailureFailsAndCancelsInners() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner()]
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.flatMap { inners[$0] }.subscribe(tracker)
        outer.send(0)
        outer.send(completion: .failure(.bang))
        inners[0].send(1)
        #expect(tracker.events.dropFirst() == [.completion(.failure(.bang))])
        #expect(inners[0].calls == [.request(.unlimited), .cancel])
        #expect(outer.calls == [.request(.unlimited)])
    }

    @Test func cancelReachesUpstreamAndEveryInnerAndReleases() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner(), Inner()]
        weak var weakTracker: TrackingSubscriber<Int, TestError>?
        do {
            let tracker = TrackingSubscriber<Int, TestError>()
            weakTracker = tracker
            outer.flatMap { inners[$0] }.subscribe(tracker)
            outer.send(0)
            outer.send(1)
            tracker.cancel()
            inners[0].send(1)
            outer.send(0)
            #expect(tracker.values.isEmpty)
        }
        #expect(outer.calls == [.request(.unlimited), .cancel])
        #expect(inners[0].calls == [.request(.unlimited), .cancel])
        #expect(inners[1].calls == [.request(.unlimited), .cancel])
        #expect(weakTracker == nil)

        weak var weakSubscription: AnyObject?
        let subject = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        do {
            let tracker = TrackingSubscriber<Int, Never>()
            subject.flatMap { _ in inner }.subscribe(tracker)
            subject.send(1)
            weakSubscription = tracker.subscription as AnyObject
            tracker.cancel()
        }
        #expect(weakSubscription == nil)
    }

    /// A value an inner sends from inside the subscriber, on the delivering thread, is delivered
    /// at once, nested in the delivery in progress, as Apple's `flatMap` does.
    @Test func reentrantSendIsDeliveredNested() {
        let outer = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        var received: [String] = []
        let cancellable = outer.flatMap { _ in inner }.sink { value in
            received.append("\(value)")
            if value == 1 { inner.send(2) }
            received.append("end \(value)")
        }
        outer.send(0)
        inner.send(1)
        #expect(received == ["1", "2", "end 2", "end 1"])
        cancellable.cancel()
    }

    /// §30: while inner A's value is delivered, inner B sends from inside the subscriber: its
    /// value is delivered nested, and B gets back from `receive` what a value delivered at once
    /// returns (`max(1)`, `none` with unlimited demand), so it is never asked through a separate
    /// `request`.
    @Test(arguments: [Subscribers.Demand.max(3), .unlimited])
    func anotherInnersValueFromInsideTheSubscriberIsDeliveredNested(demand: Subscribers.Demand) {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner(), Inner()]
        var log: [String] = []
        var returnedToB: Subscribers.Demand?
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: demand, onValue: { value in
            log.append("enter \(value)")
            if value == 1 { returnedToB = inners[1].send(2) }
            log.append("exit \(value)")
        })
        outer.flatMap { inners[$0] }.subscribe(tracker)
        outer.send(0)
        outer.send(1)
        let oneMore: Subscribers.Demand = demand == .unlimited ? .none : .max(1)
        let firstRequest: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
        #expect(inners[0].send(1) == oneMore)
        #expect(log == ["enter 1", "enter 2", "exit 2", "exit 1"])
        #expect(returnedToB == oneMore)
        #expect(inners[1].calls == [.request(firstRequest)])
        #expect(inners[0].calls == [.request(firstRequest)])
        guard demand != .unlimited else { return }
        // One unit of demand left: the next value goes out at once too.
        #expect(inners[1].send(3) == .max(1))
        #expect(inners[0].send(4) == .none, "no demand left: queued")
        #expect(tracker.values == [1, 2, 3])
    }

    /// Apple's rule while a request drains the queue: a nested value goes out at once when demand
    /// is left, ahead of the values still queued; the drain stops when the demand is spent.
    @Test func aNestedValueDuringTheDrainGoesAheadOfTheQueue() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = [Inner(), Inner()]
        var returnedToB: Subscribers.Demand?
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil, onValue: { value in
            if value == 1 { returnedToB = inners[1].send(3) }
        })
        outer.flatMap { inners[$0] }.subscribe(tracker)
        outer.send(0)
        outer.send(1)
        inners[0].send(1)
        inners[0].send(2)
        tracker.request(.max(2))
        #expect(tracker.values == [1, 3])
        #expect(returnedToB == .max(1))
        #expect(inners[0].calls == [.request(.max(1)), .request(.max(1))])
        tracker.request(.max(1))
        #expect(tracker.values == [1, 3, 2])
    }

    @Test func concurrentInnerSendsAreSerialised() {
        let sources = 4, perSource = 10_000
        let probe = SerializationCheckingSubscriber<(Int, Int), Never>()
        TaggedRace.run(sources: sources, perSource: perSource) { inners in
            (0..<sources).publisher.flatMap { inners[$0] }.subscribe(probe)
        }
        #expect(TaggedRace.countsIfInOrder(probe.values, sources: sources) == Array(repeating: perSource, count: sources))
        #expect(probe.overlaps == 0)
        #expect(probe.completions.count == 1)
        #expect(probe.eventsAfterCompletion == 0)
    }

    /// Inner values handed straight to the subscriber by their own thread, racing with values
    /// that must queue: nothing is lost, duplicated or delivered concurrently, and once the race
    /// is over a lone value still goes through (nobody is left marked as emitting).
    @Test(arguments: [Subscribers.Demand.unlimited, .max(3)])
    func directDeliveriesRacingWithQueuedValues(initialDemand: Subscribers.Demand) {
        let sources = 4, perSource = 5_000
        let inners = (0..<sources).map { _ in TestUpstream<(Int, Int), Never>() }
        let demandAfterValue: Subscribers.Demand = initialDemand == .unlimited ? .none : .max(1)
        let probe = SerializationCheckingSubscriber<(Int, Int), Never>(
            initialDemand: initialDemand, demandAfterValue: demandAfterValue)
        (0..<sources).publisher.flatMap { inners[$0] }.subscribe(probe)
        onThreadsBlocking(sources) { source in
            for index in 0..<perSource { inners[source].send((source, index)) }
        }
        #expect(probe.values.count == sources * perSource)
        for source in 0..<sources { inners[source].send((source, perSource)) }
        let values = probe.values
        #expect(values.count == sources * (perSource + 1))
        var next = [Int](repeating: 0, count: sources)
        var inOrder = true
        for (source, index) in values {
            if next[source] != index { inOrder = false }
            next[source] = index + 1
        }
        #expect(inOrder)
        #expect(probe.overlaps == 0)
        for inner in inners { inner.send(completion: .finished) }
        #expect(probe.completions.count == 1)
    }

    /// The book's test_flatMapWithMax2Publishers, verbatim in substance: the upstream is a
    /// CurrentValueSubject that replays intSubject1 and honours flatMap's demand of two.
    @Test func bookTestFlatMapWithMax2Publishers() {
        let intSubject1 = PassthroughSubject<Int, Never>()
        let intSubject2 = PassthroughSubject<Int, Never>()
        let intSubject3 = PassthroughSubject<Int, Never>()
        let publisher = CurrentValueSubject<PassthroughSubject<Int, Never>, Never>(intSubject1)
        let expected = [1, 2, 4]
        var results = [Int]()
        var subscriptions = Set<AnyCancellable>()
        publisher
            .flatMap(maxPublishers: .max(2)) { $0 }
            .sink(receiveValue: { results.append($0) })
            .store(in: &subscriptions)
        intSubject1.send(1)
        publisher.send(intSubject2)
        intSubject2.send(2)
        publisher.send(intSubject3)
        intSubject3.send(3)
        intSubject2.send(4)
        publisher.send(completion: .finished)
        #expect(results == expected)
    }

    @Test func failureTypeOverloads() {
        // Upstream cannot fail, inner can: the upstream gets the inner's failure type.
        let never = PassthroughSubject<Int, Never>()
        let failingInner = PassthroughSubject<Int, TestError>()
        let a: Publishers.FlatMap<PassthroughSubject<Int, TestError>, Publishers.SetFailureType<PassthroughSubject<Int, Never>, TestError>> =
            never.flatMap { _ in failingInner }
        // Upstream can fail, inner cannot: each inner gets the upstream's failure type.
        let failing = PassthroughSubject<Int, TestError>()
        let b: Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, TestError>, PassthroughSubject<Int, TestError>> =
            failing.flatMap { Just($0 * 2) }
        // Neither can fail.
        let c: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> = never.flatMap(maxPublishers: .max(1)) { Just($0 + 1) }
        #expect(c.maxPublishers == .max(1))

        let ta = TrackingSubscriber<Int, TestError>(), tb = TrackingSubscriber<Int, TestError>(), tc = TrackingSubscriber<Int, Never>()
        a.subscribe(ta)
        b.subscribe(tb)
        c.subscribe(tc)
        never.send(1)
        failingInner.send(5)
        failingInner.send(completion: .failure(.boom))
        failing.send(3)
        failing.send(completion: .failure(.bang))
        #expect(ta.events.dropFirst() == [.value(5), .completion(.failure(.boom))])
        #expect(tb.events.dropFirst() == [.value(6), .completion(.failure(.bang))])
        #expect(tc.values == [2])
    }

    @Test func cancelFromReceiveSubscriptionRequestsNothing() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        outer.flatMap(maxPublishers: .max(3)) { _ in Inner() }
            .subscribe(AnySubscriber<Int, TestError>(receiveSubscription: { $0.cancel() }))
        #expect(outer.calls == [.cancel])
    }

    // MARK: The lock-free emitter role

    /// Values queued under finite demand drain in order once the subscriber asks for unlimited
    /// demand; after that, values take the lock-free path, and one sent from inside the
    /// subscriber is delivered nested in the current call, as Apple's operator delivers it.
    @Test func unlimitedDemandAfterQueuedValuesSwitchesToDirectDelivery() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inner = Inner()
        var log: [String] = []
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { value in
            log.append("enter \(value)")
            if value == 4 { inner.send(5) }
            log.append("exit \(value)")
        })
        outer.flatMap { _ in inner }.subscribe(tracker)
        outer.send(0)
        inner.send(1)
        inner.send(2)
        inner.send(3)
        #expect(tracker.values == [1])
        tracker.request(.unlimited)
        #expect(tracker.values == [1, 2, 3])
        #expect(inner.calls == [.request(.max(1)), .request(.unlimited)])
        inner.send(4)
        #expect(tracker.values == [1, 2, 3, 4, 5])
        #expect(log == ["enter 1", "exit 1", "enter 2", "exit 2", "enter 3", "exit 3", "enter 4", "enter 5", "exit 5", "exit 4"])
        inner.send(completion: .finished)
        outer.send(completion: .finished)
        #expect(tracker.completions == [.finished])
    }

    /// A subscriber that asks for one more value from inside `receive(_:)`, through its
    /// subscription: each request tops the inner up by one, and delivery never nests.
    @Test func reentrantRequestFromInsideTheSubscriber() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inner = Inner()
        var log: [String] = []
        var tracker: TrackingSubscriber<Int, TestError>!
        tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { value in
            log.append("enter \(value)")
            tracker.request(.max(1))
            log.append("exit \(value)")
        })
        outer.flatMap { _ in inner }.subscribe(tracker)
        outer.send(0)
        inner.send(1)
        inner.send(2)
        inner.send(3)
        #expect(tracker.values == [1, 2, 3])
        #expect(log == ["enter 1", "exit 1", "enter 2", "exit 2", "enter 3", "exit 3"])
        // Each value was delivered at once and asked for the next through its return value.
        #expect(inner.calls == [.request(.max(1))])
        // Requests arriving while values wait: the reentrant request delivers the next queued
        // value after the current call returns.
        let queued = TrackingSubscriber<Int, TestError>(initialDemand: nil)
        let secondInner = Inner()
        outer.flatMap { _ in secondInner }.subscribe(queued)
        outer.send(0)
        secondInner.send(7)
        secondInner.send(8)
        secondInner.send(9)
        #expect(queued.values.isEmpty)
        queued.request(.max(2))
        #expect(queued.values == [7, 8])
        queued.request(.max(5))
        #expect(queued.values == [7, 8, 9])
        secondInner.send(10)
        #expect(queued.values == [7, 8, 9, 10])
        tracker.cancel()
        queued.cancel()
    }

    /// Several inners sending and finishing on their own threads, with unlimited demand and with
    /// demand given one value at a time: every value arrives once, in each inner's order, never
    /// overlapping, and the single completion comes after all of them.
    @Test(arguments: [Subscribers.Demand.unlimited, .max(1)])
    func concurrentInnersFinishing(initialDemand: Subscribers.Demand) {
        let sources = 4, perSource = 5_000
        let demandAfterValue: Subscribers.Demand = initialDemand == .unlimited ? .none : .max(1)
        let probe = SerializationCheckingSubscriber<(Int, Int), Never>(
            initialDemand: initialDemand, demandAfterValue: demandAfterValue)
        TaggedRace.run(sources: sources, perSource: perSource) { inners in
            (0..<sources).publisher.flatMap { inners[$0] }.subscribe(probe)
        }
        #expect(TaggedRace.countsIfInOrder(probe.values, sources: sources) == Array(repeating: perSource, count: sources))
        #expect(probe.overlaps == 0)
        #expect(probe.completions.count == 1)
        #expect(probe.eventsAfterCompletion == 0)
    }

    /// An inner failing on one thread while others deliver on theirs: one failure, nothing after
    /// it, no overlap, and later values are dropped.
    @Test func failureRacingWithDirectDeliveries() {
        for _ in 0..<50 {
            let sources = 3
            let inners = (0..<sources + 1).map { _ in TestUpstream<Int, TestError>() }
            let probe = SerializationCheckingSubscriber<Int, TestError>()
            (0..<sources + 1).publisher.setFailureType(to: TestError.self).flatMap { inners[$0] }.subscribe(probe)
            onThreadsBlocking(sources + 1) { source in
                if source == sources {
                    inners[source].send(completion: .failure(.boom))
                } else {
                    for index in 0..<300 { inners[source].send(index) }
                }
            }
            let count = probe.values.count
            for inner in inners { inner.send(-1) }
            #expect(probe.values.count == count)
            #expect(probe.completions.count == 1)
            #expect(probe.eventsAfterCompletion == 0)
            #expect(probe.overlaps == 0)
            for inner in inners.prefix(sources) { #expect(inner.calls.last == .cancel) }
        }
    }

    /// Cancelling from another thread while inners deliver directly: nothing arrives after the
    /// race, and the subscriber is released even though the inners still hold the operator.
    @Test func cancelRacingWithDirectDeliveriesReleasesTheSubscriber() {
        for _ in 0..<50 {
            let sources = 3
            let inners = (0..<sources).map { _ in TestUpstream<Int, Never>() }
            weak var weakProbe: SerializationCheckingSubscriber<Int, Never>?
            do {
                let probe = SerializationCheckingSubscriber<Int, Never>()
                weakProbe = probe
                (0..<sources).publisher.flatMap { inners[$0] }.subscribe(probe)
                let subscription = UncheckedBox(probe.subscription)
                onThreadsBlocking(sources + 1) { source in
                    if source == sources {
                        subscription.value?.cancel()
                    } else {
                        for index in 0..<300 { inners[source].send(index) }
                    }
                }
                let count = probe.values.count
                for inner in inners { inner.send(-1) }
                #expect(probe.values.count == count)
                #expect(probe.overlaps == 0)
                #expect(probe.completions.isEmpty)
            }
            #expect(weakProbe == nil)
            for inner in inners { #expect(inner.calls.last == .cancel) }
        }
    }

    /// Cancelling from inside `receive(_:)` during a direct delivery: later values are dropped,
    /// and the subscriber is released once that call returns.
    @Test func cancelFromInsideADirectDelivery() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inner = Inner()
        weak var weakTracker: TrackingSubscriber<Int, TestError>?
        do {
            var tracker: TrackingSubscriber<Int, TestError>!
            tracker = TrackingSubscriber<Int, TestError>(onValue: { value in
                if value == 2 { tracker.cancel() }
            })
            weakTracker = tracker
            outer.flatMap { _ in inner }.subscribe(tracker)
            outer.send(0)
            inner.send(1)
            inner.send(2)
            inner.send(3)
            #expect(tracker.values == [1, 2])
            tracker = nil
        }
        #expect(weakTracker == nil)
        #expect(inner.calls == [.request(.unlimited), .cancel])
        #expect(outer.calls == [.request(.unlimited), .cancel])
    }

    /// A subscriber that keeps its subscription after the flat map finishes is not kept alive by
    /// it: the operator lets go of its subscriber on completion.
    @Test func completionReleasesASubscriberThatKeepsItsSubscription() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inner = Inner()
        weak var weakTracker: TrackingSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let tracker = TrackingSubscriber<Int, TestError>()
            weakTracker = tracker
            outer.flatMap { _ in inner }.subscribe(tracker)
            outer.send(0)
            inner.send(1)
            inner.send(completion: .finished)
            outer.send(completion: .finished)
            #expect(tracker.events.dropFirst() == [.value(1), .completion(.finished)])
            subscription = tracker.subscription
        }
        #expect(weakTracker == nil)
        #expect(subscription != nil)
    }

    /// Slots of finished inners are reused by later ones; values a finished inner still sends are
    /// not mistaken for those of the inner now in its slot (demand is finite here, so every value
    /// is checked against its slot).
    @Test func reusedSlotsKeepInnersApart() {
        let outer = TestUpstream<Int, TestError>(name: "Outer")
        let inners = (0..<5).map { _ in Inner() }
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(100))
        outer.flatMap { inners[$0] }.subscribe(tracker)
        outer.send(0)
        outer.send(1)
        outer.send(2)
        inners[1].send(completion: .finished)
        inners[0].send(completion: .finished)
        outer.send(3)  // reuses the slot inner 0 left
        outer.send(4)  // reuses the slot inner 1 left
        inners[0].send(-1)
        inners[1].send(-1)
        inners[3].send(3)
        inners[4].send(4)
        inners[2].send(2)
        #expect(tracker.values == [3, 4, 2])
        #expect(inners[3].calls == [.request(.max(1))])
        inners[3].send(completion: .finished)
        outer.send(completion: .finished)
        inners[2].send(completion: .finished)
        #expect(tracker.completions.isEmpty)
        inners[4].send(completion: .finished)
        #expect(tracker.completions == [.finished])
    }

    /// Apple's order (edge spec §7, §8): the subscriber gets the subscription inside `subscribe`,
    /// before the upstream's arrives; a value sent before it is ignored; then the upstream is asked
    /// for `maxPublishers`.
    @Test func subscriptionGoesDownstreamBeforeTheUpstreamSubscribes() {
        let subscription = RecordingSubscription()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        var transformed: [Int] = []
        upstream.flatMap(maxPublishers: .max(2)) { value -> Just<Int> in
            transformed.append(value)
            return Just(value)
        }.subscribe(tracker)
        #expect(tracker.events == [.subscription("FlatMap")])
        upstream.send(1)
        #expect(transformed.isEmpty)
        upstream.send(subscription: subscription)
        #expect(subscription.requests == [.max(2)])
        upstream.send(2)
        #expect(tracker.values == [2])
    }

    /// A cancel before the upstream's subscription arrives is remembered: the late subscription is
    /// cancelled, nothing is requested.
    @Test func cancelBeforeTheUpstreamSubscribes() {
        let subscription = RecordingSubscription()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.flatMap { Just($0) }.subscribe(tracker)
        tracker.subscription?.cancel()
        upstream.send(subscription: subscription)
        #expect(subscription.requests.isEmpty)
        #expect(subscription.isCancelled)
    }
}

/// Subscribes its subscriber to `inner`, and calls `onRequest` before passing each request on.
private struct SendingOnRequest: Publisher {
    typealias Output = Int
    typealias Failure = FlatMapTests.TestError
    let inner: TestUpstream<Int, FlatMapTests.TestError>
    let onRequest: () -> Void

    private final class Hook: Subscription {
        let upstream: any Subscription
        let onRequest: () -> Void
        init(upstream: any Subscription, onRequest: @escaping () -> Void) {
            self.upstream = upstream
            self.onRequest = onRequest
        }
        func request(_ demand: Subscribers.Demand) {
            upstream.request(demand)
            onRequest()
        }
        func cancel() { upstream.cancel() }
    }

    private struct Relay<Downstream: Subscriber>: Subscriber where Downstream.Input == Int, Downstream.Failure == Failure {
        let downstream: Downstream
        let onRequest: () -> Void
        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: Hook(upstream: subscription, onRequest: onRequest))
        }
        func receive(_ input: Int) -> Subscribers.Demand { downstream.receive(input) }
        func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        inner.receive(subscriber: Relay(downstream: subscriber, onRequest: onRequest))
    }
}

/// Hands the very subscriber attached to it to `capture`, unwrapped; sends nothing.
private struct InnerCapture: Publisher {
    typealias Output = Int
    typealias Failure = FlatMapTests.TestError
    let capture: (Any) -> Void
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        capture(subscriber)
    }
}

/// An upstream of `Int`s for `flatMap` whose `request(_:)` runs `onRequest` (an inner finishing
/// again) from the second request on, `repeats` times in all, nested in one another.
private final class FinishingOnRequestUpstream: Publisher, Subscription {
    typealias Output = Int
    typealias Failure = FlatMapTests.TestError

    private var subscriber: AnySubscriber<Int, Failure>?
    private var remaining: Int
    private let onRequest: () -> Void
    private(set) var requests: [Subscribers.Demand] = []

    init(repeats: Int, onRequest: @escaping () -> Void) {
        remaining = repeats
        self.onRequest = onRequest
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: self)
    }

    func send(_ value: Int) { _ = subscriber?.receive(value) }

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
        guard requests.count > 1, remaining > 0 else { return }
        remaining -= 1
        onRequest()
    }

    func cancel() { subscriber = nil }
}

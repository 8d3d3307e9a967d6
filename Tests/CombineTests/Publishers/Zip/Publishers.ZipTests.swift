import Combine
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Publishers.Zip", .tags(.concurrency))
struct ZipTests {
    enum TestError: Error, Equatable { case boom }

    /// The subscription's mirror shows its demand and nothing of the machinery it is built on, as
    /// Apple's does.
    @Test func theSubscriptionsMirrorShowsOnlyItsDemand() throws {
        let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: nil)
        PassthroughSubject<Int, Never>().zip(PassthroughSubject<Int, Never>()).subscribe(tracker)
        let subscription = try #require(tracker.subscription)
        subscription.request(.max(2))
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["demand"])
        #expect(mirror.children.first?.value as? Subscribers.Demand == .max(2))
        #expect(mirror.superclassMirror == nil)
        var dumped = ""
        dump(subscription, to: &dumped)
        #expect(!dumped.contains("super"))
        subscription.cancel()
    }

    /// Mastering iOS 14 ch. 13 (its example, reconstructed): the oldest unpaired values are paired.
    @Test func bookExamplePairsOldestValues() {
        let chars = PassthroughSubject<String, Never>()
        let numbers = PassthroughSubject<Int, Never>()
        var printed: [String] = []
        let cancellable = chars.zip(numbers).sink { printed.append("Result: \($0).") }
        chars.send("a")
        numbers.send(1)
        numbers.send(2)
        chars.send("b")
        chars.send("c")
        chars.send("d")
        numbers.send(3)
        numbers.send(10)
        #expect(printed == [
            #"Result: ("a", 1)."#, #"Result: ("b", 2)."#, #"Result: ("c", 3)."#, #"Result: ("d", 10)."#,
        ])
        cancellable.cancel()
    }

    @Test func finishesWhenAFinishedUpstreamHasNothingLeftToPair() {
        var received: [String] = []
        var completion: Subscribers.Completion<Never>?
        let cancellable = [1, 2, 3].publisher.zip(["a", "b"].publisher)
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append("\($0)") })
        #expect(received == [#"(1, "a")"#, #"(2, "b")"#])
        #expect(completion == .finished)
        cancellable.cancel()

        let a = TestUpstream<Int, TestError>(), b = TestUpstream<String, TestError>()
        let tracker = TrackingSubscriber<(Int, String), TestError>()
        a.zip(b).subscribe(tracker)
        #expect(tracker.events.first?.description == "subscription(Zip)")
        a.send(1)
        a.send(2)
        a.send(completion: .finished)  // two values still to pair: not finished yet
        #expect(tracker.completions.isEmpty)
        b.send("x")
        #expect(tracker.completions.isEmpty)
        b.send("y")
        #expect(tracker.values.map { "\($0)" } == [#"(1, "x")"#, #"(2, "y")"#])
        #expect(tracker.completions == [.finished])
        #expect(b.calls == [.request(.unlimited), .cancel])
        #expect(a.calls == [.request(.unlimited)])
    }

    @Test func finishesAtOnceWhenAnUpstreamFinishesWithNothingBuffered() {
        let a = TestUpstream<Int, TestError>(), b = TestUpstream<Int, TestError>(), c = TestUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<(Int, Int, Int), TestError>()
        a.zip(b, c).subscribe(tracker)
        a.send(1)
        b.send(1)
        c.send(completion: .finished)
        #expect(tracker.values.isEmpty)
        #expect(tracker.completions == [.finished])
        #expect(a.calls == [.request(.unlimited), .cancel])
        #expect(b.calls == [.request(.unlimited), .cancel])
        #expect(c.calls == [.request(.unlimited)])
    }

    /// Apple's order: every upstream is cancelled, the failed one included, and only then does the
    /// subscriber hear of the failure; values still waiting for a partner are dropped.
    @Test func failureCancelsEveryUpstreamThenIsDelivered() {
        let a = TestUpstream<Int, TestError>(), b = TestUpstream<Int, TestError>(), c = TestUpstream<Int, TestError>()
        var log: [String] = []
        a.zip(b, c).subscribe(AnySubscriber<(Int, Int, Int), TestError>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { log.append("value \($0)"); return .none },
            receiveCompletion: { _ in
                log.append("failure; cancelled: a \(a.isCancelled), b \(b.isCancelled), c \(c.isCancelled)")
            }))
        a.send(1)
        b.send(1)
        c.send(1)
        a.send(2)
        b.send(completion: .failure(.boom))
        a.send(3)
        c.send(3)
        #expect(log == ["value (1, 1, 1)", "failure; cancelled: a true, b true, c true"])
        #expect(a.calls == [.request(.max(1)), .cancel])
        #expect(b.calls == [.request(.max(1)), .cancel])
        #expect(c.calls == [.request(.max(1)), .cancel])
    }

    /// Apple's zip does not hold a tuple back for demand: upstreams were asked only for what the
    /// subscriber requested, so a complete tuple goes out at once.
    @Test func tupleGoesOutAtZeroDemand() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<String, Never>()
        let tracker = TrackingSubscriber<(Int, String), Never>(initialDemand: .max(1))
        a.zip(b).subscribe(tracker)
        a.send(1)
        a.send(2)
        b.send("x")
        b.send("y")
        #expect(tracker.values.map { "\($0)" } == [#"(1, "x")"#, #"(2, "y")"#])

        let idle = TrackingSubscriber<(Int, String), Never>(initialDemand: nil)
        let c = TestUpstream<Int, Never>(), d = TestUpstream<String, Never>()
        c.zip(d).subscribe(idle)
        c.send(1)
        d.send("x")
        #expect(idle.values.map { "\($0)" } == [#"(1, "x")"#])
        #expect(c.calls.isEmpty)
        #expect(d.calls.isEmpty)
    }

    /// Each request goes to every upstream as it is, however much was requested before.
    @Test func everyRequestReachesEveryUpstreamAsItIs() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<String, Never>()
        let tracker = TrackingSubscriber<(Int, String), Never>(initialDemand: .max(1))
        a.zip(b).subscribe(tracker)
        tracker.request(.unlimited)
        tracker.request(.max(2))
        tracker.request(.unlimited)
        let expected: [TestUpstream<Int, Never>.Call] = [.request(.max(1)), .request(.unlimited), .request(.max(2)), .request(.unlimited)]
        #expect(a.calls == expected)
        #expect(b.calls.map(\.description) == expected.map(\.description))
    }

    /// Requests made before an upstream's subscription arrives are added up and asked for when it
    /// does; later ones go straight through.
    @Test func requestsBeforeAnUpstreamSubscribesAreAddedUp() {
        let late = SubscriberCapturingUpstream<Int, Never>()
        let b = TestUpstream<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        late.zip(b).subscribe(tracker)
        tracker.request(.max(2))
        let subscription = RecordingSubscription()
        hand(subscription, to: late.subscriber)
        tracker.request(.max(4))
        #expect(subscription.requests == [.max(3), .max(4)])
        #expect(b.calls == [.request(.max(1)), .request(.max(2)), .request(.max(4))])
    }

    /// The subscriber's answer to a tuple goes back only through the input whose value completed
    /// it; the others return `.none`.
    @Test func answerGoesBackThroughTheCompletingInput() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>(), c = TestUpstream<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int, Int), Never>(initialDemand: .max(2), demandAfterValue: { _ in .max(3) })
        a.zip(b, c).subscribe(tracker)
        #expect(a.send(1) == .none)
        #expect(b.send(1) == .none)
        #expect(c.send(1) == .max(3))
        #expect(c.send(2) == .none)
        #expect(b.send(2) == .none)
        #expect(a.send(2) == .max(3))
        #expect(tracker.values.count == 2)
        #expect(a.calls == [.request(.max(2))])
        #expect(c.calls == [.request(.max(2))])
    }

    /// A request the subscriber makes while receiving a tuple goes to every other upstream, and
    /// the input that completed the tuple returns it with the answer.
    @Test func requestInsideReceiveJoinsTheAnswer() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        var tracker: TrackingSubscriber<(Int, Int), Never>?
        tracker = TrackingSubscriber(initialDemand: .max(1), demandAfterValue: { _ in .max(1) },
                                     onValue: { _ in tracker?.request(.max(2)) })
        a.zip(b).subscribe(tracker!)
        #expect(a.send(1) == .none)
        #expect(b.send(1) == .max(3))
        #expect(a.calls == [.request(.max(1)), .request(.max(2))])
        #expect(b.calls == [.request(.max(1))])
        // Outside a delivery, a request goes to both again.
        tracker?.request(.max(5))
        #expect(a.calls == [.request(.max(1)), .request(.max(2)), .request(.max(5))])
        #expect(b.calls == [.request(.max(1)), .request(.max(5))])
    }

    /// A tuple completed by a send from inside the subscriber goes out after the call in progress,
    /// and the nested send returns `.none`. The tuple's answer then goes to the outer call when it
    /// is the same input's, else to that input's upstream as a request.
    @Test func answersToReentrantTuples() {
        var nested: [Subscribers.Demand] = []
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        let same = TrackingSubscriber<(Int, Int), Never>(
            initialDemand: .unlimited, demandAfterValue: { _ in .max(1) },
            onValue: { pair in if pair == (1, 10) { nested.append(a.send(2)) } })
        a.zip(b).subscribe(same)
        b.send(10)
        b.send(20)
        #expect(a.send(1) == .max(2))
        #expect(same.values.map { "\($0)" } == ["(1, 10)", "(2, 20)"])
        #expect(nested == [.none])
        #expect(b.calls == [.request(.unlimited)])

        nested = []
        let c = TestUpstream<Int, Never>(), d = TestUpstream<Int, Never>()
        let other = TrackingSubscriber<(Int, Int), Never>(
            initialDemand: .unlimited, demandAfterValue: { _ in .max(1) },
            onValue: { pair in
                if pair == (1, 10) {
                    nested.append(c.send(2))
                    nested.append(d.send(20))
                }
            })
        c.zip(d).subscribe(other)
        d.send(10)
        #expect(c.send(1) == .max(1))
        #expect(other.values.map { "\($0)" } == ["(1, 10)", "(2, 20)"])
        #expect(nested == [.none, .none])
        #expect(c.calls == [.request(.unlimited)])
        #expect(d.calls == [.request(.unlimited), .request(.max(1))])
    }

    /// Like Apple's, what zip attaches to each upstream is a subscription as well as a subscriber,
    /// with no description or mirror and an identity of its own; a request or a cancel made on it
    /// goes to its own upstream.
    @Test func upstreamSubscribersAreSubscriptions() throws {
        let one = SubscriberCapturingUpstream<Int, Never>(), two = SubscriberCapturingUpstream<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        one.zip(two).subscribe(tracker)
        let first = one.subscriber, second = two.subscriber
        for side in [first, second] {
            let conformances = [
                side is any Subscription, side is any Cancellable, side is any CustomStringConvertible,
                side is any CustomReflectable, side is any CustomPlaygroundDisplayConvertible,
            ]
            #expect(conformances == [true, true, false, false, false])
        }
        let firstID = try #require(first as? any Subscription).combineIdentifier
        let secondID = try #require(second as? any Subscription).combineIdentifier
        #expect(firstID != secondID)
        let upstream1 = RecordingSubscription(), upstream2 = RecordingSubscription()
        hand(upstream1, to: first)
        hand(upstream2, to: second)
        let firstSubscription = try #require(first as? any Subscription)
        firstSubscription.request(.max(7))
        firstSubscription.cancel()
        tracker.request(.max(2))
        #expect(upstream1.requests == [.max(1), .max(7)])
        #expect(upstream1.cancelCount == 1)
        #expect(upstream2.requests == [.max(1), .max(2)])
        #expect(upstream2.cancelCount == 0)
    }

    @Test func cancelReachesEveryUpstreamAndReleases() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        weak var weakTracker: TrackingSubscriber<(Int, Int), Never>?
        do {
            let tracker = TrackingSubscriber<(Int, Int), Never>()
            weakTracker = tracker
            a.zip(b).subscribe(tracker)
            a.send(1)
            tracker.cancel()
            b.send(1)
            #expect(tracker.values.isEmpty)
            #expect(tracker.completions.isEmpty)
        }
        #expect(a.calls == [.request(.unlimited), .cancel])
        #expect(b.calls == [.request(.unlimited), .cancel])
        #expect(weakTracker == nil)

        weak var weakSubscription: AnyObject?
        let s1 = PassthroughSubject<Int, Never>(), s2 = PassthroughSubject<Int, Never>()
        do {
            let tracker = TrackingSubscriber<(Int, Int), Never>()
            s1.zip(s2).subscribe(tracker)
            weakSubscription = tracker.subscription as AnyObject
            tracker.cancel()
        }
        #expect(weakSubscription == nil)
    }

    @Test func reentrantSendIsDeliveredAfterTheCurrentValue() {
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        var received: [String] = []
        let cancellable = a.zip(b).sink { pair in
            received.append("\(pair)")
            if pair.0 == 1 { a.send(2) }
            received.append("end")
        }
        b.send(10)
        b.send(20)
        a.send(1)
        #expect(received == ["(1, 10)", "end", "(2, 20)", "end"])
        cancellable.cancel()
    }

    @Test func arities() {
        let zip4 = Just(1).zip(Just("b"), Just(3.0), Just(true))
        var out: [String] = []
        let c = zip4.sink { out.append("\($0)") }
        #expect(out == [#"(1, "b", 3.0, true)"#])
        c.cancel()
        #expect(Publishers.Zip3(Just(1), Just(2), Just(3)) == Just(1).zip(Just(2), Just(3)))
        #expect(Publishers.Zip(Just(1), Just(2)) != Publishers.Zip(Just(1), Just(3)))
    }

    @Test func concurrentSendsPairStrictly() {
        let sources = 4, perSource = 10_000
        let ups = (0..<sources).map { _ in TestUpstream<Int, Never>() }
        let probe = SerializationCheckingSubscriber<(Int, Int, Int, Int), Never>()
        Publishers.Zip4(ups[0], ups[1], ups[2], ups[3]).subscribe(probe)
        onThreadsBlocking(sources) { source in
            for index in 0..<perSource { ups[source].send(index) }
            ups[source].send(completion: .finished)
        }
        let outputs = probe.values.map { [$0.0, $0.1, $0.2, $0.3] }
        #expect(outputs == (0..<perSource).map { [Int](repeating: $0, count: sources) })
        #expect(probe.overlaps == 0)
        #expect(probe.completions.count == 1)
        #expect(probe.eventsAfterCompletion == 0)
    }

    @Test func transformOverloadsAreZipFollowedByMap() {
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>(), d = PassthroughSubject<Int, Never>()
        let two: Publishers.Map<Publishers.Zip<PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>>, Int> =
            a.zip(b) { $0 + $1 }
        let three = a.zip(b, c) { $0 + $1 + $2 }
        let four: Publishers.Map<Publishers.Zip4<PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>>, Int> =
            a.zip(b, c, d) { $0 + $1 + $2 + $3 }
        var out: [Int] = []
        let cancellables = [two.sink { out.append($0) }, three.sink { out.append($0) }, four.sink { out.append($0) }]
        a.send(1)
        b.send(10)
        c.send(100)
        d.send(1000)
        #expect(out == [11, 111, 1111])
        _ = cancellables
    }

    /// Using Combine, pattern: sequencing asynchronous operations. Step 1, then `Publishers.Zip3`
    /// of three parallel steps (Futures completed on background threads) mapped to `true`, then
    /// steps 3 and 4, each started by `flatMap`.
    @Test func bookSequencingAsyncOperations() async {
        let log = Locked<[String]>([])
        func step(_ name: String) -> AnyPublisher<Bool, any Error> {
            Future<Bool, any Error> { fulfil in
                nonisolated(unsafe) let promise = fulfil
                DispatchQueue.global().async {
                    usleep(UInt32.random(in: 100...2_000))
                    log.append(name)
                    promise(.success(true))
                }
            }
            .eraseToAnyPublisher()
        }
        var cancellable: AnyCancellable?
        let done: Bool = await withCheckedContinuation { continuation in
            cancellable = Deferred { step("1") }
                .flatMap { _ in Publishers.Zip3(step("2.1"), step("2.2"), step("2.3")).map { _ in true }.eraseToAnyPublisher() }
                .flatMap { _ in step("3") }
                .flatMap { _ in step("4") }
                .sink(receiveCompletion: { _ in continuation.resume(returning: true) }, receiveValue: { _ in })
        }
        #expect(done)
        cancellable?.cancel()
        let steps = log.current
        #expect(steps.count == 6)
        #expect(steps.first == "1")
        #expect(Set(steps[1...3]) == ["2.1", "2.2", "2.3"])
        #expect(Array(steps.suffix(2)) == ["3", "4"])
    }

    @Test func cancelFromReceiveSubscriptionCancelsEachUpstreamAsItArrives() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        a.zip(b).subscribe(AnySubscriber<(Int, Int), Never>(receiveSubscription: { $0.cancel() }))
        #expect(a.calls == [.cancel])
        #expect(b.calls == [.cancel])
    }

    /// A seeded random mix of sends on either side and requests, checked against the obvious
    /// model (the n-th value of `a` pairs with the n-th of `b`, delivered as soon as both have
    /// arrived, whatever the demand). It drives the per-input queues through wrap-around and
    /// growth.
    @Test func randomTrafficMatchesThePairingModel() {
        var rng = SplitMix(seed: 0x5EED)
        for _ in 0..<40 {
            // Hand-driven upstreams that send regardless of demand, so the queues fill up.
            let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
            let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1 + Int(rng.next() % 3)))
            a.zip(b).subscribe(tracker)
            var sentA = 0, sentB = 0
            for _ in 0..<200 {
                switch rng.next() % 7 {
                case 0, 1, 2: a.send(sentA); sentA += 1
                case 3, 4, 5: b.send(sentB &* 10); sentB += 1
                default: tracker.request(.max(1 + Int(rng.next() % 4)))
                }
                let values = tracker.values
                let expected = min(sentA, sentB)
                #expect(values.count == expected)
                if values.count != expected { return }
                for (index, pair) in values.enumerated() where pair.0 != index || pair.1 != index &* 10 {
                    Issue.record("pair \(index) is \(pair)")
                    return
                }
            }
        }
    }
}

/// Hands `subscription` to a subscriber an upstream captured (known only as `Any`).
private func hand(_ subscription: any Subscription, to subscriber: Any) {
    guard let subscriber = subscriber as? any Subscriber else {
        Issue.record("not a subscriber: \(type(of: subscriber))")
        return
    }
    subscriber.receive(subscription: subscription)
}

/// A small deterministic generator, so a failing run can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}


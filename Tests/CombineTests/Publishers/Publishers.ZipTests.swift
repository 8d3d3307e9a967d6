import Combine
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Publishers.Zip", .tags(.concurrency))
struct ZipTests {
    enum TestError: Error, Equatable { case boom }

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

    @Test func firstFailureFailsAndCancelsTheOthers() {
        let a = TestUpstream<Int, TestError>(), b = TestUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<(Int, Int), TestError>(initialDemand: .max(1))
        a.zip(b).subscribe(tracker)
        a.send(1)
        a.send(2)
        b.send(1)
        b.send(2)  // paired values wait for demand; the failure drops them
        a.send(completion: .failure(.boom))
        #expect(tracker.values.map { "\($0)" } == ["(1, 1)"])
        #expect(tracker.completions == [.failure(.boom)])
        #expect(b.calls == [.request(.max(1)), .cancel])
    }

    @Test func demandIsPassedOnAndPairsWaitForIt() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<String, Never>()
        let tracker = TrackingSubscriber<(Int, String), Never>(initialDemand: .max(1))
        a.zip(b).subscribe(tracker)
        #expect(a.calls == [.request(.max(1))])
        #expect(b.calls == [.request(.max(1))])
        a.send(1)
        a.send(2)
        b.send("x")
        b.send("y")
        #expect(tracker.values.map { "\($0)" } == [#"(1, "x")"#])
        tracker.request(.max(1))
        #expect(tracker.values.map { "\($0)" } == [#"(1, "x")"#, #"(2, "y")"#])
        #expect(a.calls == [.request(.max(1)), .request(.max(1))])
        #expect(b.calls == [.request(.max(1)), .request(.max(1))])
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
        DispatchQueue.concurrentPerform(iterations: sources) { source in
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
    /// model (the n-th value of `a` pairs with the n-th of `b`, delivered up to the demand). It
    /// drives the per-input queues through wrap-around and growth, and switches between the direct
    /// hand-over of a tuple and the gate's queue.
    @Test func randomTrafficMatchesThePairingModel() {
        var rng = SplitMix(seed: 0x5EED)
        for _ in 0..<40 {
            // Hand-driven upstreams that send regardless of demand, so the queues fill up.
            let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
            var demandSoFar = 1 + Int(rng.next() % 3)
            let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(demandSoFar))
            a.zip(b).subscribe(tracker)
            var sentA = 0, sentB = 0
            for _ in 0..<200 {
                switch rng.next() % 7 {
                case 0, 1, 2: a.send(sentA); sentA += 1
                case 3, 4, 5: b.send(sentB &* 10); sentB += 1
                default:
                    let more = 1 + Int(rng.next() % 4)
                    tracker.request(.max(more))
                    demandSoFar += more
                }
                let values = tracker.values
                let expected = min(min(sentA, sentB), demandSoFar)
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


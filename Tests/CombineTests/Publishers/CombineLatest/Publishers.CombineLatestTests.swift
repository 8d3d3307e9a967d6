import Combine
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Publishers.CombineLatest", .tags(.concurrency))
struct CombineLatestTests {
    enum TestError: Error, Equatable { case boom }

    /// Mastering iOS 14 ch. 13 (its example, reconstructed): nothing until both have a value.
    @Test func bookExampleEmitsLatestPairs() {
        let chars = PassthroughSubject<String, Never>()
        let numbers = PassthroughSubject<Int, Never>()
        var printed: [String] = []
        let cancellable = chars.combineLatest(numbers).sink { printed.append("Result: \($0).") }
        chars.send("a")
        numbers.send(1)
        numbers.send(2)
        chars.send("b")
        chars.send("c")
        chars.send("d")
        numbers.send(3)
        numbers.send(10)
        #expect(printed == [
            #"Result: ("a", 1)."#, #"Result: ("a", 2)."#, #"Result: ("b", 2)."#, #"Result: ("c", 2)."#,
            #"Result: ("d", 2)."#, #"Result: ("d", 3)."#, #"Result: ("d", 10)."#,
        ])
        cancellable.cancel()
    }

    /// Apple's documented examples for two and three inputs.
    @Test func documentedExamples() {
        let pub1 = PassthroughSubject<Int, Never>()
        let pub2 = PassthroughSubject<Int, Never>()
        var pairs: [String] = []
        let c1 = pub1.combineLatest(pub2).sink { pairs.append("\($0)") }
        pub1.send(1)
        pub1.send(2)
        pub2.send(2)
        pub1.send(3)
        pub1.send(45)
        pub2.send(22)
        #expect(pairs == ["(2, 2)", "(3, 2)", "(45, 2)", "(45, 22)"])
        c1.cancel()

        let pub = PassthroughSubject<Int, Never>()
        let pub3 = PassthroughSubject<Int, Never>()
        var triples: [String] = []
        let c2 = pub.combineLatest(pub2, pub3).sink { triples.append("\($0)") }
        pub.send(1)
        pub.send(2)
        pub2.send(2)
        pub3.send(9)
        pub.send(3)
        pub2.send(12)
        pub.send(13)
        pub3.send(19)
        #expect(triples == ["(2, 2, 9)", "(3, 2, 9)", "(3, 12, 9)", "(13, 12, 9)", "(13, 12, 19)"])
        c2.cancel()

        let pub4 = PassthroughSubject<Int, Never>()
        var quads: [String] = []
        let c3 = Publishers.CombineLatest4(pub, pub2, pub3, pub4).sink { quads.append("\($0)") }
        pub.send(1)
        pub2.send(2)
        pub3.send(3)
        pub4.send(4)
        pub.send(5)
        #expect(quads == ["(1, 2, 3, 4)", "(5, 2, 3, 4)"])
        c3.cancel()
    }

    @Test func finishesOnlyWhenEveryUpstreamHasFinished() {
        let a = TestUpstream<Int, TestError>(), b = TestUpstream<String, TestError>()
        let tracker = TrackingSubscriber<(Int, String), TestError>()
        a.combineLatest(b).subscribe(tracker)
        #expect(tracker.events.first?.description == "subscription(CombineLatest)")
        a.send(1)
        a.send(completion: .finished)
        b.send("x")
        b.send("y")  // a's latest value stays in use after a finished
        #expect(tracker.values.map { "\($0)" } == [#"(1, "x")"#, #"(1, "y")"#])
        #expect(tracker.completions.isEmpty)
        b.send(completion: .finished)
        #expect(tracker.completions == [.finished])
        #expect(a.calls == [.request(.unlimited)])
        #expect(b.calls == [.request(.unlimited)])
    }

    @Test func firstFailureFailsAndCancelsTheOthers() {
        let a = TestUpstream<Int, TestError>(), b = TestUpstream<Int, TestError>(), c = TestUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<(Int, Int, Int), TestError>()
        Publishers.CombineLatest3(a, b, c).subscribe(tracker)
        a.send(1)
        b.send(completion: .failure(.boom))
        a.send(2)
        c.send(3)
        #expect(tracker.values.isEmpty)
        #expect(tracker.completions == [.failure(.boom)])
        #expect(a.calls == [.request(.unlimited), .cancel])
        #expect(b.calls == [.request(.unlimited)])
        #expect(c.calls == [.request(.unlimited), .cancel])
    }

    @Test func requestsArePassedToEveryUpstreamAndExcessValuesAreDropped() {
        let a = TestUpstream<String, Never>(), b = TestUpstream<Int, Never>()
        let tracker = TrackingSubscriber<(String, Int), Never>(initialDemand: .max(1))
        a.combineLatest(b).subscribe(tracker)
        #expect(a.calls == [.request(.max(1))])
        #expect(b.calls == [.request(.max(1))])
        a.send("a")
        b.send(1)
        b.send(2)  // no demand: replaces b's latest value, emits nothing
        #expect(tracker.values.map { "\($0)" } == [#"("a", 1)"#])
        tracker.request(.max(1))
        #expect(a.calls == [.request(.max(1)), .request(.max(1))])
        #expect(b.calls == [.request(.max(1)), .request(.max(1))])
        #expect(tracker.values.count == 1)
        a.send("b")
        #expect(tracker.values.map { "\($0)" } == [#"("a", 1)"#, #"("b", 2)"#])
    }

    /// With unlimited demand a value goes out without any demand bookkeeping; it must still be
    /// ignored when its own upstream has already finished, while the other input keeps combining.
    @Test func valueFromAFinishedUpstreamIsIgnoredWhileValuesFlowFreely() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int), Never>()
        a.combineLatest(b).subscribe(tracker)
        a.send(1)
        b.send(10)
        a.send(completion: .finished)
        a.send(2)  // breaks the contract: after its own completion
        b.send(11)
        #expect(tracker.values.map { "\($0)" } == ["(1, 10)", "(1, 11)"])
        b.send(completion: .finished)
        b.send(12)
        a.send(3)
        #expect(tracker.values.count == 2)
        #expect(tracker.completions == [.finished])
    }

    /// Demand that turns unlimited after a finite start: the values before it are counted, the
    /// ones after it flow without counting, and a value that arrived without demand is not
    /// delivered late.
    @Test func demandTurningUnlimitedLetsValuesFlow() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        a.combineLatest(b).subscribe(tracker)
        a.send(1)
        b.send(1)
        a.send(2)  // no demand left: only stored
        #expect(tracker.values.map { "\($0)" } == ["(1, 1)"])
        tracker.request(.unlimited)
        #expect(tracker.values.count == 1)
        b.send(2)
        a.send(3)
        #expect(tracker.values.map { "\($0)" } == ["(1, 1)", "(2, 2)", "(3, 2)"])
        tracker.cancel()
        a.send(4)
        #expect(tracker.values.count == 3)
        #expect(tracker.completions.isEmpty)
    }

    /// A value from a second thread while the first thread's tuple is being delivered with
    /// unlimited demand: it is combined with the value stored before it, goes out after the
    /// delivery in progress (calls never overlap), and its send returns only once it has.
    @Test func valueFromASecondThreadDuringAFreeFlowingDelivery() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let probe = SerializationCheckingSubscriber<(Int, Int), Never>()
        let holding = Locked(false)
        a.combineLatest(b)
            .handleEvents(receiveOutput: { pair in
                if pair == (1, 1), holding.withLock({ $0 }) {
                    inside.signal()
                    release.wait()
                }
            })
            .subscribe(probe)
        b.send(0)
        a.send(0)
        holding.withLock { $0 = true }
        // Delivers (1, 0), then holds the delivery of (1, 1) open.
        Thread { a.send(1); b.send(1) }.start()
        inside.wait()
        let deliveredWhenSendReturned = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            a.send(2)
            deliveredWhenSendReturned.withLock { $0 = probe.values.contains { $0 == (2, 1) } }
            done.signal()
        }.start()
        usleep(20_000)  // lets the second sender reach the operator; the outcome does not depend on it
        release.signal()
        done.wait()
        #expect(deliveredWhenSendReturned.withLock { $0 } == true)
        #expect(probe.values.map { "\($0)" } == ["(0, 0)", "(1, 0)", "(1, 1)", "(2, 1)"])
        #expect(probe.overlaps == 0)
    }

    /// Calls into one subscriber are serialised, so a subscriber needs no lock of its own: a
    /// thread that takes the role after another gave it back sees everything the other's
    /// delivery did (the thread sanitizer checks this test's plain counter).
    @Test func subscriberWithoutALockSeesEveryEarlierDelivery() {
        final class Counter: @unchecked Sendable { var count = 0 }
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        let counter = Counter()
        let cancellable = a.combineLatest(b).sink { _ in counter.count += 1 }
        a.send(0)
        b.send(0)
        // See the same test of `merge` for the count.
        let perThread = 5_000
        onThreadsBlocking(2) { side in
            for value in 1...perThread { if side == 0 { a.send(value) } else { b.send(value) } }
        }
        #expect(counter.count == 1 + 2 * perThread)
        cancellable.cancel()
    }

    @Test func demandReturnedFromReceiveIsPassedOn() {
        let a = TestUpstream<Int, Never>(), b = TestUpstream<Int, Never>()
        let tracker = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(2) })
        a.combineLatest(b).subscribe(tracker)
        a.send(1)
        b.send(1)
        #expect(a.calls == [.request(.max(1)), .request(.max(2))])
        #expect(b.calls == [.request(.max(1)), .request(.max(2))])
    }

    @Test func cancelReachesEveryUpstreamAndReleases() {
        let a = PassthroughSubject<Int, Never>(), b = TestUpstream<Int, Never>()
        weak var weakTracker: TrackingSubscriber<(Int, Int), Never>?
        weak var weakSubscription: AnyObject?
        do {
            let tracker = TrackingSubscriber<(Int, Int), Never>()
            weakTracker = tracker
            a.combineLatest(b).subscribe(tracker)
            weakSubscription = tracker.subscription as AnyObject
            a.send(1)
            b.send(1)
            tracker.cancel()
            a.send(2)
            b.send(2)
            b.send(completion: .finished)
            #expect(tracker.values.count == 1)
            #expect(tracker.completions.isEmpty)
        }
        #expect(b.calls == [.request(.unlimited), .cancel])
        #expect(weakTracker == nil)
        _ = weakSubscription  // still referenced by `b`, which keeps its subscriber by design
    }

    @Test func releasesEverythingWhenSubjectsDropTheSubscription() {
        weak var weakSubscription: AnyObject?
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        do {
            let tracker = TrackingSubscriber<(Int, Int), Never>()
            a.combineLatest(b).subscribe(tracker)
            weakSubscription = tracker.subscription as AnyObject
            tracker.cancel()
        }
        #expect(weakSubscription == nil)
    }

    @Test func reentrantSendIsDeliveredAfterTheCurrentValue() {
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        var received: [String] = []
        let cancellable = a.combineLatest(b).sink { pair in
            received.append("\(pair)")
            if pair.0 == 1 { a.send(2) }
            received.append("end \(pair)")
        }
        b.send(0)
        a.send(1)
        #expect(received == ["(1, 0)", "end (1, 0)", "(2, 0)", "end (2, 0)"])
        cancellable.cancel()
    }

    @Test func synchronousUpstreamsUseTheirLatestValues() {
        var received: [String] = []
        var completion: Subscribers.Completion<Never>?
        let cancellable = [1, 2, 3].publisher.combineLatest(["a", "b"].publisher)
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append("\($0)") })
        #expect(received == [#"(3, "a")"#, #"(3, "b")"#])
        #expect(completion == .finished)
        cancellable.cancel()
    }

    @Test func equatableWhenUpstreamsAre() {
        #expect(Publishers.CombineLatest(Just(1), Just("a")) == Publishers.CombineLatest(Just(1), Just("a")))
        #expect(Publishers.CombineLatest3(Just(1), Just(2), Just(3)) != Publishers.CombineLatest3(Just(1), Just(2), Just(4)))
        #expect(Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4)) == Just(1).combineLatest(Just(2), Just(3), Just(4)))
    }

    @Test func concurrentSendsAreSerialisedWithoutLossOrReordering() {
        let sources = 4, perSource = 10_000
        let ups = (0..<sources).map { _ in TestUpstream<Int, Never>() }
        let probe = SerializationCheckingSubscriber<(Int, Int, Int, Int), Never>()
        Publishers.CombineLatest4(ups[0], ups[1], ups[2], ups[3]).subscribe(probe)
        for upstream in ups { upstream.send(-1) }  // every input has a value before the race
        onThreadsBlocking(sources) { source in
            for index in 0..<perSource { ups[source].send(index) }
            ups[source].send(completion: .finished)
        }
        let outputs = probe.values.map { [$0.0, $0.1, $0.2, $0.3] }
        #expect(outputs.count == 1 + sources * perSource)
        #expect(outputs.first == [-1, -1, -1, -1])
        #expect(outputs.last == [Int](repeating: perSource - 1, count: sources))
        // Each output differs from the previous one in exactly one input, advanced by exactly one:
        // nothing lost, duplicated or reordered.
        var consistent = true
        for (previous, current) in zip(outputs, outputs.dropFirst()) {
            let changes = (0..<sources).filter { previous[$0] != current[$0] }
            if changes.count != 1 || current[changes[0]] != previous[changes[0]] + 1 { consistent = false }
        }
        #expect(consistent)
        #expect(probe.overlaps == 0)
        #expect(probe.completions.count == 1)
        #expect(probe.eventsAfterCompletion == 0)
    }

    @Test func transformOverloadsAreCombineLatestFollowedByMap() {
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<String, Never>()
        let c = PassthroughSubject<Double, Never>(), d = PassthroughSubject<Bool, Never>()
        let two: Publishers.Map<Publishers.CombineLatest<PassthroughSubject<Int, Never>, PassthroughSubject<String, Never>>, String> =
            a.combineLatest(b) { "\($0)\($1)" }
        let three: Publishers.Map<Publishers.CombineLatest3<PassthroughSubject<Int, Never>, PassthroughSubject<String, Never>, PassthroughSubject<Double, Never>>, String> =
            a.combineLatest(b, c) { "\($0)\($1)\($2)" }
        let four = a.combineLatest(b, c, d) { "\($0)\($1)\($2)\($3)" }
        var out: [String] = []
        let cancellables = [two.sink { out.append($0) }, three.sink { out.append($0) }, four.sink { out.append($0) }]
        a.send(1)
        b.send("x")
        c.send(2.5)
        d.send(true)
        #expect(out == ["1x", "1x2.5", "1x2.5true"])
        _ = cancellables
    }

    /// Mastering iOS 14 ch. 13, sample app "CombineExample" (the validation half):
    /// `Publishers.CombineLatest` of two `@Published` properties, mapped to the validated e-mail.
    @Test func bookEmailValidation() {
        final class SignUp {
            @Published var initialEmail: String = ""
            @Published var repeatedEmail: String = ""
            var validatedEmail: AnyPublisher<String?, Never> {
                Publishers.CombineLatest($initialEmail, $repeatedEmail)
                    .map { (email, repeatedEmail) -> String? in
                        guard email == repeatedEmail, email.contains("@"), email.count > 5 else { return nil }
                        return email
                    }
                    .eraseToAnyPublisher()
            }
        }
        let model = SignUp()
        var seen: [String?] = []
        let cancellable = model.validatedEmail.sink { seen.append($0) }
        model.initialEmail = "me@example.com"
        model.repeatedEmail = "me@example"
        model.repeatedEmail = "me@example.com"
        model.initialEmail = "x@y"
        #expect(seen == [nil, nil, nil, "me@example.com", nil])
        cancellable.cancel()
    }
}

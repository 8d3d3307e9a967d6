import Combine
import TestSupport
import Testing

@Suite("Publishers.Filter / TryFilter")
struct PublishersFilterTests {
    typealias E = SingleOp.TestError

    @Test func filterPassesAcceptedValuesAndAsksForOneMorePerDrop() {
        let (up, sub) = SingleOp.attach({ $0.filter { $0 % 2 == 0 } }, demand: .max(2))
        #expect(up.send(1) == .max(1))
        #expect(up.send(2) == .none)
        #expect(up.send(3) == .max(1))
        #expect(up.send(4) == .none)
        up.send(completion: .finished)
        // The upstream's own subscription goes downstream, as on Apple's platforms (§5).
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "value(2)", "value(4)", "finished"])
        #expect(SingleOp.calls(up) == ["request(max(2))"])
    }

    @Test func filterDemandStepByStep() {
        let (up, sub) = SingleOp.attach({ $0.filter { $0 > 0 } }, demand: .max(1), after: { _ in .none })
        up.send(1)
        sub.request(.max(1))
        up.send(2)
        sub.request(.max(2))
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(1))", "request(max(2))"])
        #expect(sub.values == [1, 2])
    }

    @Test func filterFailureAndCancellation() {
        let (up, sub) = SingleOp.attach({ $0.filter { _ in true } })
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "failure(boom)"])

        // No state of its own (§5): the cancel goes straight upstream, and whatever the upstream
        // still sends afterwards is passed on, as Apple's filter does.
        let (up2, sub2) = SingleOp.attach({ $0.filter { _ in true } })
        up2.send(1)
        sub2.cancel()
        up2.send(2)
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(TestUpstream)", "value(1)", "value(2)", "finished"])
        #expect(SingleOp.calls(up2) == ["request(unlimited)", "cancel"])
    }

    @Test func tryFilterFailsOnThrowAndCancelsUpstream() {
        let (up, sub) = SingleOp.attach({ $0.tryFilter { v in if v == 3 { throw E.boom }; return v != 1 } })
        #expect(up.send(1) == .max(1))
        up.send(2)
        up.send(3)
        up.send(4)
        #expect(SingleOp.events(sub) == ["subscription(TryFilter)", "value(2)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func filtersFuse() {
        func fuse<P: Publisher>(_ p: P) -> Publishers.Filter<P> where P.Output == Int {
            p.filter { $0 > 1 }.filter { $0 < 4 }
        }
        func fuseTry<P: Publisher>(_ p: P) -> Publishers.TryFilter<P> where P.Output == Int {
            p.filter { $0 > 1 }.tryFilter { $0 < 4 }.filter { $0 != 2 }.tryFilter { _ in true }
        }
        var got: [Int] = []
        _ = fuse([1, 2, 3, 4].publisher).sink { got.append($0) }
        #expect(got == [2, 3])
        var tried: [Int] = []
        _ = fuseTry([1, 2, 3, 4].publisher).sink(receiveCompletion: { _ in }, receiveValue: { tried.append($0) })
        #expect(tried == [3])
    }

    // Mastering iOS 14 ch. 13, playground: evens of [1, 2, 3, 4] print 2 and 4.
    @Test func bookExampleEvens() {
        var printed: [String] = []
        func evens<P: Publisher>(_ p: P) -> Publishers.Filter<P> where P.Output == Int { p.filter { $0 % 2 == 0 } }
        _ = evens([1, 2, 3, 4].publisher).sink { printed.append("\($0)") }
        #expect(printed == ["2", "4"])
    }

    @Test func filterForwardsEverySubscriptionAndEventAfterCompletion() {
        // §5: no terminal state. A second subscription goes downstream as it is, and events
        // after a completion are still passed on.
        let upstream = CapturingUpstream<Int>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.filter { $0 > 0 }.subscribe(subscriber)
        let first = RecordingSubscription(name: "S1")
        let second = RecordingSubscription(name: "S2")
        upstream.subscriber?.receive(subscription: first)
        upstream.subscriber?.receive(completion: .finished)
        #expect(upstream.subscriber?.receive(0) == .max(1))
        #expect(upstream.subscriber?.receive(72) == Subscribers.Demand.none)
        upstream.subscriber?.receive(subscription: second)
        #expect(SingleOp.events(subscriber) == ["subscription(S1)", "finished", "value(72)", "subscription(S2)"])
        #expect(!second.isCancelled)
        #expect(first.requests == [.max(3)])
    }

    @Test func tryFilterTrapsOnAValueBeforeItsSubscription() async {
        // §10 rule 1: the filter-like family stops the process, without calling the closure.
        await #expect(processExitsWith: .failure) {
            let upstream = CapturingUpstream<Int>()
            upstream.tryFilter { _ in true }.subscribe(TrackingSubscriber<Int, any Error>())
            _ = upstream.subscriber?.receive(0)
        }
    }

    @Test func tryFilterTakesARequestAfterAnEarlyCancelWithoutATrap() {
        // Spec §6, §10 rule 1: a cancel before the subscription is remembered, and a request made
        // after it is no longer early: it is ignored, and the late subscription is cancelled.
        let upstream = SubscriberCapturingUpstream<Int, Never>()
        upstream.tryFilter { _ in true }.subscribe(TrackingSubscriber<Int, any Error>())
        let stage = upstream.subscriber as? any Subscription
        stage?.cancel()
        stage?.request(.max(1))
        let late = RecordingSubscription()
        (upstream.subscriber as? any Subscriber<Int, Never>)?.receive(subscription: late)
        #expect(stage != nil)
        #expect(late.isCancelled)
        #expect(late.requests.isEmpty)
    }

    @Test func tryFilterTrapsOnARequestBeforeItsSubscription() async {
        // Spec §10 rule 1: a request made on the upstream-facing object before the upstream's
        // subscription arrived stops the process, as Apple's does.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SingleOp.requestBeforeSubscription { $0.tryFilter { _ in true } }
        }
        #expect(SingleOp.standardError(result).contains("TryFilter received a request before its subscription"))
    }
}

/// Keeps the subscriber attached to it, so a test can send it anything by hand.
private final class CapturingUpstream<Output>: Publisher {
    typealias Failure = Never
    var subscriber: AnySubscriber<Output, Never>?
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        self.subscriber = AnySubscriber(subscriber)
    }
}

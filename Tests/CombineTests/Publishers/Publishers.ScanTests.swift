import Combine
import TestSupport
import Testing

@Suite("Publishers.Scan / TryScan")
struct PublishersScanTests {
    typealias E = SingleOp.TestError

    @Test func scanPublishesEveryIntermediateResult() {
        let (up, sub) = SingleOp.attach({ $0.scan(0, +) }, demand: .max(2))
        #expect(up.send(1) == .none)
        up.send(2)
        up.send(completion: .finished)
        // The upstream's own subscription goes downstream, as on Apple's platforms (§5).
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "value(1)", "value(3)", "finished"])
        #expect(SingleOp.calls(up) == ["request(max(2))"])
    }

    @Test func scanFailureDemandAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.scan(10, -) }, demand: .max(1))
        up.send(1)
        sub.request(.max(1))
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "value(9)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(1))"])

        // No state but the running result (§5): the cancel reaches the upstream directly, and a
        // value the upstream still sends is folded in and passed on.
        let (up2, sub2) = SingleOp.attach({ $0.scan(0, +) })
        sub2.cancel()
        up2.send(1)
        #expect(sub2.values == [1])
        #expect(up2.isCancelled)
    }

    @Test func tryScanFailsOnThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryScan(0) { acc, v in if v < 0 { throw E.boom }; return acc + v } })
        up.send(1)
        up.send(-1)
        up.send(5)
        #expect(SingleOp.events(sub) == ["subscription(TryScan)", "value(1)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func eachSubscriptionStartsAfresh() {
        let scan = [1, 2].publisher.singleOpGenericScan()
        var first: [Int] = [], second: [Int] = []
        _ = scan.sink { first.append($0) }
        _ = scan.sink { second.append($0) }
        #expect(first == [1, 3])
        #expect(second == [1, 3])
    }

    // Using Combine, reference: scan: `(0...5).publisher.scan(0, { $0 + $1 })` prints `0 1 3 6 10
    // 15 `.
    @Test func bookExampleRunningSum() {
        var line = ""
        _ = (0...5).publisher.singleOpGenericScan().sink { line += "\($0) " }
        #expect(line == "0 1 3 6 10 15 ")
    }

    // Mastering iOS 14 ch. 13, playground: `.scan(1, { $0 * $1 })` over 1...4 gives 1 2 6 24.
    @Test func bookExampleRunningProduct() {
        var got: [Int] = []
        func product<P: Publisher>(_ p: P) -> Publishers.Scan<P, Int> where P.Output == Int { p.scan(1, { $0 * $1 }) }
        _ = product([1, 2, 3, 4].publisher).sink { got.append($0) }
        #expect(got == [1, 2, 6, 24])
    }

    @Test func tryScanKeepsFoldingAfterTheUpstreamEndsButNotAfterItsOwnThrow() {
        // §12: no gate after an upstream completion or a cancel; the downstream's demand is
        // returned. After its own throw nothing more goes out (kept contract, §2b).
        let (up, sub) = SingleOp.attach({ $0.tryScan(0) { acc, v in if v < 0 { throw E.boom }; return acc + v } },
                                        after: { _ in .max(2) })
        up.send(completion: .finished)
        #expect(up.send(1) == .max(2))
        #expect(SingleOp.events(sub) == ["subscription(TryScan)", "finished", "value(1)"])

        let (up2, sub2) = SingleOp.attach({ $0.tryScan(0) { acc, v in if v < 0 { throw E.boom }; return acc + v } })
        up2.send(-1)
        #expect(up2.send(5) == .none)
        #expect(SingleOp.events(sub2) == ["subscription(TryScan)", "failure(boom)"])
    }
}

extension PublishersScanTests {
    /// Spec §12: upstream completions do not end `tryScan`. Each one that arrives while
    /// subscribed is passed on, and the upstream's subscription stays in use: later requests and
    /// the cancel still reach it. A completion after the cancel is dropped.
    @Test func tryScanPassesOnEveryCompletionAndKeepsItsUpstream() {
        let (up, sub) = SingleOp.attach({ $0.tryScan(0, +) }, demand: .max(1))
        up.send(completion: .finished)
        up.send(completion: .failure(.boom))
        sub.request(.max(2))
        sub.cancel()
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(TryScan)", "finished", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(2))", "cancel"])
    }

    /// Spec §6: a cancel before the upstream's subscription changes nothing, and a completion
    /// then is dropped (there is no subscriber-facing subscription yet); the late subscription
    /// goes downstream and gets only what the subscriber asks for.
    @Test func tryScanMirrorShowsWhereTheStageStands() throws {
        // Apple's children `downstream`, `status`, `result`; the differential harness found the
        // status blank in ours where OpenCombine shows it.
        let upstream = LateSubscriptionUpstream<Int, SingleOp.TestError>()
        let subscriber = TrackingSubscriber<Int, any Error>(initialDemand: .max(3))
        upstream.tryScan(0, +).subscribe(subscriber)
        upstream.send(subscription: RecordingSubscription(name: "S1"))
        upstream.send(4)
        let subscription = try #require(subscriber.subscription)
        func children() -> [String] {
            Mirror(reflecting: subscription).children.map { "\($0.label ?? "_"): \($0.value)" }.filter { !$0.hasPrefix("downstream") }
        }
        #expect(children() == ["status: subscribed(S1)", "result: 4"])
        subscription.cancel()
        #expect(children() == ["status: terminal", "result: 4"])
    }

    @Test func tryScanIgnoresACancelAndACompletionBeforeItsSubscription() {
        let upstream = LateSubscriptionUpstream<Int, SingleOp.TestError>()
        let subscriber = TrackingSubscriber<Int, any Error>(initialDemand: .max(3))
        upstream.tryScan(0, +).subscribe(subscriber)
        upstream.cancelSubscriber()
        upstream.send(completion: .failure(.boom))
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(3)])
        upstream.send(4)
        #expect(subscriber.values == [4])
        #expect(subscriber.completions.isEmpty)
    }

    /// As Apple's: a throw of the closure before the upstream's subscription has nowhere to go
    /// (no subscription has been handed downstream); it is dropped, the late subscription is
    /// handed downstream and folding goes on from the last result.
    @Test func tryScanDropsAThrowBeforeItsSubscription() {
        let upstream = LateSubscriptionUpstream<Int, SingleOp.TestError>()
        let subscriber = TrackingSubscriber<Int, any Error>(initialDemand: .max(3))
        upstream.tryScan(0) { acc, v in if v < 0 { throw SingleOp.TestError.boom }; return acc + v }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(-1)
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(3)])
        upstream.send(2)
        #expect(SingleOp.events(subscriber) == ["value(1)", "subscription(TryScan)", "value(3)"])
    }
}

extension Publisher where Output == Int {
    fileprivate func singleOpGenericScan() -> Publishers.Scan<Self, Int> { scan(0, { $0 + $1 }) }
}

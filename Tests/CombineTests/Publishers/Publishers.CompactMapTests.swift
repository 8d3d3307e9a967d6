import Combine
import TestSupport
import Testing

@Suite("Publishers.CompactMap / TryCompactMap")
struct PublishersCompactMapTests {
    typealias E = SingleOp.TestError

    @Test func compactMapSkipsNilAndAsksForReplacement() {
        let (up, sub) = SingleOp.attach({ $0.compactMap { $0 % 2 == 0 ? "\($0)" : nil } }, demand: .max(1))
        #expect(up.send(1) == .max(1))
        #expect(up.send(2) == .none)
        up.send(completion: .finished)
        // The upstream's own subscription goes downstream, as on Apple's platforms (§5).
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "value(2)", "finished"])
    }

    @Test func compactMapDemandFailureCancel() {
        let (up, sub) = SingleOp.attach({ $0.compactMap { $0 } }, demand: .max(1), after: { _ in .max(1) })
        #expect(up.send(5) == .max(1))
        sub.request(.max(3))
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(3))"])
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "value(5)", "failure(boom)"])

        // No state of its own (§5): the cancel reaches the upstream directly, and a value the
        // upstream still sends is passed on.
        let (up2, sub2) = SingleOp.attach({ $0.compactMap { $0 } })
        sub2.cancel()
        up2.send(1)
        #expect(SingleOp.events(sub2) == ["subscription(TestUpstream)", "value(1)"])
        #expect(up2.isCancelled)
    }

    @Test func tryCompactMapFailsOnThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryCompactMap { v -> Int? in if v == 0 { throw E.boom }; return v } })
        up.send(1)
        up.send(0)
        up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(TryCompactMap)", "value(1)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func fusionsKeepOneStage() {
        func fuse<P: Publisher>(_ p: P) -> Publishers.CompactMap<P, String> where P.Output == Int {
            p.compactMap { $0 > 1 ? $0 : nil }.map { $0 * 2 }.compactMap { "\($0)" }
        }
        func fuseTry<P: Publisher>(_ p: P) -> Publishers.TryCompactMap<P, Int> where P.Output == Int {
            p.tryCompactMap { $0 }.compactMap { $0 > 2 ? $0 : nil }
        }
        var got: [String] = []
        _ = fuse([1, 2, 3].publisher).sink { got.append($0) }
        #expect(got == ["4", "6"])
        var tried: [Int] = []
        _ = fuseTry([1, 2, 3].publisher).sink(receiveCompletion: { _ in }, receiveValue: { tried.append($0) })
        #expect(tried == [3])
    }

    // Kodeco ch. 18: the `unwrap()` operator built on compactMap.
    @Test func bookExampleUnwrap() {
        var printed: [String] = []
        let values: [Int?] = [1, 2, nil, 3, nil, 4]
        values.publisher
            .singleOpUnwrap()
            .sink { printed.append("Received value: \($0)") }
            .cancel()
        #expect(printed == ["Received value: 1", "Received value: 2", "Received value: 3", "Received value: 4"])
    }

    @Test func tryCompactMapTrapsOnARequestBeforeItsSubscription() async {
        // Spec §10 rule 1: a request made on the upstream-facing object before the upstream's
        // subscription arrived stops the process, as Apple's does.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SingleOp.requestBeforeSubscription { $0.tryCompactMap { $0 } }
        }
        #expect(SingleOp.standardError(result).contains("TryCompactMap received a request before its subscription"))
    }
}

extension Publisher {
    fileprivate func singleOpUnwrap<T>() -> Publishers.CompactMap<Self, T> where Output == T? {
        compactMap { $0 }
    }
}

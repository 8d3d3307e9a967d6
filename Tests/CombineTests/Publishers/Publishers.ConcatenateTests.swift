import Combine
import TestSupport
import Testing

@Suite("Publishers.Concatenate (append, prepend)")
struct PublishersConcatenateTests {
    typealias Up = TestUpstream<Int, SingleOp.TestError>

    @Test func suffixOnlyAfterPrefixFinishesAndDemandCarriesOver() {
        let prefix = Up(name: "Prefix"), suffix = Up(name: "Suffix")
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(3))
        prefix.append(suffix).subscribe(sub)
        #expect(SingleOp.events(sub) == ["subscription(Concatenate)"])
        #expect(SingleOp.calls(prefix) == ["request(max(3))"])
        #expect(suffix.subscriptionCount == 0)
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.subscriptionCount == 1)
        #expect(SingleOp.calls(suffix) == ["request(max(2))"])
        suffix.send(2)
        sub.request(.max(1))
        #expect(SingleOp.calls(suffix) == ["request(max(2))", "request(max(1))"])
        suffix.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Concatenate)", "value(1)", "value(2)", "finished"])
    }

    @Test func prefixFailureEndsEverything() {
        let prefix = Up(), suffix = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>()
        suffix.prepend(prefix).subscribe(sub)
        prefix.send(completion: .failure(.boom))
        #expect(suffix.subscriptionCount == 0)
        #expect(SingleOp.events(sub) == ["subscription(Concatenate)", "failure(boom)"])
    }

    @Test func cancelReachesTheCurrentPublisher() {
        let prefix = Up(), suffix = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>()
        prefix.append(suffix).subscribe(sub)
        prefix.send(completion: .finished)
        sub.cancel()
        suffix.send(1)
        #expect(SingleOp.calls(prefix) == ["request(unlimited)"])
        #expect(SingleOp.calls(suffix) == ["request(unlimited)", "cancel"])
        #expect(sub.values.isEmpty)
    }

    @Test func valuesAndSequences() {
        var got: [Int] = []
        func build<P: Publisher>(_ p: P) -> Publishers.Concatenate<Publishers.Sequence<[Int], Never>, Publishers.Concatenate<P, Publishers.Sequence<[Int], Never>>>
        where P.Output == Int, P.Failure == Never {
            p.append(4, 5).prepend(0, 1)
        }
        _ = build([2, 3].publisher).sink { got.append($0) }
        #expect(got == [0, 1, 2, 3, 4, 5])
        var seq: [Int] = []
        func viaSequences<P: Publisher>(_ p: P) -> some Publisher<Int, Never> where P.Output == Int, P.Failure == Never {
            p.append(stride(from: 10, to: 12, by: 1)).prepend(AnySequence([7]))
        }
        _ = viaSequences(Just(9)).sink { seq.append($0) }
        #expect(seq == [7, 9, 10, 11])
    }

    @Test func demandOneAtATimeAcrossTheBoundary() {
        let sub = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        func build<P: Publisher>(_ p: P) -> Publishers.Concatenate<P, Publishers.Sequence<[Int], Never>> where P.Output == Int, P.Failure == Never {
            p.append(3, 4)
        }
        build([1, 2].publisher).subscribe(sub)
        #expect(sub.values == [1])
        sub.request(.max(2))
        #expect(sub.values == [1, 2, 3])
        sub.request(.max(1))
        #expect(SingleOp.events(sub).suffix(2) == ["value(4)", "finished"])
    }

    @Test func valuesBeyondTheDemandAreDroppedAndTheRestCarriesOver() {
        // Spec §16: the outstanding demand is counted here; the suffix gets requested − delivered
        // + returned (10 + 3 − 1 + 7 → 19).
        let prefix = Up(name: "Prefix"), suffix = Up(name: "Suffix")
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(10), demandAfterValue: { _ in .max(7) })
        prefix.append(suffix).subscribe(sub)
        sub.request(.max(3))
        #expect(prefix.send(1) == .max(7))
        prefix.send(completion: .finished)
        #expect(SingleOp.calls(suffix) == ["request(max(19))"])

        let (other, late) = (Up(), Up())
        let zero = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: nil)
        other.append(late).subscribe(zero)
        #expect(other.send(1) == .none)
        #expect(zero.values.isEmpty)
    }

    @Test func zeroRequestIsForwarded() {
        // Spec §11: request(.none) is accepted, added, and forwarded unchanged.
        let prefix = Up(), suffix = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(1))
        prefix.append(suffix).subscribe(sub)
        sub.request(.none)
        #expect(SingleOp.calls(prefix) == ["request(max(1))", "request(max(0))"])
    }

    @Test func reentrantDemandIsCounted() {
        // Spec §16: a subscriber that re-entrantly sends from receive gets only what it asked for.
        let prefix = Up(), suffix = Up()
        var sub: TrackingSubscriber<Int, SingleOp.TestError>!
        sub = TrackingSubscriber(initialDemand: .max(3), demandAfterValue: { value in
            _ = prefix.send(value + 1)
            return .none
        })
        prefix.append(suffix).subscribe(sub)
        prefix.send(1)
        #expect(sub.values == [1, 2, 3])
    }

    @Test func cancelReleasesTheSuffix() {
        // Spec §21.
        weak var weakSuffix: Up?
        let prefix = Up()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>()
        do {
            let suffix = Up()
            weakSuffix = suffix
            prefix.append(suffix).subscribe(sub)
        }
        #expect(weakSuffix != nil)
        sub.cancel()
        #expect(weakSuffix == nil)
    }

}

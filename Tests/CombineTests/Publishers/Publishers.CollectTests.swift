import Combine
import TestSupport
import Testing

@Suite("Publishers.Collect")
struct PublishersCollectTests {
    @Test func requestsUnlimitedAndWaitsForDemandBeforeSending() {
        let (up, sub) = SingleOp.attach({ $0.collect() }, demand: nil)
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
        for v in 1...5 { #expect(up.send(v) == .none) }
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Collect)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(Collect)", "value([1, 2, 3, 4, 5])", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
    }

    @Test func emptyUpstreamWithDemandPublishesEmptyArray() {
        let (up, sub) = SingleOp.attach({ $0.collect() }, demand: .max(1))
        up.send(completion: .finished)
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(Collect)", "value([])", "finished"])
    }

    @Test func failureDropsCollectedValues() {
        let (up, sub) = SingleOp.attach({ $0.collect() })
        up.send(1)
        up.send(completion: .failure(.boom))
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Collect)", "failure(boom)"])
    }

    @Test func cancelReachesUpstreamAndSilencesIt() {
        let (up, sub) = SingleOp.attach({ $0.collect() })
        up.send(1)
        sub.cancel()
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Collect)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
        let stage = sub.subscription
        #expect(stage is CustomReflectable)
        #expect((stage as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Collect")
    }
}

import Combine
import TestSupport
import Testing

@Suite("Publishers.Count")
struct PublishersCountTests {
    @Test func countsOnFinishAfterDemand() {
        let (up, sub) = SingleOp.attach({ $0.count() }, demand: nil)
        up.send(1); up.send(1); up.send(1)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Count)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(Count)", "value(3)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
    }

    @Test func failureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.count() })
        up.send(1)
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(Count)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.count() })
        sub2.cancel()
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(Count)"])
        #expect(SingleOp.calls(up2) == ["request(unlimited)", "cancel"])
    }
}

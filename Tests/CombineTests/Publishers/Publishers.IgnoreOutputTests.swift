import Combine
import TestSupport
import Testing

@Suite("Publishers.IgnoreOutput")
struct PublishersIgnoreOutputTests {
    @Test func swallowsValuesKeepsCompletion() {
        let (up, sub) = SingleOp.attach({ $0.ignoreOutput() }, demand: nil)
        #expect(up.send(1) == .none)
        up.send(completion: .finished)
        // The upstream's own subscription goes downstream, then is asked for everything (§5, §7).
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
    }

    @Test func subscriptionGoesDownstreamBeforeTheRequest() {
        // Apple: S: [request(max 42), request(unlimited)] when D asks for 42 in receive(subscription:).
        let (up, _) = SingleOp.attach({ $0.ignoreOutput() }, demand: .max(42))
        #expect(SingleOp.calls(up) == ["request(max(42))", "request(unlimited)"])
    }

    @Test func failureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.ignoreOutput() })
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(TestUpstream)", "failure(boom)"])
        // No state of its own (§5): the cancel reaches the upstream directly, and a completion the
        // upstream still sends is passed on.
        let (up2, sub2) = SingleOp.attach({ $0.ignoreOutput() })
        sub2.cancel()
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(TestUpstream)", "finished"])
        #expect(up2.isCancelled)
    }
}

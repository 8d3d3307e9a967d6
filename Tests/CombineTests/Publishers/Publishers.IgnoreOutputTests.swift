import Combine
import TestSupport
import Testing

@Suite("Publishers.IgnoreOutput")
struct PublishersIgnoreOutputTests {
    @Test func swallowsValuesKeepsCompletion() {
        let (up, sub) = SingleOp.attach({ $0.ignoreOutput() }, demand: nil)
        #expect(up.send(1) == .none)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(IgnoreOutput)", "finished"])
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
    }

    @Test func failureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.ignoreOutput() })
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(IgnoreOutput)", "failure(boom)"])
        let (up2, sub2) = SingleOp.attach({ $0.ignoreOutput() })
        sub2.cancel()
        up2.send(completion: .finished)
        #expect(SingleOp.events(sub2) == ["subscription(IgnoreOutput)"])
        #expect(up2.isCancelled)
    }
}

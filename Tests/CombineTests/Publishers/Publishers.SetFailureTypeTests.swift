import Combine
import TestSupport
import Testing

@Suite("Publishers.SetFailureType")
struct PublishersSetFailureTypeTests {
    enum MyError: Error { case ohNo }

    @Test func passesValuesDemandAndCancelStraightThrough() {
        let up = TestUpstream<Int, Never>()
        let sub = TrackingSubscriber<Int, MyError>(initialDemand: .max(1), demandAfterValue: { _ in .max(2) })
        up.setFailureType(to: MyError.self).subscribe(sub)
        #expect(up.send(1) == .max(2))
        sub.request(.max(1))
        up.send(completion: .finished)
        #expect(sub.events.map(\.description) == ["subscription(TestUpstream)", "value(1)", "finished"])
        #expect(up.calls.map(\.description) == ["request(max(1))", "request(max(1))"])
        sub.cancel()
        #expect(up.isCancelled)
    }

    @Test func reSettingKeepsOneStageAndEquatable() {
        func twice<P: Publisher>(_ p: P) -> Publishers.SetFailureType<P, MyError> where P.Failure == Never {
            p.setFailureType(to: (any Error).self).setFailureType(to: MyError.self)
        }
        #expect(twice(Just(1)) == Publishers.SetFailureType<Just<Int>, MyError>(upstream: Just(1)))
    }

    // Kodeco ch. 16, example "setFailureType".
    @Test func bookExampleSetFailureType() {
        let console = SingleOp.Console(example: "setFailureType")
        _ = Just("Hello")
            .setFailureType(to: MyError.self)
            .sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .failure(.ohNo): console.print("Finished with Oh No!")
                    case .finished: console.print("Finished successfully!")
                    }
                },
                receiveValue: { value in console.print("Got value: \(value)") })
        #expect(console.lines == ["——— Example of: setFailureType ———", "Got value: Hello", "Finished successfully!"])
    }
}

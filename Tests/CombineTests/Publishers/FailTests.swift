import Combine
import TestSupport
import Testing

@Suite("Fail")
struct FailTests {
    private enum Problem: Error, Equatable { case invalidServerResponse }

    @Test func failsImmediatelyWithEmptySubscription() {
        let subscriber = TrackingSubscriber<String, Problem>(initialDemand: nil)
        Fail(outputType: String.self, failure: Problem.invalidServerResponse).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.failure(.invalidServerResponse))])
    }

    @Test func equatableAndError() {
        #expect(Fail<Int, Problem>(error: .invalidServerResponse) == Fail(error: .invalidServerResponse))
        #expect(Fail<Int, Problem>(error: .invalidServerResponse).error == .invalidServerResponse)
    }
}

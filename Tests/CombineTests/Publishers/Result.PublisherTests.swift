import Combine
import TestSupport
import Testing

@Suite("Result.Publisher")
struct ResultPublisherTests {
    private enum Problem: Error, Equatable { case failed }

    @Test func successThenFinished() {
        let subscriber = TrackingSubscriber<Int, Problem>()
        Result<Int, Problem>.success(2).publisher.subscribe(subscriber)
        #expect(subscriber.values == [2])
        #expect(subscriber.completions == [.finished])
    }

    @Test func failure() {
        let subscriber = TrackingSubscriber<Int, Problem>(initialDemand: nil)
        Result<Int, Problem>.Publisher(Problem.failed).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.failure(.failed))])
    }

    @Test func initializers() {
        #expect(Result<Int, Problem>.Publisher(1).result == .success(1))
        #expect(Result<Int, Problem>.Publisher(.failure(.failed)) == Result<Int, Problem>.Publisher(Problem.failed))
    }
}

import Combine
import TestSupport
import Testing

@Suite("Optional.Publisher")
struct OptionalPublisherTests {
    @Test func someValue() {
        var log: [String] = []
        let optional1: Int? = 1
        _ = optional1.publisher.sink(
            receiveCompletion: { _ in log.append("optional1 completed.") },
            receiveValue: { log.append("optional1 = \($0).") })
        #expect(log == ["optional1 = 1.", "optional1 completed."])
    }

    @Test func noneFinishesAtOnce() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Optional<Int>.none.publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.finished)])
    }

    @Test func waitsForDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Optional.Publisher(3).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [3])
        #expect(subscriber.completions == [.finished])
        #expect(Optional.Publisher(3) == Optional.Publisher(3))
    }
}

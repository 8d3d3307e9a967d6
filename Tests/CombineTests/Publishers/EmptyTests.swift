import Combine
import TestSupport
import Testing

@Suite("Empty")
struct EmptyTests {
    @Test func completesImmediatelyByDefault() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Empty<Int, Never>().subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.finished)])
    }

    @Test func canStaySilent() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Empty(completeImmediately: false, outputType: Int.self, failureType: Never.self).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty")])
    }

    @Test func equality() {
        #expect(Empty<Int, Never>() == Empty<Int, Never>())
        #expect(Empty<Int, Never>(completeImmediately: false) != Empty<Int, Never>())
        #expect(Empty<Int, Never>().completeImmediately)
    }
}

import Combine
import TestSupport
import Testing

@Suite("AnyPublisher")
struct AnyPublisherTests {
    @Test func forwardsEverything() {
        let subject = PassthroughSubject<Int, Never>()
        let erased = subject.eraseToAnyPublisher()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        erased.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subscriber.request(.max(1))
        subject.send(3)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription("PassthroughSubject"), .value(1), .value(3), .completion(.finished)])
        subscriber.cancel()
    }

    @Test func neverDoubleWraps() {
        let erased = Just(1).eraseToAnyPublisher()
        let again = erased.eraseToAnyPublisher()
        let wrapped = AnyPublisher(erased)
        var values: [Int] = []
        _ = again.sink { values.append($0) }
        _ = wrapped.sink { values.append($0) }
        #expect(values == [1, 1])
        #expect(erased.description == "AnyPublisher")
        #expect(String(describing: erased.playgroundDescription) == "AnyPublisher")
    }

    @Test func subscriberKeepsItsIdentityThroughErasure() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        var seen: CombineIdentifier?
        let probe = ProbePublisher { seen = $0 }
        probe.eraseToAnyPublisher().subscribe(subscriber)
        #expect(seen == subscriber.combineIdentifier)
    }
}

/// Reports the combine identifier of whatever subscribes.
private struct ProbePublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let report: (CombineIdentifier) -> Void
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        report(subscriber.combineIdentifier)
        subscriber.receive(subscription: Subscriptions.empty)
    }
}

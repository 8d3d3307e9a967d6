import Combine
import TestSupport
import Testing

@Suite("AnySubscriber")
struct AnySubscriberTests {
    @Test func forwardsToWrappedSubscriber() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .unlimited, demandAfterValue: { _ in .max(2) })
        let erased = AnySubscriber(tracking)
        #expect(erased.combineIdentifier == tracking.combineIdentifier)
        Just(5).subscribe(erased)
        #expect(tracking.events == [.subscription("Just"), .value(5), .completion(.finished)])
        #expect(erased.receive(1) == .max(2))
    }

    @Test func unwrapsInsteadOfDoubleWrapping() {
        let tracking = TrackingSubscriber<Int, Never>()
        let erased = AnySubscriber(tracking)
        let twice = AnySubscriber(erased)
        #expect(twice.combineIdentifier == erased.combineIdentifier)
        _ = twice.receive(1)
        #expect(tracking.values == [1])
    }

    @Test func closures() {
        var log: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { log.append("subscription \($0)"); $0.request(.unlimited) },
            receiveValue: { log.append("value \($0)"); return .none },
            receiveCompletion: { log.append("completion \($0)") })
        [1, 2].publisher.subscribe(subscriber)
        #expect(log == ["subscription [1, 2]", "value 1", "value 2", "completion finished"])
        #expect(subscriber.description == "Anonymous AnySubscriber")
        let silent = AnySubscriber<Int, Never>()
        #expect(silent.receive(1) == .none)
    }

    @Test func descriptionOfWrappedSubscriber() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let erased = AnySubscriber(sink)
        #expect(erased.description == "Sink")
        #expect(String(describing: erased.playgroundDescription) == "Sink")
    }

    @Test func fromSubject() {
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        let cancellable = subject.sink { values.append($0) }
        let erased = AnySubscriber(subject)
        [1, 2, 3].publisher.subscribe(erased)
        #expect(values == [1, 2, 3])
        _ = cancellable
    }

    /// Wrapping a subscriber, the erasure's mirror is the subscriber's own, as `Mirror(reflecting:)`
    /// makes it: its stored properties when it has no custom mirror.
    @Test func mirrorOfAWrappedSubscriberIsThatSubscribers() {
        final class Plain: Subscriber {
            let label = "plain"
            let count = 3
            func receive(subscription: any Subscription) {}
            func receive(_ input: Int) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let mirror = AnySubscriber(Plain()).customMirror
        #expect(ObjectIdentifier(mirror.subjectType) == ObjectIdentifier(Plain.self))
        #expect(mirror.children.map(\.label) == ["label", "count"])
        let sinkMirror = AnySubscriber(Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })).customMirror
        #expect(ObjectIdentifier(sinkMirror.subjectType) == ObjectIdentifier(Subscribers.Sink<Int, Never>.self))
        #expect(sinkMirror.children.isEmpty)
    }

    /// Built from closures, the erasure's mirror is that of its description string.
    @Test func mirrorOfAClosureSubscriberIsItsDescriptionString() {
        let mirror = AnySubscriber<Int, Never>(receiveValue: { _ in .none }).customMirror
        #expect(ObjectIdentifier(mirror.subjectType) == ObjectIdentifier(String.self))
        #expect(mirror.children.isEmpty)
        var text = ""
        dump(AnySubscriber<Int, Never>(), to: &text)
        #expect(text.contains("Anonymous AnySubscriber"))
    }
}

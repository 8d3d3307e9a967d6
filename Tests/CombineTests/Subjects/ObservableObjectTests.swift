import Combine
import TestSupport
import Testing

@Suite("ObservableObject", .tags(.concurrency))
struct ObservableObjectTests {
    private class MonitorObject: ObservableObject {
        @Published var someProperty = false
        @Published var someOtherProperty = ""
        @Published private var hidden = 0
        var plain = 0

        func changeHidden() { hidden += 1 }
    }

    private final class SubMonitor: MonitorObject {
        @Published var extra = 0.0
    }

    private final class NoPublished: ObservableObject {
        var value = 0
    }

    private final class Custom: ObservableObject {
        let objectWillChange = PassthroughSubject<Int, Never>()
    }

    @Test func bookExampleFiresOnEveryPublishedChange() {
        let object = MonitorObject()
        var log: [String] = []
        let subscription = object.objectWillChange.sink { log.append("object will change") }
        object.someProperty = true
        object.someOtherProperty = "x"
        object.plain = 3
        #expect(log == ["object will change", "object will change"])
        _ = subscription
    }

    @Test func firesBeforeTheChange() {
        let object = MonitorObject()
        var seen: [Bool] = []
        let subscription = object.objectWillChange.sink { seen.append(object.someProperty) }
        object.someProperty = true
        #expect(seen == [false])
        _ = subscription
    }

    @Test func sameInstanceOnEveryAccess() {
        let object = MonitorObject()
        #expect(object.objectWillChange === object.objectWillChange)
        let sub = SubMonitor()
        #expect(sub.objectWillChange === sub.objectWillChange)
    }

    @Test func privateAndInheritedProperties() {
        let object = SubMonitor()
        var count = 0
        let subscription = object.objectWillChange.sink { count += 1 }
        object.changeHidden()
        object.someProperty = true
        object.extra = 1
        #expect(count == 3)
        _ = subscription
    }

    /// A subscription is inactive until its first request, of any size, and then gets every
    /// `send()`, whatever demand remains (edge spec §23).
    @Test func publisherIgnoresDemandAfterTheFirstRequest() {
        let publisher = ObservableObjectPublisher()
        let subscriber = TrackingSubscriber<Void, Never>(initialDemand: nil)
        publisher.subscribe(subscriber)
        publisher.send()
        #expect(subscriber.values.count == 0)
        subscriber.subscription?.request(.max(1))
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(subscriber.values.count == 3)
    }

    @Test func objectWithoutPublishedPropertiesNeverFires() {
        let object = NoPublished()
        var count = 0
        let subscription = object.objectWillChange.sink { count += 1 }
        object.value = 1
        #expect(count == 0)
        _ = subscription
    }

    @Test func customPublisher() {
        let object = Custom()
        var values: [Int] = []
        let subscription = object.objectWillChange.sink { values.append($0) }
        object.objectWillChange.send(1)
        #expect(values == [1])
        _ = subscription
    }

    @Test func observableObjectPublisherSend() {
        let publisher = ObservableObjectPublisher()
        let subscriber = TrackingSubscriber<Void, Never>()
        publisher.subscribe(subscriber)
        publisher.send()
        publisher.send()
        #expect(subscriber.values.count == 2)
        subscriber.cancel()
        publisher.send()
        #expect(subscriber.values.count == 2)
    }

    @Test func objectIsReleased() {
        weak var weakObject: MonitorObject?
        do {
            let object = MonitorObject()
            weakObject = object
            let subscription = object.objectWillChange.sink {}
            object.someProperty = true
            subscription.cancel()
        }
        #expect(weakObject == nil)
    }
}

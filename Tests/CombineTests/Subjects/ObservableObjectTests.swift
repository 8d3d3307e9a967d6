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

    /// Seen as its superclass, the object still shares one publisher with its subclass's
    /// properties: the properties are those of the object's own class.
    @Test func subclassPropertiesCountWhenSeenAsTheSuperclass() {
        let sub = SubMonitor()
        let seenAsSuperclass: MonitorObject = sub
        var count = 0
        let subscription = seenAsSuperclass.objectWillChange.sink { count += 1 }
        sub.extra = 2
        #expect(count == 1)
        #expect(sub.objectWillChange === seenAsSuperclass.objectWillChange)
        _ = subscription
    }

    private final class Generic<Leading>: ObservableObject {
        var leading: Leading
        @Published var count = 0
        init(_ leading: Leading) { self.leading = leading }
    }

    private class NonPublishedBase {
        var flag = false
        var name = "base"
        var numbers: [Int] = []
    }

    private final class PublishedAfterOtherFields: NonPublishedBase, ObservableObject {
        var small: Int8 = 0
        @Published var first = 0
        var tuple = (1.0, 2.0, 3.0)
        @Published var second = "x"
    }

    /// Where the properties lie differs between classes, and between the specialisations of a
    /// generic class: each change of each property fires the one publisher.
    @Test func propertiesAreFoundWhereverTheyLie() {
        let byte = Generic<Int8>(1)
        let text = Generic<String>("leading")
        let mixed = PublishedAfterOtherFields()
        var fired: [String] = []
        let subscriptions = [
            byte.objectWillChange.sink { fired.append("byte") },
            text.objectWillChange.sink { fired.append("text") },
            mixed.objectWillChange.sink { fired.append("mixed") },
        ]
        byte.count = 1
        text.count = 1
        mixed.first = 1
        mixed.second = "y"
        mixed.flag = true
        #expect(fired == ["byte", "text", "mixed", "mixed"])
        #expect(text.leading == "leading" && mixed.name == "base" && mixed.tuple.0 == 1)
        _ = subscriptions
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

    /// Every `@Published` property of the object keeps the shared publisher; it goes with the
    /// object, and not before.
    @Test func objectWillChangeIsReleasedWithTheObject() {
        weak var weakPublisher: ObservableObjectPublisher?
        do {
            let object = MonitorObject()
            weakPublisher = object.objectWillChange
            #expect(weakPublisher != nil)
            var fired = 0
            let subscription = object.objectWillChange.sink { fired += 1 }
            object.someProperty = true
            #expect(fired == 1)
            subscription.cancel()
        }
        #expect(weakPublisher == nil)
    }

    /// The first accesses from several threads at once install one publisher: every caller
    /// gets the same instance, and it is the one a change fires.
    @Test func concurrentFirstAccessInstallsOnePublisher() async {
        for _ in 0..<200 {
            let object = UncheckedBox(MonitorObject())
            let seen = Locked<[ObjectIdentifier]>([])
            await onThreads(4) { _ in
                let publisher = object.value.objectWillChange
                seen.withLock { $0.append(ObjectIdentifier(publisher)) }
            }
            #expect(Set(seen.current).count == 1)
            var fired = 0
            let subscription = object.value.objectWillChange.sink { fired += 1 }
            object.value.someProperty.toggle()
            #expect(fired == 1)
            #expect(seen.current.first == ObjectIdentifier(object.value.objectWillChange))
            subscription.cancel()
        }
    }
}

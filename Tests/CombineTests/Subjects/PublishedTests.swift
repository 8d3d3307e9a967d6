import Combine
import TestSupport
import Testing

@Suite("Published", .tags(.concurrency))
struct PublishedTests {
    private final class Weather {
        @Published var temperature: Double
        init(temperature: Double) { self.temperature = temperature }
    }

    @Test func appleDocumentationExample() {
        let weather = Weather(temperature: 20)
        var log: [String] = []
        let cancellable = weather.$temperature.sink { log.append("Temperature now: \($0)") }
        weather.temperature = 25
        #expect(log == ["Temperature now: 20.0", "Temperature now: 25.0"])
        _ = cancellable
    }

    @Test func publishesInWillSet() {
        let weather = Weather(temperature: 20)
        var seen: [(new: Double, stored: Double)] = []
        let cancellable = weather.$temperature.dropFirstValue().sink { value in
            seen.append((value, weather.temperature))
        }
        weather.temperature = 25
        #expect(seen.count == 1)
        #expect(seen.first?.new == 25)
        #expect(seen.first?.stored == 20)
        #expect(weather.temperature == 25)
        _ = cancellable
    }

    @Test func severalSubscribersAndDescription() {
        let weather = Weather(temperature: 1)
        let first = TrackingSubscriber<Double, Never>()
        let second = TrackingSubscriber<Double, Never>(initialDemand: .max(1))
        weather.$temperature.subscribe(first)
        weather.$temperature.subscribe(second)
        weather.temperature = 2
        #expect(first.values == [1, 2])
        #expect(second.values == [1])
        #expect(first.events.first == .subscription("PublishedSubject"))
    }

    /// Values set while the subscriber has no demand collapse; the latest goes out as soon as
    /// demand arrives (edge spec §23, Apple's example).
    @Test func latestValueGoesOutWhenDemandArrives() {
        let weather = Weather(temperature: 0)
        let subscriber = TrackingSubscriber<Double, Never>(initialDemand: .max(2))
        weather.$temperature.subscribe(subscriber)
        weather.temperature = 1
        weather.temperature = 3
        weather.temperature = 6
        #expect(subscriber.values == [0, 1])
        subscriber.subscription?.request(.max(10))
        #expect(subscriber.values == [0, 1, 6])
        weather.temperature = 7
        #expect(subscriber.values == [0, 1, 6, 7])
    }

    private final class Model {
        @Published var source = 0
        @Published var doubled = 0
        init() {
            $source.map2 { $0 * 2 }.assign(to: &$doubled)
        }
    }

    @Test func assignToPublishedHasNoRetainCycle() {
        weak var weakModel: Model?
        do {
            let model = Model()
            weakModel = model
            model.source = 4
            #expect(model.doubled == 8)
        }
        #expect(weakModel == nil)
    }

    @Test func assignToPublishedDiesWithTheProperty() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakModel: Model?
        do {
            let model = Model()
            weakModel = model
            subject.assign(to: &model.$doubled)
            subject.send(10)
            #expect(model.doubled == 10)
        }
        #expect(weakModel == nil)
        subject.send(11)
    }

    @Test func assigningAnotherPropertysPublisherLeavesTheValueAlone() {
        // Spec §23, §30: `a.$temperature = b.$temperature` does not change `a.temperature`, as on
        // Apple's platforms.
        let a = Weather(temperature: 1)
        let b = Weather(temperature: 2)
        a.$temperature = b.$temperature
        #expect(a.temperature == 1)
        #expect(b.temperature == 2)
    }

    /// The child `label` of `subscription`'s mirror, unwrapped from its `Optional`.
    private func child(_ label: String, of subscription: any Subscription) -> Any? {
        let value = Mirror(reflecting: subscription).children.first { $0.label == label }?.value
        return value.flatMap { Mirror(reflecting: $0).displayStyle == .optional ? Mirror(reflecting: $0).children.first?.value : $0 }
    }

    @Test func subscriptionMirrorShowsThePublishedSubject() throws {
        // Spec §28, §30: `parent` and `subject` are the property's published subject, the
        // object every subscriber of `$temperature` is attached to, not its storage.
        let weather = Weather(temperature: 1)
        let first = TrackingSubscriber<Double, Never>()
        let second = TrackingSubscriber<Double, Never>()
        weather.$temperature.subscribe(first)
        weather.$temperature.subscribe(second)
        let firstSubscription = try #require(first.subscription)
        let secondSubscription = try #require(second.subscription)
        let parent = try #require(child("parent", of: firstSubscription))
        #expect(String(describing: type(of: parent)) == "PublishedSubject<Double>")
        #expect(String(describing: parent) == "Combine.PublishedSubject<Swift.Double>")
        #expect((child("subject", of: firstSubscription) as AnyObject?) === (parent as AnyObject))
        #expect((child("parent", of: secondSubscription) as AnyObject?) === (parent as AnyObject))
    }

    @Test func initialValueInitializer() {
        var published = Published(initialValue: 3)
        var values: [Int] = []
        let cancellable = published.projectedValue.sink { values.append($0) }
        #expect(values == [3])
        _ = cancellable
    }
}

// Test-only helpers so this file does not depend on the operators other people are writing.
extension Publisher {
    fileprivate func dropFirstValue() -> AnyPublisher<Output, Failure> {
        AnyPublisher(DropOne(upstream: self))
    }

    fileprivate func map2<T>(_ transform: @escaping (Output) -> T) -> AnyPublisher<T, Failure> {
        AnyPublisher(MapStub(upstream: self, transform: transform))
    }
}

private struct DropOne<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        var dropped = false
        upstream.subscribe(AnySubscriber<Output, Failure>(
            receiveSubscription: { subscriber.receive(subscription: $0) },
            receiveValue: { value in
                if !dropped { dropped = true; return .max(1) }
                return subscriber.receive(value)
            },
            receiveCompletion: { subscriber.receive(completion: $0) }))
    }
}

private struct MapStub<Upstream: Publisher, Output>: Publisher {
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    let transform: (Upstream.Output) -> Output
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(AnySubscriber<Upstream.Output, Failure>(
            receiveSubscription: { subscriber.receive(subscription: $0) },
            receiveValue: { subscriber.receive(transform($0)) },
            receiveCompletion: { subscriber.receive(completion: $0) }))
    }
}

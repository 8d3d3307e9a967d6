import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

@Suite("Publishers.HandleEvents")
struct HandleEventsTests {
    private func instrumented<P: Publisher>(_ upstream: P, _ log: Locked<[String]>) -> Publishers.HandleEvents<P> {
        upstream.handleEvents(
            receiveSubscription: { log.append("subscription(\($0))") },
            receiveOutput: { log.append("output(\($0))") },
            receiveCompletion: { log.append("completion(\($0))") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request(\($0))") })
    }

    @Test func callbacksRunInEventOrder() {
        let log = Locked<[String]>([])
        let upstream = TestUpstream<Int, Never>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        instrumented(upstream, log).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(log.current == [
            "subscription(Up)", "request(max(1))", "output(1)", "request(max(1))", "output(2)", "request(max(1))",
            "completion(finished)",
        ])
        #expect(subscriber.events == [.subscription("HandleEvents"), .value(1), .value(2), .completion(.finished)])
        #expect(upstream.calls == [.request(.max(1))])
    }

    @Test func requestBeforeTheSubscriptionIsReportedWithoutATrap() {
        // Spec §10.1, §30: unlike the filter-like family, Apple's stage does not trap on a request
        // made on it before the upstream's subscription arrived; `receiveRequest` sees it.
        let log = Locked<[String]>([])
        let upstream = SubscriberCapturingUpstream<Int, Never>()
        instrumented(upstream, log).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
        let stage = upstream.subscriber as? any Subscription
        #expect(stage != nil)
        stage?.request(.max(3))
        #expect(log.current == ["request(max(3))"])
    }

    @Test func failureIsObservedAndForwarded() {
        let log = Locked<[String]>([])
        let upstream = TestUpstream<Int, Boom>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Boom>()
        instrumented(upstream, log).subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        #expect(log.current == ["subscription(Up)", "request(unlimited)", "completion(\(Subscribers.Completion<Boom>.failure(.boom)))"])
        #expect(subscriber.completions == [.failure(.boom)])
    }

    @Test func cancelIsObservedOnceAndReachesUpstream() {
        let log = Locked<[String]>([])
        let upstream = TestUpstream<Int, Never>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        instrumented(upstream, log).subscribe(subscriber)
        subscriber.request(.max(3))
        subscriber.cancel()
        subscriber.cancel()
        #expect(log.current == ["subscription(Up)", "request(max(2))", "request(max(3))", "cancel"])
        #expect(upstream.calls == [.request(.max(2)), .request(.max(3)), .cancel])
    }

    @Test func droppingTheCancellableCancels() {
        // Kodeco ch. 10, handleEvents: a pipeline whose cancellable is not kept prints "will start"
        // then "cancelled".
        let log = Locked<[String]>([])
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.handleEvents(
                receiveSubscription: { _ in log.append("Network request will start") },
                receiveOutput: { _ in log.append("Network request data received") },
                receiveCancel: { log.append("Network request cancelled") }
            ).subscribe(subscriber)
            let cancellable = AnyCancellable(subscriber)
            _ = cancellable
        }
        #expect(log.current == ["Network request will start", "Network request cancelled"])
        #expect(!upstream.hasSubscriber)
    }

    @Test func bookAssignHappensBeforeCompletionHandler() {
        // Kodeco ch. 16, "assign(to:on:)": prints `1 Unknown` then `2 Shai`.
        final class Person {
            var name = "Unknown"
        }
        let person = Person()
        var lines = ["1 \(person.name)"]
        var subscriptions = Set<AnyCancellable>()
        Just("Shai")
            .handleEvents(receiveCompletion: { _ in lines.append("2 \(person.name)") })
            .assign(to: \.name, on: person)
            .store(in: &subscriptions)
        #expect(lines == ["1 Unknown", "2 Shai"])
    }

    @Test func bookAllFiveClosuresInApplesOrder() {
        // Using Combine, reference: handleEvents, with every closure; shipping order is
        // subscription, request, output, completion.
        var lines: [String] = []
        let cancellable = [1, 2].publisher
            .handleEvents(
                receiveSubscription: { lines.append("receiveSubscription event called with \(String(describing: $0))") },
                receiveOutput: { lines.append("receiveOutput was invoked with \(String(describing: $0))") },
                receiveCompletion: { lines.append("receiveCompletion event called with \(String(describing: $0))") },
                receiveCancel: { lines.append("receiveCancel event invoked") },
                receiveRequest: { lines.append("receiveRequest event called with \(String(describing: $0))") })
            .sink { _ in }
        #expect(lines == [
            "receiveSubscription event called with [1, 2]",
            "receiveRequest event called with unlimited",
            "receiveOutput was invoked with 1",
            "receiveOutput was invoked with 2",
            "receiveCompletion event called with finished",
        ])
        _ = cancellable
    }

    @Test func nilClosuresAreSkipped() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.handleEvents().subscribe(subscriber)
        upstream.send(4)
        #expect(subscriber.values == [4])
    }

    @Test func closuresAreMutableProperties() {
        var publisher = TestUpstream<Int, Never>().handleEvents()
        #expect(publisher.receiveOutput == nil)
        publisher.receiveOutput = { _ in }
        #expect(publisher.receiveOutput != nil)
        let direct = Publishers.HandleEvents(upstream: EquatableUpstream(id: 3), receiveRequest: nil)
        #expect(direct.upstream == EquatableUpstream(id: 3))
    }

    @Test func reflection() throws {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.handleEvents().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "HandleEvents")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "HandleEvents")
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == [])
    }

    @Test func releasedAfterCompletion() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.handleEvents(receiveOutput: { _ in }).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(completion: .finished)
        }
        #expect(weakSubscription == nil)
    }
}

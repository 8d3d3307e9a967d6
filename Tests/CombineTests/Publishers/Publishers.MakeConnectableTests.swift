import Combine
import Foundation
import Testing
import TestSupport

@Suite("Publishers.MakeConnectable")
struct MakeConnectableTests {
    @Test func bookNothingUntilConnect() {
        // Using Combine, reference: makeConnectable: `Just("woot").makeConnectable()`; the sink
        // receives nothing until connect().
        var received: [String] = []
        var cancellables = Set<AnyCancellable>()
        let publisher = Just("woot").makeConnectable()
        publisher.sink { received.append($0) }.store(in: &cancellables)
        #expect(received.isEmpty)
        publisher.connect().store(in: &cancellables)
        #expect(received == ["woot"])
    }

    @Test func upstreamIsNotSubscribedBeforeConnect() {
        let upstream = TestUpstream<Int, Never>()
        let connectable = upstream.makeConnectable()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        connectable.subscribe(first)
        connectable.subscribe(second)
        #expect(upstream.subscriptionCount == 0)
        let connection = connectable.connect()
        #expect(upstream.subscriptionCount == 1)
        upstream.send(1)
        upstream.send(2)
        #expect(first.values == [1, 2])
        #expect(second.values == [1])
        connection.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func copiesShareTheConnection() {
        let upstream = TestUpstream<Int, Never>()
        let original = upstream.makeConnectable()
        let copy = original
        let subscriber = TrackingSubscriber<Int, Never>()
        copy.subscribe(subscriber)
        let connection = original.connect()
        upstream.send(4)
        #expect(subscriber.values == [4])
        withExtendedLifetime(connection) {}
    }

    @Test func subscriptionDescription() throws {
        let subscriber = TrackingSubscriber<Int, Never>()
        TestUpstream<Int, Never>().makeConnectable().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Multicast")
    }

    @Test func releasedAfterDisconnect() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let connectable = upstream.makeConnectable()
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            connectable.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            let connection = connectable.connect()
            subscriber.cancel()
            connection.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }
}

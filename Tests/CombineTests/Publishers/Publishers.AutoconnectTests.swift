import Combine
import Foundation
import Testing
import TestSupport

/// A connectable publisher for tests that counts `connect()` calls and disconnections.
private final class CountingConnectable: ConnectablePublisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    let subject = PassthroughSubject<Int, Never>()
    private let lock = NSLock()
    private var _connects = 0
    private var _disconnects = 0
    var connects: Int { lock.withLock { _connects } }
    var disconnects: Int { lock.withLock { _disconnects } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subject.subscribe(subscriber)
    }

    func connect() -> any Cancellable {
        lock.withLock { _connects += 1 }
        return AnyCancellable { [self] in lock.withLock { _disconnects += 1 } }
    }
}

/// A connectable publisher that hands every subscriber the same recording subscription at once.
private final class HandingConnectable: ConnectablePublisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    let subscription = RecordingSubscription(name: "Handed")
    var subscribers: [AnySubscriber<Int, Never>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscribers.append(AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
    }

    func connect() -> any Cancellable { AnyCancellable {} }
}

/// A connectable publisher whose connections are objects of their own (not `AnyCancellable`,
/// which cancels itself when released), each logging its connect and its cancels.
private final class LoggingConnectable: ConnectablePublisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    final class Connection: Cancellable {
        let number: Int
        let owner: LoggingConnectable
        init(number: Int, owner: LoggingConnectable) {
            self.number = number
            self.owner = owner
        }
        func cancel() { owner.log.append("disconnect#\(number)") }
    }

    let subject = PassthroughSubject<Int, Never>()
    let log = Locked<[String]>([])
    private var connections = 0

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subject.subscribe(subscriber)
    }

    func connect() -> any Cancellable {
        connections += 1
        log.append("connect#\(connections)")
        return Connection(number: connections, owner: self)
    }
}

/// A subscriber that runs `onSubscription` from inside its first `receive(subscription:)`.
private final class NestingSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var onSubscription: (() -> Void)?
    var subscription: (any Subscription)?
    init(onSubscription: @escaping () -> Void) { self.onSubscription = onSubscription }
    func receive(subscription: any Subscription) {
        self.subscription = subscription
        let body = onSubscription
        onSubscription = nil
        body?()
    }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}

@Suite("Publishers.Autoconnect")
struct AutoconnectTests {
    @Test func connectsOnFirstSubscriberOnly() {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        #expect(upstream.connects == 0)
        let first = TrackingSubscriber<Int, Never>()
        auto.subscribe(first)
        #expect(upstream.connects == 1)
        let second = TrackingSubscriber<Int, Never>()
        auto.subscribe(second)
        #expect(upstream.connects == 1)
        upstream.subject.send(3)
        #expect(first.values == [3])
        #expect(second.values == [3])
        #expect(auto.upstream === upstream)
    }

    /// Two subscribers attached to an `autoconnect` over a counting connectable publisher.
    private func attachTwo() -> (CountingConnectable, Publishers.Autoconnect<CountingConnectable>,
                                 TrackingSubscriber<Int, Never>, TrackingSubscriber<Int, Never>) {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        auto.subscribe(first)
        auto.subscribe(second)
        return (upstream, auto, first, second)
    }

    @Test func disconnectsWhenTheLastSubscriberCancels() {
        let (upstream, auto, first, second) = attachTwo()
        first.cancel()
        #expect(upstream.disconnects == 0)
        second.cancel()
        #expect(upstream.disconnects == 1)
        auto.subscribe(TrackingSubscriber<Int, Never>())
        #expect(upstream.connects == 2)
    }

    @Test func everyCancelUncountsASubscriber() throws {
        // Spec §5: Apple's wrapper uncounts a subscriber on every `cancel()`, so one subscriber
        // cancelling twice disconnects although another is still attached.
        let (upstream, _, first, _) = attachTwo()
        let subscription = try #require(first.subscription)
        subscription.cancel()
        #expect(upstream.disconnects == 0)
        subscription.cancel()
        #expect(upstream.disconnects == 1)
    }

    @Test func subscriberCancellingAtOnceLeavesItDisconnected() {
        final class Impatient: Subscriber {
            typealias Input = Int
            typealias Failure = Never
            func receive(subscription: any Subscription) { subscription.cancel() }
            func receive(_ input: Int) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        auto.subscribe(Impatient())
        #expect(upstream.connects == 1)
        #expect(upstream.disconnects == 1)
        let next = TrackingSubscriber<Int, Never>()
        auto.subscribe(next)
        #expect(upstream.connects == 2)
        next.cancel()
        #expect(upstream.disconnects == 2)
    }

    @Test func aSubscriberAttachedFromTheFirstOnesSubscriptionConnectsAgainNestedFirst() {
        // Spec §5, §30: the first subscriber's `receive(subscription:)` subscribes a second one
        // before the first connection is recorded. Apple's parent connects for each, the nested
        // call first, and keeps the outer connection; the first cancel disconnects it, the second
        // does nothing. (Ours also cancels the superseded connection, which Apple drops.)
        let upstream = LoggingConnectable()
        let auto = upstream.autoconnect()
        let second = TrackingSubscriber<Int, Never>()
        let first = NestingSubscriber { auto.subscribe(second) }
        auto.subscribe(first)
        #expect(upstream.log.current == ["connect#1", "connect#2", "disconnect#1"])
        first.subscription?.cancel()
        #expect(upstream.log.current == ["connect#1", "connect#2", "disconnect#1", "disconnect#2"])
        second.cancel()
        #expect(upstream.log.current == ["connect#1", "connect#2", "disconnect#1", "disconnect#2"])
    }

    @Test func upstreamFacingSubscriberShowsItselfAsAutoconnect() throws {
        // Spec §28, §30: description and playground description "Autoconnect", mirror children
        // `parent` and `downstream`.
        let upstream = SubscriberCapturingUpstream<Int, Never>()
        let connectable = ConnectableCapture(upstream: upstream)
        let auto = connectable.autoconnect()
        let subscriber = TrackingSubscriber<Int, Never>()
        auto.subscribe(subscriber)
        let stage = upstream.subscriber
        #expect(String(describing: stage) == "Autoconnect")
        #expect((stage as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Autoconnect")
        #expect(!(stage is CustomDebugStringConvertible))
        let mirror = try #require((stage as? CustomReflectable)?.customMirror)
        #expect(mirror.children.map(\.label) == ["parent", "downstream"])
        #expect((mirror.children.first?.value as AnyObject?) === auto)
        #expect((mirror.children.dropFirst().first?.value as AnyObject?) === subscriber)
    }

    @Test func completedSubscribersStillCount() {
        let upstream = CountingConnectable()
        let auto = upstream.autoconnect()
        let first = TrackingSubscriber<Int, Never>()
        auto.subscribe(first)
        upstream.subject.send(completion: .finished)
        let late = TrackingSubscriber<Int, Never>()
        auto.subscribe(late)
        #expect(late.completions == [.finished])
        #expect(upstream.connects == 1)
    }

    @Test func makeConnectableAutoconnectBehavesLikeAPlainPublisher() {
        var received: [String] = []
        let cancellable = Just("woot").makeConnectable().autoconnect().sink { received.append($0) }
        #expect(received == ["woot"])
        _ = cancellable
    }

    @Test func subscriptionIsTransparentInDescriptions() throws {
        let subscriber = TrackingSubscriber<Int, Never>()
        TestUpstream<Int, Never>().makeConnectable().autoconnect().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Multicast")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Multicast")
        // Spec §28: Apple's wrapper has no mirror of its own.
        #expect(!(subscription is CustomReflectable))
    }

    @Test func subscriptionPassesTheUpstreamsThrough() throws {
        // Spec §5, §11: the wrapper reports the upstream subscription's description and
        // identifier, ignores `request(.none)`, forwards other requests, and passes on every
        // cancel.
        let upstream = HandingConnectable()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.autoconnect().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Handed")
        #expect(subscription.combineIdentifier == upstream.subscription.combineIdentifier)
        subscription.request(.none)
        subscription.request(.max(2))
        #expect(upstream.subscription.requests == [.max(2)])
        subscription.cancel()
        subscription.cancel()
        #expect(upstream.subscription.cancelCount == 2)
    }

    @Test func completionAndLaterEventsPassThrough() {
        // Spec §5: no terminal state of its own; the subscriber is released with the stage.
        let upstream = HandingConnectable()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.autoconnect().subscribe(subscriber)
        let attached = upstream.subscribers[0]
        attached.receive(completion: .finished)
        #expect(attached.receive(4) == .none)
        #expect(subscriber.completions == [.finished])
        #expect(subscriber.values == [4])
    }

    @Test func cancelReachesTheUpstreamSubscription() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.makeConnectable().autoconnect().subscribe(subscriber)
        #expect(upstream.calls == [.request(.unlimited)])
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func subscriberIsReleasedAtTheCancelEvenWhileItHoldsItsSubscription() {
        // The subscriber keeps its subscription; Apple's chain still lets go of it at the cancel.
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        let multicast = TestUpstream<Int, Never>().multicast { PassthroughSubject<Int, Never>() }
        let auto = multicast.autoconnect()
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            auto.subscribe(subscriber)
            subscriber.subscription?.cancel()
        }
        #expect(weakSubscriber == nil)
    }

    @Test func releasedAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.makeConnectable().autoconnect().subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }

    @Test(.tags(.concurrency)) func concurrentFirstSubscribersConnectOnce() {
        for _ in 0..<20 {
            let upstream = CountingConnectable()
            let auto = upstream.autoconnect()
            let subscribers = (0..<8).map { _ in TrackingSubscriber<Int, Never>() }
            onThreadsBlocking(subscribers.count) { auto.subscribe(subscribers[$0]) }
            #expect(upstream.connects == 1)
            onThreadsBlocking(subscribers.count) { subscribers[$0].cancel() }
            #expect(upstream.disconnects == 1)
        }
    }
}

/// A connectable publisher that hands every subscriber to `upstream` and connects to nothing.
private struct ConnectableCapture: ConnectablePublisher {
    typealias Output = Int
    typealias Failure = Never
    let upstream: SubscriberCapturingUpstream<Int, Never>
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        upstream.receive(subscriber: subscriber)
    }
    func connect() -> any Cancellable { AnyCancellable {} }
}

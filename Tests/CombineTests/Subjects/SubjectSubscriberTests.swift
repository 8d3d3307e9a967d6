import Combine
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

/// The subscriber that connects an upstream to a subject (`subscribe(_:)` with a subject, and
/// `connect()` of `multicast`), at the edges where Apple's differs from a plain relay (spec §18).
@Suite("SubjectSubscriber")
struct SubjectSubscriberTests {
    @Test func eventsBeforeTheSubscriptionAreIgnored() {
        let upstream = LateSubscriptionUpstream<Int, Boom>()
        let subject = PassthroughSubject<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        subject.subscribe(subscriber)
        let connection = upstream.subscribe(subject)
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription("PassthroughSubject")])
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [2])
        #expect(subscriber.completions == [.finished])
        #expect(subscription.requests == [.unlimited])
        withExtendedLifetime(connection) {}
    }

    @Test func aCancelBeforeTheSubscriptionDoesNothing() {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let connection = upstream.subscribe(subject)
        upstream.cancelSubscriber()
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        upstream.send(3)
        #expect(!subscription.isCancelled)
        #expect(subscription.requests == [.unlimited])
        #expect(subscriber.values == [3])
        connection.cancel()
        #expect(subscription.cancelCount == 1)
    }

    @Test func aSecondSubscriptionIsIgnoredWithoutACancel() {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        subject.subscribe(TrackingSubscriber<Int, Never>())
        let connection = upstream.subscribe(subject)
        let first = RecordingSubscription(name: "first")
        let second = RecordingSubscription(name: "second")
        upstream.send(subscription: first)
        upstream.send(subscription: second)
        #expect(!second.isCancelled)
        #expect(second.requests.isEmpty)
        connection.cancel()
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 0)
    }

    @Test func afterTheCompletionACancelDoesNotReachTheUpstreamAndItIsReleased() {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let connection = upstream.subscribe(subject)
        weak var weakSubscription: RecordingSubscription?
        do {
            let subscription = RecordingSubscription()
            weakSubscription = subscription
            upstream.send(subscription: subscription)
        }
        #expect(weakSubscription != nil)
        upstream.send(completion: .finished)
        #expect(weakSubscription == nil)
        connection.cancel()
    }

    @Test func aCancelDuringTheCompletionDoesNotReachTheFinishedUpstream() {
        // A deliberate difference (deviations.md, keep-multicast-upstream-release): Apple's
        // connection still holds the upstream's subscription while the completion is delivered,
        // so a subscriber tidying up in its completion handler cancels the finished upstream.
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let connection = Locked<AnyCancellable?>(nil)
        let cancelling = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: { _ in .none },
            receiveCompletion: { _ in connection.current?.cancel() }
        )
        subject.subscribe(cancelling)
        connection.withLock { $0 = upstream.subscribe(subject) }
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        upstream.send(completion: .finished)
        #expect(subscription.cancelCount == 0)
    }

    @Test func aSubscriptionArrivingWhenTheSubjectIsGoneIsNotKept() {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
        let connection = upstream.subscribe(subject!)
        subject = nil
        weak var weakSubscription: RecordingSubscription?
        do {
            let subscription = RecordingSubscription()
            weakSubscription = subscription
            upstream.send(subscription: subscription)
            #expect(!subscription.isCancelled)
        }
        #expect(weakSubscription == nil)
        withExtendedLifetime(connection) {}
    }

    /// A subject that goes away while its connection is still held is released, cancels its
    /// upstream, and lets go of the connection's subscriber, whichever of them holds what: the
    /// subscriber reaches a `PassthroughSubject` through the subject's internals, which keep it in
    /// their list of upstreams.
    @Test(arguments: [false, true])
    func aSubjectThatGoesAwayReleasesItsConnection(sendsAValueFirst: Bool) {
        final class Attaching: Publisher {
            typealias Output = Int
            typealias Failure = Never
            weak var attached: AnyObject?
            var subscriber: AnySubscriber<Int, Never>?
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                attached = subscriber as AnyObject
                self.subscriber = AnySubscriber(subscriber)
            }
        }
        let upstream = Attaching()
        let subscription = RecordingSubscription()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var connection: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            connection = upstream.subscribe(subject)
            upstream.subscriber?.receive(subscription: subscription)
            if sendsAValueFirst {
                let received = Locked<[Int]>([])
                let sink = subject.sink { value in received.withLock { $0.append(value) } }
                #expect(upstream.subscriber?.receive(5) == Subscribers.Demand.none)
                #expect(received.current == [5])
                sink.cancel()
            }
        }
        #expect(weakSubject == nil)
        #expect(subscription.cancelCount == 1)
        // Nothing left to send to: a late value is dropped without a trap.
        #expect(upstream.subscriber?.receive(6) == Subscribers.Demand.none)
        #expect(upstream.attached != nil)
        upstream.subscriber = nil
        #expect(upstream.attached != nil, "the connection still holds it")
        connection?.cancel()
        connection = nil
        #expect(upstream.attached == nil)
    }

    @Test func mirrorShowsApplesLabels() throws {
        // Spec §28: `downstreamSubject`, `upstreamSubscription` (nil until it arrives), `subject`.
        final class Capturing: Publisher {
            typealias Output = Int
            typealias Failure = Never
            var attached: (any Subscriber)?
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                attached = subscriber
            }
        }
        let upstream = Capturing()
        let subject = PassthroughSubject<Int, Never>()
        let connection = upstream.subscribe(subject)
        let attached = try #require(upstream.attached)
        #expect(String(describing: attached) == "Subject")
        let before = Array(Mirror(reflecting: attached).children)
        #expect(before.map(\.label) == ["downstreamSubject", "upstreamSubscription", "subject"])
        #expect(String(describing: before[1].value) == "nil")
        #expect((before[0].value as? PassthroughSubject<Int, Never>) === subject)
        let subscription = RecordingSubscription(name: "Upstream")
        (attached as? any Subscriber<Int, Never>)?.receive(subscription: subscription)
        let after = Mirror(reflecting: attached).children.map { String(describing: $0.value) }
        #expect(after[1] == "Optional(Upstream)")
        withExtendedLifetime(connection) {}
    }
}

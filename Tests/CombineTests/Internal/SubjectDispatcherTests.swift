import Combine
import Foundation
import TestSupport
import Testing

/// The delivery rules every subject shares (one delivering thread at a time; what that thread sends
/// from inside a subscriber is nested, as Apple does; a send from another thread meanwhile waits
/// until its value has been delivered), seen through the public subjects.
@Suite("SubjectDispatcher", .tags(.concurrency))
struct SubjectDispatcherTests {
    @Test func reentrantSendIsNestedAsOnApplePlatforms() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let first = subject.sink { value in
            log.append("a\(value)")
            if value == 1 {
                subject.send(2)
                log.append("a sent 2")
            }
        }
        let second = subject.sink { log.append("b\($0)") }
        subject.send(1)
        // Apple's order: the nested send reaches everyone before it returns, so the subscriber
        // after the sender sees 2 before 1.
        #expect(log == ["a1", "a2", "b2", "a sent 2", "b1"])
        _ = (first, second)
    }

    @Test func completionSentReentrantlyEndsTheDeliveryInProgress() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let first = subject.sink(receiveCompletion: { _ in log.append("a end") }) { value in
            log.append("a\(value)")
            if value == 1 {
                subject.send(2)
                subject.send(completion: .finished)
                subject.send(3)
            }
        }
        let second = subject.sink(receiveCompletion: { _ in log.append("b end") }) { log.append("b\($0)") }
        subject.send(1)
        // The completion nested in value 1's delivery reaches `b` before 1 would: `b` never gets 1
        // (Apple's conduits drop it the same way), and 3 is ignored.
        #expect(log == ["a1", "a2", "b2", "a end", "b end"])
        _ = (first, second)
    }

    // As with Apple's subjects: not the value in progress, but a value sent nested after it
    // subscribed, and everything later.
    @Test func subscriberAddedDuringDeliveryGetsOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
        var late: [Int] = []
        var lateCancellable: AnyCancellable?
        let first = subject.sink { value in
            if value == 1 {
                lateCancellable = subject.sink { late.append($0) }
                subject.send(10)
            }
        }
        subject.send(1)
        subject.send(2)
        #expect(late == [10, 2])
        _ = (first, lateCancellable)
    }

    @Test func currentValueSubscriberAddedInsideASubscriberGetsTheValueAtOnce() {
        let subject = CurrentValueSubject<Int, Never>(7)
        var log: [String] = []
        var inner: AnyCancellable?
        let outer = subject.sink { value in
            log.append("outer \(value)")
            if inner == nil {
                inner = subject.sink { log.append("inner \($0)") }
                log.append("subscribed")
            }
        }
        #expect(log == ["outer 7", "inner 7", "subscribed"])
        _ = (outer, inner)
    }

    // Apple's well-known outcome: a @Published property set from inside its own publisher's
    // subscriber ends with the outer value, because the outer set stores its value after the
    // nested one was delivered and stored.
    @Test func publishedSetFromItsOwnSubscriberIsOverwrittenByTheOuterSet() {
        final class Model: ObservableObject {
            @Published var text = ""
        }
        let model = Model()
        var seen: [String] = []
        let cancellable = model.$text.sink { value in
            seen.append(value)
            if value.count > 3 { model.text = String(value.prefix(3)) }
        }
        model.text = "abcdef"
        #expect(seen == ["", "abcdef", "abc"])
        #expect(model.text == "abcdef")
        _ = cancellable
    }

    @Test func sendFromAnotherThreadWhileNestedStillWaitsItsTurn() async {
        let subject = PassthroughSubject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let log = Locked<[Int]>([])
        let cancellable = subject.sink { value in
            log.withLock { $0.append(value) }
            if value == 1 {
                entered.signal()
                release.wait()
                subject.send(2)
            }
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
            subject.send(1)
            done.signal()
        }.start()
        entered.wait()
        // Another thread is delivering: this send waits for it, and returns once 10 is delivered.
        let sentTen = DispatchSemaphore(value: 0)
        let tenDeliveredWhenSendReturned = Locked(false)
        Thread {
            subject.send(10)
            tenDeliveredWhenSendReturned.withLock { $0 = log.withLock { $0.contains(10) } }
            sentTen.signal()
        }.start()
        release.signal()
        done.wait()
        sentTen.wait()
        // The busy thread's nested 2 comes first, whenever 10 was sent: 10 cannot be delivered
        // while the busy thread is inside its delivery of 1.
        #expect(log.withLock { $0 } == [1, 2, 10])
        #expect(tenDeliveredWhenSendReturned.withLock { $0 })
        _ = cancellable
    }

    @Test func subscriberCancelledDuringDeliveryMissesTheValueAndIsReleased() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSecond: TrackingSubscriber<Int, Never>?
        var first: AnyCancellable?
        do {
            let second = TrackingSubscriber<Int, Never>()
            weakSecond = second
            first = subject.sink { [weak second] _ in second?.cancel() }
            subject.subscribe(second)
        }
        #expect(weakSecond != nil)
        subject.send(1)
        // Cancelled by the first subscriber before the value reached it, and let go once the
        // delivering thread was done.
        #expect(weakSecond == nil)
        _ = first
    }

    @Test func currentValueAndValuesSentDuringTheHandshakeArriveInsideIt() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = HandshakeSendingSubscriber(subject: subject)
        subject.subscribe(subscriber)
        // As on Apple's platforms, the current value arrives inside `request(_:)`, and a value the
        // subscriber sends from `receive(subscription:)` arrives before that call returns.
        #expect(subscriber.log == ["subscription", "0", "5", "subscription returned"])
        subject.send(6)
        #expect(subscriber.log.last == "6")
    }

    /// Apple's rule: a send from a thread that is not delivering returns once every subscriber has
    /// its value, even when another thread was delivering when it was made.
    @Test func sendFromAnotherThreadReturnsOnceDelivered() async {
        let subject = PassthroughSubject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let first = Locked<[Int]>([])
        let second = Locked<[Int]>([])
        let cancellables = [
            subject.sink { value in
                first.withLock { $0.append(value) }
                if value == 1 {
                    entered.signal()
                    release.wait()
                }
            },
            subject.sink { value in second.withLock { $0.append(value) } },
        ]
        let done = DispatchSemaphore(value: 0)
        Thread {
            subject.send(1)
            done.signal()
        }.start()
        entered.wait()
        let sent = DispatchSemaphore(value: 0)
        let seenOnReturn = Locked<([Int], [Int])>(([], []))
        Thread {
            subject.send(2)
            seenOnReturn.withLock { $0 = (first.withLock { $0 }, second.withLock { $0 }) }
            sent.signal()
        }.start()
        release.signal()
        done.wait()
        sent.wait()
        let (firstOnReturn, secondOnReturn) = seenOnReturn.withLock { $0 }
        #expect(firstOnReturn == [1, 2])
        #expect(secondOnReturn == [1, 2])
        _ = cancellables
    }

    /// A subscriber whose handshake overlaps another thread's delivery: what is sent to it
    /// before its `receive(subscription:)` returns (a value, then the completion) waits, and
    /// reaches it in order right after that call returns.
    @Test func valuesAndCompletionSentDuringAnOverlappingHandshakeArriveAfterIt() {
        let subject = PassthroughSubject<Int, Never>()
        let (release, sentOne, cancellable) = deliveringOne(through: subject)
        // Another thread is delivering 1: this subscriber's handshake cannot take the role.
        let late = BlockingHandshakeSubscriber()
        let subscribed = DispatchSemaphore(value: 0)
        Thread {
            subject.subscribe(late)
            subscribed.signal()
        }.start()
        late.requested.wait()
        release.signal()
        sentOne.wait()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(late.log.withLock { $0 } == ["subscription"])
        late.finishHandshake.signal()
        subscribed.wait()
        #expect(late.log.withLock { $0 } == ["subscription", "subscription returned", "2", "finished"])
        _ = cancellable
    }

    /// A CurrentValueSubject subscriber that asks for values while another thread delivers gets
    /// the value current when it asked, exactly once: its first request is queued behind the
    /// delivery in progress (and then arrives right after its handshake), or, if that delivery
    /// ended first, is answered inside the request.
    @Test func currentValueAskedForWhileAnotherThreadDeliversArrivesOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let (release, sentOne, cancellable) = deliveringOne(through: subject)
        let late = BlockingHandshakeSubscriber(waitsInHandshake: false)
        let subscribed = DispatchSemaphore(value: 0)
        Thread {
            subject.subscribe(late)
            subscribed.signal()
        }.start()
        // Released as the late subscriber is about to ask: its request almost always finds the
        // delivery of 1 still in progress.
        late.handshakeStarted.wait()
        release.signal()
        sentOne.wait()
        subscribed.wait()
        let log = late.log.withLock { $0 }
        #expect(log.filter { $0 != "subscription returned" } == ["subscription", "1"])
        #expect(log.contains("subscription returned"))
        subject.send(3)
        #expect(late.log.withLock { $0 }.last == "3")
        #expect(late.log.withLock { $0 }.count == 4)
        _ = cancellable
    }

    @Test func publishedAndObjectWillChangeKeepWillSetOrder() {
        final class Model: ObservableObject {
            @Published var count = 0
        }
        let model = Model()
        var log: [String] = []
        let willChange = model.objectWillChange.sink { log.append("will change, count \(model.count)") }
        let values = model.$count.sink { log.append("value \($0), count \(model.count)") }
        model.count = 1
        #expect(log == ["value 0, count 0", "will change, count 0", "value 1, count 0"])
        #expect(model.count == 1)
        _ = (willChange, values)
    }
}

/// Asks for values in `receive(subscription:)` and sends into the subject before returning.
private final class HandshakeSendingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let subject: CurrentValueSubject<Int, Never>
    var log: [String] = []

    init(subject: CurrentValueSubject<Int, Never>) {
        self.subject = subject
    }

    func receive(subscription: any Subscription) {
        log.append("subscription")
        subscription.request(.unlimited)
        subject.send(5)
        log.append("subscription returned")
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.append("\(input)")
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        log.append("completion")
    }
}

/// Asks for unlimited values in `receive(subscription:)`, then (unless told otherwise) stays in
/// that call until `finishHandshake` is signalled.
/// Sends 1 through `subject` from another thread to a sink that holds on to it, and returns once
/// that delivery is under way: `release` lets it end, `sentOne` is signalled when the send has
/// returned, and `cancellable` is the sink's.
private func deliveringOne<S: Subject & Sendable>(
    through subject: S
) -> (release: DispatchSemaphore, sentOne: DispatchSemaphore, cancellable: AnyCancellable)
where S.Output == Int, S.Failure == Never {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let cancellable = subject.sink { value in
        if value == 1 {
            entered.signal()
            release.wait()
        }
    }
    let sentOne = DispatchSemaphore(value: 0)
    Thread {
        subject.send(1)
        sentOne.signal()
    }.start()
    entered.wait()
    return (release, sentOne, cancellable)
}

private final class BlockingHandshakeSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let log = Locked<[String]>([])
    let handshakeStarted = DispatchSemaphore(value: 0)
    let requested = DispatchSemaphore(value: 0)
    let finishHandshake = DispatchSemaphore(value: 0)
    let waitsInHandshake: Bool

    init(waitsInHandshake: Bool = true) {
        self.waitsInHandshake = waitsInHandshake
    }

    func receive(subscription: any Subscription) {
        log.withLock { $0.append("subscription") }
        handshakeStarted.signal()
        subscription.request(.unlimited)
        requested.signal()
        if waitsInHandshake { finishHandshake.wait() }
        log.withLock { $0.append("subscription returned") }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.withLock { $0.append("\(input)") }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        log.withLock { $0.append("finished") }
    }
}

import Combine
import Foundation
import Synchronization
import TestSupport
import Testing

/// The delivery rules every subject shares (one delivering thread at a time, a FIFO queue for
/// everything sent meanwhile), seen through the public subjects.
@Suite("SubjectDispatcher")
struct SubjectDispatcherTests {
    @Test func reentrantSendReachesEverySubscriberInOrder() {
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
        // The nested send returns at once; every subscriber then sees 1 before 2.
        #expect(log == ["a1", "a sent 2", "b1", "a2", "b2"])
        _ = (first, second)
    }

    @Test func completionSentReentrantlyFollowsTheQueuedValues() {
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
        #expect(log == ["a1", "b1", "a2", "b2", "a end", "b end"])
        _ = (first, second)
    }

    @Test func subscriberAddedDuringDeliveryGetsOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
        var late: [Int] = []
        var lateCancellable: AnyCancellable?
        let first = subject.sink { value in
            if value == 1 {
                lateCancellable = subject.sink { late.append($0) }
            }
        }
        subject.send(1)
        subject.send(2)
        #expect(late == [2])
        _ = (first, lateCancellable)
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

    @Test func currentValueAndValuesSentDuringTheHandshakeArriveAfterIt() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = HandshakeSendingSubscriber(subject: subject)
        subject.subscribe(subscriber)
        // Nothing reached the subscriber before `receive(subscription:)` returned.
        #expect(subscriber.log == ["subscription", "subscription returned", "0", "5"])
        subject.send(6)
        #expect(subscriber.log.last == "6")
    }

    @Test func sendFromAnotherThreadIsDeliveredByTheBusyThread() async {
        let subject = PassthroughSubject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let threads = Mutex<[Int: UInt]>([:])
        let busyThread = Mutex<UInt>(0)
        let cancellable = subject.sink { value in
            threads.withLock { $0[value] = UInt(bitPattern: Int(bitPattern: pthread_self())) }
            if value == 1 {
                entered.signal()
                release.wait()
            }
        }
        let done = DispatchSemaphore(value: 0)
        let busy = Thread {
            busyThread.withLock { $0 = UInt(bitPattern: Int(bitPattern: pthread_self())) }
            subject.send(1)
            done.signal()
        }
        busy.start()
        entered.wait()
        // Queued behind value 1: this call returns while the other thread is still delivering.
        subject.send(2)
        #expect(threads.withLock { $0[2] } == nil)
        release.signal()
        done.wait()
        let busyID = busyThread.withLock { $0 }
        #expect(threads.withLock { $0 } == [1: busyID, 2: busyID])
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

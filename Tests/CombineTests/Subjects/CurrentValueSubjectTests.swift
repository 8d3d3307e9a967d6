import Combine
import Foundation
import TestSupport
import Testing

@Suite("CurrentValueSubject")
struct CurrentValueSubjectTests {
    @Test func bookExampleReplaysCurrentValue() {
        let subject = CurrentValueSubject<String, Never>("first value")
        var output: [String] = []
        let cancellable = subject.sink { output.append("Result: \($0)") }
        subject.send("second value")
        #expect(output == ["Result: first value", "Result: second value"])
        _ = cancellable
    }

    @Test func valueGetSet() {
        let subject = CurrentValueSubject<Int, Never>(1)
        var values: [Int] = []
        let cancellable = subject.sink { values.append($0) }
        subject.value = 2
        subject.send(3)
        #expect(subject.value == 3)
        #expect(values == [1, 2, 3])
        subject.send(completion: .finished)
        subject.send(4)
        #expect(values == [1, 2, 3])
        _ = cancellable
    }

    @Test func currentValueDeliveredOnFirstDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("CurrentValueSubject")])
        subject.value = 5
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])
        subject.value = 6
        #expect(subscriber.values == [5])
        subscriber.request(.max(1))
        subject.value = 7
        #expect(subscriber.values == [5, 7])
    }

    @Test func lateSubscriberGetsCompletionOnly() {
        let subject = CurrentValueSubject<Int, Never>(1)
        subject.send(completion: .finished)
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.finished)])
    }

    @Test func releasedAfterCancel() {
        let subject = CurrentValueSubject<Int, Never>(0)
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            subject.subscribe(subscriber)
            weakSubscriber = subscriber
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    @Test func concurrentValueSetters() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        let box = LockedBox()
        let cancellable = subject.sink { _ in box.increment() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for value in 0..<1_000 { subject.value = value } }
            }
        }
        #expect(box.count == 4_001)
        _ = cancellable
    }
}

private final class LockedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

import Combine
import Foundation
import TestSupport
import Testing

@Suite("CurrentValueSubject", .tags(.concurrency))
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

    /// The current value goes out on the first demand, and again on the next demand after values
    /// were sent while the subscriber had none: they collapse into the latest, as with Apple's
    /// subject (edge spec §23).
    @Test func currentValueDeliveredOnFirstDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("CurrentValueSubject")])
        subject.value = 5
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])
        subject.value = 6
        subject.value = 7
        #expect(subscriber.values == [5])
        subscriber.request(.max(1))
        #expect(subscriber.values == [5, 7])
        subject.value = 8
        #expect(subscriber.values == [5, 7])
        subscriber.request(.max(2))
        subject.value = 9
        #expect(subscriber.values == [5, 7, 8, 9])
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
        let box = Locked(0)
        let cancellable = subject.sink { _ in box.increment() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for value in 0..<1_000 { subject.value = value } }
            }
        }
        #expect(box.current == 4_001)
        _ = cancellable
    }

    // The current value lives outside the subject's mutex: readers and writers meet through the
    // dispatcher's writing bit and reader count. A torn or freed value shows up here as a
    // mismatch (or a crash under the address sanitizer, a report under the thread sanitizer).
    @Test func readersNeverSeeAPartlyReplacedValue() async {
        let subject = CurrentValueSubject<Labelled, Never>(Labelled(0))
        let mismatches = Locked(0)
        let cancellable = subject.sink { value in
            if !value.isConsistent { mismatches.increment() }
        }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    for number in 0..<5_000 { subject.send(Labelled(writer * 100_000 + number)) }
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<5_000 where !subject.value.isConsistent { mismatches.increment() }
                }
            }
        }
        #expect(mismatches.current == 0)
        #expect(subject.value.isConsistent)
        _ = cancellable
    }

    @Test func valueReadInsideTheSubscriberIsTheOneBeingDelivered() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var seen: [[Int]] = []
        let cancellable = subject.sink { value in seen.append([value, subject.value]) }
        subject.send(1)
        subject.value = 2
        #expect(seen == [[0, 0], [1, 1], [2, 2]])
        _ = cancellable
    }

    // A replaced value is released when the send that replaced it returns, after its delivery,
    // so its deinit may read and send (no deadlock, no spin on the subject's own writing bit).
    @Test func replacedValueMayUseTheSubjectFromItsDeinit() {
        let subject = CurrentValueSubject<Token?, Never>(nil)
        var received: [String] = []
        let cancellable = subject.sink { received.append($0?.name ?? "nil") }
        subject.send(Token("first") { [weak subject] in
            received.append("deinit sees \(subject?.value?.name ?? "nil")")
            subject?.send(Token("from deinit") {})
        })
        subject.send(Token("second") {})
        #expect(received == ["nil", "first", "second", "deinit sees second", "from deinit"])
        #expect(subject.value?.name == "from deinit")
        _ = cancellable
    }

    @Test func sendFromInsideASubscriberIsNestedAndBecomesTheValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var log: [String] = []
        let first = subject.dropFirst().sink { value in
            log.append("a\(value) sees \(subject.value)")
            if value == 1 { subject.send(2) }
        }
        let second = subject.dropFirst().sink { value in log.append("b\(value) sees \(subject.value)") }
        subject.send(1)
        // Apple's order; the nested send already replaced the value when `b` gets 1.
        #expect(log == ["a1 sees 1", "a2 sees 2", "b2 sees 2", "b1 sees 2"])
        #expect(subject.value == 2)
        _ = (first, second)
    }

    @Test func sendsAfterCompletionLeaveTheValueAlone() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var received: [Int] = []
        var completions = 0
        let cancellable = subject.sink(receiveCompletion: { _ in completions += 1 }) { value in
            received.append(value)
            if value == 1 {
                // Queued behind the value in progress, then everything after it is ignored.
                subject.send(completion: .finished)
                subject.send(2)
            }
        }
        subject.send(1)
        subject.send(3)
        #expect(subject.value == 1)
        // Apple's `value` setter still changes the value after completion; nothing is sent.
        subject.value = 4
        #expect(received == [0, 1])
        #expect(completions == 1)
        #expect(subject.value == 4)
        _ = cancellable
    }
}

/// A value whose two halves must agree: a reader that sees them differ saw a half-written value.
struct Labelled: Sendable {
    let number: Int
    let label: String
    init(_ number: Int) {
        self.number = number
        label = "value \(number)"
    }
    var isConsistent: Bool { label == "value \(number)" }
}

/// A value that runs `onDeinit` when the last copy goes.
private final class Token {
    let name: String
    let onDeinit: () -> Void
    init(_ name: String, onDeinit: @escaping () -> Void) {
        self.name = name
        self.onDeinit = onDeinit
    }
    deinit { onDeinit() }
}

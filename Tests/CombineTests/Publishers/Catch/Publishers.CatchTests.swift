import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }
private enum Other: Error, Equatable { case other }

@Suite("Publishers.Catch")
struct CatchTests {
    @Test func switchesOnceToTheReplacement() {
        let upstream = TestUpstream<String, Boom>(name: "Original")
        let replacement = TestUpstream<String, Never>(name: "Replacement")
        var handlerCalls: [Boom] = []
        let subscriber = TrackingSubscriber<String, Never>()
        upstream.catch { error -> TestUpstream<String, Never> in
            handlerCalls.append(error)
            return replacement
        }.subscribe(subscriber)
        upstream.send("oneValue")
        upstream.send("twoValue")
        upstream.send(completion: .failure(.boom))
        // The original is gone: later events from it are ignored.
        upstream.send("redValue")
        upstream.send(completion: .finished)
        replacement.send("replacement value")
        replacement.send(completion: .finished)
        #expect(handlerCalls == [.boom])
        #expect(subscriber.events == [
            .subscription("Catch"), .value("oneValue"), .value("twoValue"), .value("replacement value"), .completion(.finished),
        ])
        #expect(upstream.calls == [.request(.unlimited)])
        #expect(replacement.calls == [.request(.unlimited)])
        #expect(replacement.subscriptionCount == 1)
    }

    @Test func bookCatchDemoWithSubject() {
        // Using Combine, reference: catch. Send oneValue, twoValue, a failure, redValue, blueValue,
        // finished through `.catch { err in return Just("replacement value") }`.
        enum TestFailureCondition: Error { case anErrorExample }
        let subject = PassthroughSubject<String, any Error>()
        var received: [String] = []
        var completions: [String] = []
        let cancellable = subject
            .catch { _ in Just("replacement value") }
            .sink(receiveCompletion: { completions.append("\($0)") }, receiveValue: { received.append($0) })
        subject.send("oneValue")
        subject.send("twoValue")
        subject.send(completion: .failure(TestFailureCondition.anErrorExample))
        subject.send("redValue")
        subject.send("blueValue")
        subject.send(completion: .finished)
        #expect(received == ["oneValue", "twoValue", "replacement value"])
        #expect(completions == ["finished"])
        _ = cancellable
    }

    @Test func bookCatchTypes() {
        // Using Combine, reference: catch (its nested type spelled out); `catch` with `Just` gives
        // `Never`.
        let publisher = Future<String, any Error> { $0(.success("x")) }.catch { _ in Just("y") }
        let typed: Publishers.Catch<Future<String, any Error>, Just<String>> = publisher
        #expect(type(of: typed).Failure.self == Never.self)
    }

    @Test func finishedPassesThroughWithoutHandler() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.catch { _ -> TestUpstream<Int, Never> in
            Issue.record("handler must not run")
            return TestUpstream()
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription("Catch"), .value(1), .completion(.finished)])
    }

    @Test func outstandingDemandIsCarriedOver() {
        let upstream = TestUpstream<Int, Boom>()
        let replacement = TestUpstream<Int, Other>()
        let subscriber = TrackingSubscriber<Int, Other>(initialDemand: .max(5), demandAfterValue: { $0 == 2 ? .max(2) : .none })
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.send(2) == .max(2))
        // 5 - 2 + 2 = 5 outstanding.
        upstream.send(completion: .failure(.boom))
        #expect(replacement.calls == [.request(.max(5))])
        replacement.send(3)
        subscriber.request(.max(1))
        #expect(replacement.calls == [.request(.max(5)), .request(.max(1))])
        replacement.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription("Catch"), .value(1), .value(2), .value(3), .completion(.failure(.other))])
    }

    @Test func noDemandMeansNoRequestToTheReplacement() {
        let upstream = TestUpstream<Int, Boom>()
        let replacement = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(replacement.calls.isEmpty)
        subscriber.request(.max(2))
        #expect(replacement.calls == [.request(.max(2))])
    }

    @Test func demandRequestedWhileSwitchingIsKept() {
        let upstream = TestUpstream<Int, Boom>()
        let replacement = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.catch { _ -> TestUpstream<Int, Never> in
            subscriber.request(.max(4))
            return replacement
        }.subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        #expect(upstream.calls.isEmpty)
        #expect(replacement.calls == [.request(.max(4))])
    }

    @Test func cancelBeforeSwitchReachesTheOriginal() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.catch { _ in TestUpstream<Int, Never>() }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription("Catch")])
    }

    @Test func cancelAfterSwitchReachesTheReplacement() {
        let upstream = TestUpstream<Int, Boom>()
        let replacement = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited)])
        #expect(replacement.calls == [.request(.unlimited), .cancel])
        // Spec §17: after a cancel following the switch, values the replacement still sends are
        // passed on; its completions are not.
        replacement.send(1)
        replacement.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions.isEmpty)
    }

    @Test func afterACancelFollowingTheSwitchAValueAtZeroDemandIsForwardedWithoutATrap() {
        // Spec §17, §30: once the subscriber has cancelled after the switch, Apple's stage no
        // longer holds the replacement to the demand. A value it still sends is forwarded (and the
        // subscriber's answer returned), its completions are dropped, and a further subscription
        // from it is cancelled.
        let upstream = TestUpstream<Int, Boom>()
        let replacement = LateSubscriptionUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil, demandAfterValue: { _ in .max(4) })
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        let first = RecordingSubscription(name: "First")
        replacement.send(subscription: first)
        subscriber.cancel()
        #expect(first.requests.isEmpty)
        #expect(first.cancelCount == 1)
        #expect(replacement.send(1) == .max(4))
        #expect(replacement.send(2) == .max(4))
        replacement.send(completion: .finished)
        let second = RecordingSubscription(name: "Second")
        replacement.send(subscription: second)
        #expect(second.isCancelled)
        #expect(second.requests.isEmpty)
        #expect(subscriber.events == [.subscription("Catch"), .value(1), .value(2)])
    }

    @Test func cancelBeforeSwitchStillPassesOriginalValuesAndIgnoresItsFailure() {
        // Spec §17: values from the original upstream still arrive after a cancel; a later
        // failure does not run the handler.
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        var handlerRan = false
        upstream.catch { _ -> Just<Int> in handlerRan = true; return Just(9) }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.values == [1])
        #expect(!handlerRan)
        #expect(upstream.calls == [.request(.max(3)), .cancel])
    }

    @Test func upstreamFacingObjectIsNotCancellable() {
        // Spec §17/§28: the subscriber attached upstream is not the downstream's subscription.
        let upstream = CapturingUpstream()
        _ = upstream.catch { _ in Just(9) }.sink { _ in }
        #expect(!(upstream.subscriber is any Cancellable))
        #expect(String(describing: upstream.subscriber!) == "Catch")
    }

    @Test func valueBeyondDemandTraps() async {
        // Spec §10 rule 3.
        await #expect(processExitsWith: .failure) {
            let upstream = TestUpstream<Int, Boom>()
            upstream.catch { _ in Just(9) }.subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
            upstream.send(1)
        }
    }

    @Test func secondFailureOfTheOriginalTraps() async {
        // Spec §10 rule 4.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestUpstream<Int, Boom>()
            upstream.catch { _ in Empty<Int, Never>(completeImmediately: false) }.subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(completion: .failure(.boom))
            upstream.send(completion: .failure(.boom))
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("catch received a second failure"))
    }

    @Test(.tags(.concurrency)) func cancelRacingTheSwitchNeitherCrashesNorCompletes() {
        for _ in 0..<200 {
            let upstream = ReleasingTestUpstream<Int, Boom>()
            let replacement = ReleasingTestUpstream<Int, Never>()
            let subscriber = TrackingSubscriber<Int, Never>()
            upstream.catch { _ in replacement }.subscribe(subscriber)
            onThreadsBlocking(2) { worker in
                if worker == 0 { upstream.send(completion: .failure(.boom)) } else { subscriber.cancel() }
            }
            // A cancel that lands while the handler's publisher is being subscribed is ignored, as
            // on Apple's platforms (edge spec §17), so the replacement may stay subscribed; the race
            // must still neither crash nor complete the cancelled subscriber.
            #expect(subscriber.completions.isEmpty)
        }
    }

    // MARK: Values that take no lock (unlimited demand)

    /// One scripted step of ``lockFreeAndLockedValuesAgree(_:)``.
    enum Step: Sendable {
        case original(Int), originalFinished, originalFailed, replacement(Int), replacementFinished, cancel
    }

    /// With unlimited demand values skip the stage's lock; with a large finite demand they are
    /// counted under it. Both must pass on, drop and complete exactly the same events.
    @Test(arguments: [
        [Step.original(1), .cancel, .original(2), .originalFailed, .original(3)],
        [.original(1), .originalFailed, .original(2), .replacement(3), .replacementFinished, .replacement(4)],
        [.original(1), .originalFinished, .original(2), .originalFailed],
        [.original(1), .originalFailed, .cancel, .replacement(2), .replacementFinished, .replacement(3)],
        [.original(1), .originalFailed, .replacement(2), .cancel, .replacement(3), .original(4)],
    ])
    func lockFreeAndLockedValuesAgree(_ steps: [Step]) {
        func run(_ demand: Subscribers.Demand) -> (events: [TrackedEvent<Int, Never>], handlerCalls: Int) {
            let upstream = TestUpstream<Int, Boom>()
            let replacement = TestUpstream<Int, Never>()
            let subscriber = TrackingSubscriber<Int, Never>(initialDemand: demand)
            var handlerCalls = 0
            upstream.catch { _ -> TestUpstream<Int, Never> in
                handlerCalls += 1
                return replacement
            }.subscribe(subscriber)
            for step in steps {
                switch step {
                case .original(let value): upstream.send(value)
                case .originalFinished: upstream.send(completion: .finished)
                case .originalFailed: upstream.send(completion: .failure(.boom))
                case .replacement(let value): replacement.send(value)
                case .replacementFinished: replacement.send(completion: .finished)
                case .cancel: subscriber.cancel()
                }
            }
            return (subscriber.events, handlerCalls)
        }
        let lockFree = run(.unlimited), locked = run(.max(1_000))
        #expect(lockFree.events == locked.events)
        #expect(lockFree.handlerCalls == locked.handlerCalls)
    }

    @Test func demandThatBecomesUnlimitedMidStreamIsCarriedOver() {
        let upstream = TestUpstream<Int, Boom>()
        let replacement = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.request(.unlimited)
        for value in 3...100 { upstream.send(value) }
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.values == Array(1...100))
        #expect(upstream.calls == [.request(.max(2)), .request(.unlimited)])
        #expect(replacement.calls == [.request(.unlimited)])
    }

    @Test func aFiniteAnswerLeavesUnlimitedDemandUnlimited() {
        // Unlimited demand stays unlimited whatever the subscriber returns for a value; the
        // upstream still sees the subscriber's answer.
        let upstream = TestUpstream<Int, Boom>()
        let replacement = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .unlimited, demandAfterValue: { _ in .max(1) })
        upstream.catch { _ in replacement }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        upstream.send(completion: .failure(.boom))
        #expect(replacement.calls == [.request(.unlimited)])
        #expect(replacement.send(3) == .max(1))
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test(.tags(.concurrency)) func cancelFromAnotherThreadDuringAStreamOfValues() throws {
        // The subject lets go of the stage when the cancel reaches it, so nothing the sender sends
        // after seeing the cancel return arrives; what did arrive is an unbroken run from the
        // first value, and the later failure runs no handler.
        final class Marks: @unchecked Sendable {
            let cancelReturned = Locked(false)
            var firstSentAfterCancel: Int?
            let handlerCalls = Locked(0)
        }
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Boom>()
            let subscriber = SerializationCheckingSubscriber<Int, Never>()
            let marks = Marks()
            subject.catch { _ -> Just<Int> in
                marks.handlerCalls.increment()
                return Just(-1)
            }.subscribe(subscriber)
            onThreadsBlocking(2) { worker in
                if worker == 0 {
                    // Keeps sending until well after the cancel has returned, then fails. No cap
                    // on the count: the canceller is a thread of its own and cancels within a
                    // bounded wait, however late the machine lets it start.
                    var value = 0
                    while true {
                        value += 1
                        if let first = marks.firstSentAfterCancel {
                            if value >= first + 100 { break }
                        } else if marks.cancelReturned.current {
                            marks.firstSentAfterCancel = value
                        }
                        subject.send(value)
                    }
                    subject.send(completion: .failure(.boom))
                } else {
                    var spins = 0
                    while subscriber.values.count < 50, spins < 100_000 { spins += 1; sched_yield() }
                    subscriber.cancel()
                    marks.cancelReturned.withLock { $0 = true }
                }
            }
            let values = subscriber.values
            #expect(values.first == 1)
            #expect(subscriber.valuesAreConsecutive)
            let first = try #require(marks.firstSentAfterCancel)
            #expect(values.allSatisfy { $0 < first })
            #expect(subscriber.completions.isEmpty)
            #expect(marks.handlerCalls.current == 0)
            #expect(subscriber.overlaps == 0)
        }
    }

    @Test(.tags(.concurrency)) func demandBecomingUnlimitedOnAnotherThreadWhileValuesFlow() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Boom>()
            let subscriber = SerializationCheckingSubscriber<Int, Never>(initialDemand: .max(1))
            subject.catch { _ in Just(-1) }.subscribe(subscriber)
            onThreadsBlocking(2) { worker in
                if worker == 0 {
                    for value in 1...2_000 { subject.send(value) }
                } else {
                    for _ in 0..<20 { subscriber.request(.max(1)); sched_yield() }
                    subscriber.request(.unlimited)
                }
            }
            // The subject drops what it has no demand for; nothing arrives beyond the demand (a
            // value beyond it would have stopped the process), and from now on everything does.
            let before = subscriber.values
            #expect(zip(before, before.dropFirst()).allSatisfy { $0 < $1 })
            for value in 2_001...2_010 { subject.send(value) }
            subject.send(completion: .failure(.boom))
            #expect(subscriber.values == before + Array(2_001...2_010) + [-1])
            #expect(subscriber.completions.count == 1)
            #expect(subscriber.overlaps == 0)
        }
    }

    @Test(.tags(.concurrency)) func failureSwitchesToTheReplacementWhileItsValuesFlow() {
        // The replacement is a subject another thread feeds all along: it delivers only once the
        // stage has subscribed to it, never interleaved with the original's values.
        final class Flag: @unchecked Sendable { let failed = Locked(false) }
        for _ in 0..<50 {
            let original = PassthroughSubject<Int, Boom>()
            let replacement = PassthroughSubject<Int, Never>()
            let subscriber = SerializationCheckingSubscriber<Int, Never>()
            let flag = Flag()
            original.catch { _ in replacement }.subscribe(subscriber)
            onThreadsBlocking(2) { worker in
                if worker == 0 {
                    for value in 1...1_000 { original.send(value) }
                    original.send(completion: .failure(.boom))
                    flag.failed.withLock { $0 = true }
                    for value in 1_001...1_100 { original.send(value) }
                } else {
                    var value = 100_000
                    var afterFailure = 0
                    while afterFailure < 500 {
                        if flag.failed.current { afterFailure += 1 }
                        value += 1
                        replacement.send(value)
                    }
                }
            }
            replacement.send(completion: .finished)
            let values = subscriber.values
            #expect(Array(values.prefix(1_000)) == Array(1...1_000))
            let fromReplacement = values.dropFirst(1_000)
            #expect(fromReplacement.count >= 500)
            #expect(zip(fromReplacement, fromReplacement.dropFirst()).allSatisfy { $1 == $0 + 1 })
            #expect(fromReplacement.allSatisfy { $0 > 100_000 })
            #expect(subscriber.completions.count == 1)
            #expect(subscriber.overlaps == 0)
        }
    }

    /// Calls into one subscriber are serialised, so a subscriber needs no lock of its own: values
    /// that skip the stage's lock, from the original and then from the replacement, each fed by
    /// two threads, still see everything earlier deliveries did (the thread sanitizer checks the
    /// plain counter).
    @Test(.tags(.concurrency)) func subscriberWithoutALockSeesEveryEarlierDelivery() {
        final class Counter: @unchecked Sendable { var count = 0 }
        let original = PassthroughSubject<Int, Boom>()
        let replacement = PassthroughSubject<Int, Never>()
        let counter = Counter()
        let cancellable = original.catch { _ in replacement }.sink { _ in counter.count += 1 }
        // See `Publishers.MergeTests.subscriberWithoutALockSeesEveryEarlierDelivery` for the count.
        let perThread = 5_000
        onThreadsBlocking(2) { _ in
            for value in 1...perThread { original.send(value) }
        }
        original.send(completion: .failure(.boom))
        onThreadsBlocking(2) { _ in
            for value in 1...perThread { replacement.send(value) }
        }
        #expect(counter.count == 4 * perThread)
        cancellable.cancel()
    }

    @Test func reflection() throws {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        let publisher = upstream.catch { _ in TestUpstream<Int, Never>() }
        #expect(publisher.upstream === upstream)
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Catch")
        // Spec §28: children `downstream` and `demand`.
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == ["downstream", "demand"])
    }

    @Test func releasedAfterReplacementCompletes() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Boom>()
        let replacement = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.catch { _ in replacement }.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(completion: .failure(.boom))
            replacement.send(9)
            replacement.send(completion: .finished)
            #expect(subscriber.values == [9])
        }
        #expect(weakSubscription == nil)
    }

    @Test func releasedAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Boom>()
        let replacement = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.catch { _ in replacement }.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(completion: .failure(.boom))
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!replacement.hasSubscriber)
    }
}

/// Keeps the subscriber attached to it, sending nothing.
private final class CapturingUpstream: Publisher {
    typealias Output = Int
    typealias Failure = Boom

    var subscriber: Any?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Boom {
        self.subscriber = subscriber
    }
}

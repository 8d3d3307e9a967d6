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
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 { upstream.send(completion: .failure(.boom)) } else { subscriber.cancel() }
            }
            // A cancel that lands while the handler's publisher is being subscribed is ignored, as
            // on Apple's platforms (edge spec §17), so the replacement may stay subscribed; the race
            // must still neither crash nor complete the cancelled subscriber.
            #expect(subscriber.completions.isEmpty)
        }
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

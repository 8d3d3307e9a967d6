import Combine
import Foundation
import Testing
import TestSupport

private enum NetworkError: Error, Equatable { case constrained, other }

@Suite("Publishers.TryCatch")
struct TryCatchTests {
    @Test func switchesToTheReplacement() {
        let primary = TestUpstream<String, NetworkError>()
        let fallback = TestUpstream<String, NetworkError>()
        let subscriber = TrackingSubscriber<String, any Error>()
        primary.tryCatch { error -> TestUpstream<String, NetworkError> in
            guard error == .constrained else { throw error }
            return fallback
        }.subscribe(subscriber)
        primary.send("a")
        primary.send(completion: .failure(.constrained))
        fallback.send("b")
        fallback.send(completion: .finished)
        #expect(subscriber.values == ["a", "b"])
        #expect(subscriber.completions.count == 1)
        #expect(subscriber.events.first?.description == "subscription(TryCatch)")
        #expect(subscriber.events.last?.description == "finished")
        #expect(fallback.calls == [.request(.unlimited)])
    }

    @Test func afterACancelFollowingTheSwitchAValueAtZeroDemandIsForwardedWithoutATrap() {
        // Spec §17, §30: as `catch`, no trap for a value the replacement sends after the cancel.
        let primary = TestUpstream<String, NetworkError>()
        let fallback = LateSubscriptionUpstream<String, NetworkError>()
        let subscriber = TrackingSubscriber<String, any Error>(initialDemand: nil)
        primary.tryCatch { _ in fallback }.subscribe(subscriber)
        primary.send(completion: .failure(.constrained))
        fallback.send(subscription: RecordingSubscription())
        subscriber.cancel()
        #expect(fallback.send("late") == .none)
        fallback.send(completion: .failure(.other))
        let extra = RecordingSubscription()
        fallback.send(subscription: extra)
        #expect(extra.isCancelled)
        #expect(subscriber.values == ["late"])
        #expect(subscriber.completions.isEmpty)
    }

    @Test func thrownErrorFailsDownstream() {
        let primary = TestUpstream<String, NetworkError>()
        let subscriber = TrackingSubscriber<String, any Error>()
        var calls = 0
        primary.tryCatch { error -> TestUpstream<String, NetworkError> in
            calls += 1
            throw error
        }.subscribe(subscriber)
        primary.send(completion: .failure(.other))
        primary.send(completion: .failure(.other))
        #expect(calls == 1)
        #expect(subscriber.completions.count == 1)
        if case .failure(let error) = subscriber.completions.first {
            #expect(error as? NetworkError == .other)
        } else {
            Issue.record("expected a failure")
        }
        #expect(primary.calls == [.request(.unlimited)])
    }

    @Test func replacementFailureIsErased() {
        let primary = TestUpstream<Int, NetworkError>()
        let fallback = TestUpstream<Int, NetworkError>()
        let subscriber = TrackingSubscriber<Int, any Error>(initialDemand: .max(3))
        primary.tryCatch { _ in fallback }.subscribe(subscriber)
        primary.send(1)
        primary.send(completion: .failure(.constrained))
        #expect(fallback.calls == [.request(.max(2))])
        fallback.send(completion: .failure(.other))
        if case .failure(let error) = subscriber.completions.first {
            #expect(error as? NetworkError == .other)
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test func cancelReachesTheActiveUpstream() {
        let primary = TestUpstream<Int, NetworkError>()
        let fallback = TestUpstream<Int, NetworkError>()
        let subscriber = TrackingSubscriber<Int, any Error>()
        primary.tryCatch { _ in fallback }.subscribe(subscriber)
        subscriber.cancel()
        #expect(primary.calls == [.request(.unlimited), .cancel])
        #expect(fallback.subscriptionCount == 0)
    }

    @Test func nothingFromEitherSourceAfterItEndedWithUnlimitedDemand() {
        // With unlimited demand values skip the stage's lock; a source's completion still closes
        // its door at once.
        let primary = TestUpstream<Int, NetworkError>()
        let fallback = TestUpstream<Int, NetworkError>()
        let subscriber = TrackingSubscriber<Int, any Error>()
        primary.tryCatch { _ in fallback }.subscribe(subscriber)
        primary.send(1)
        primary.send(completion: .failure(.constrained))
        primary.send(2)
        fallback.send(3)
        fallback.send(completion: .finished)
        fallback.send(4)
        primary.send(5)
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.completions.count == 1)
    }

    @Test func nothingAfterTheHandlerThrewWithUnlimitedDemand() {
        let primary = TestUpstream<Int, NetworkError>()
        let subscriber = TrackingSubscriber<Int, any Error>()
        primary.tryCatch { error -> TestUpstream<Int, NetworkError> in throw error }.subscribe(subscriber)
        primary.send(1)
        primary.send(completion: .failure(.other))
        primary.send(2)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions.count == 1)
    }

    @Test func reflection() throws {
        let subscriber = TrackingSubscriber<Int, any Error>()
        let publisher = TestUpstream<Int, NetworkError>().tryCatch { _ in TestUpstream<Int, NetworkError>() }
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "TryCatch")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "TryCatch")
        // Spec §28: children `downstream` and `demand`.
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == ["downstream", "demand"])
    }

    @Test func releasedAfterThrow() {
        weak var weakSubscription: AnyObject?
        let primary = ReleasingTestUpstream<Int, NetworkError>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, any Error>()
            primary.tryCatch { error -> ReleasingTestUpstream<Int, NetworkError> in throw error }.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            primary.send(completion: .failure(.other))
        }
        #expect(weakSubscription == nil)
    }

    @Test func valueBeforeTheSubscriptionTraps() async {
        // Spec §10 rule 2.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            /// Sends a value to its subscriber before any subscription.
            final class Early: Publisher {
                typealias Output = Int
                typealias Failure = NetworkError
                func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == NetworkError {
                    _ = subscriber.receive(1)
                }
            }
            Early().tryCatch { _ in Just(0) }.subscribe(TrackingSubscriber<Int, any Error>())
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("tryCatch received a value before its subscription"))
    }

}

import Combine
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private enum Boom: Error, Equatable { case boom }

/// Keeps the subscriber attached to it, so a test can drive it by hand and look at it.
private final class CapturingUpstream<Output, Failure: Error>: Publisher {
    var raw: Any?
    var subscriber: AnySubscriber<Output, Failure>?
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        raw = subscriber
        self.subscriber = AnySubscriber(subscriber)
    }
}

private typealias HandDrivenUpstream = CapturingUpstream

@Suite("Publishers.Breakpoint")
struct BreakpointTests {
    @Test func passesEverythingWhilePredicatesAreFalse() {
        let upstream = TestUpstream<Int, Boom>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: .max(2))
        upstream.breakpoint(
            receiveSubscription: { _ in false },
            receiveOutput: { value in value > 10 && value < 15 },
            receiveCompletion: { _ in false }
        ).subscribe(subscriber)
        upstream.send(1)
        upstream.send(20)
        upstream.send(completion: .failure(.boom))
        // The upstream's own subscription goes downstream, as on Apple's platforms (§5).
        #expect(subscriber.events == [.subscription("Up"), .value(1), .value(20), .completion(.failure(.boom))])
        #expect(upstream.calls == [.request(.max(2))])
    }

    @Test func breakpointOnErrorIgnoresFinished() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        upstream.breakpointOnError().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func cancelReachesUpstream() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.breakpoint().subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .request(.max(1)), .cancel])
    }

    @Test func trueOutputPredicateRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            let upstream = TestUpstream<Int, Never>()
            upstream.breakpoint(receiveOutput: { $0 == 12 }).subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(1)
            upstream.send(12)
        }
    }

    @Test func breakpointOnErrorRaisesSIGTRAPOnFailure() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            enum Failure: Error { case failed }
            let upstream = TestUpstream<Int, Failure>()
            upstream.breakpointOnError().subscribe(TrackingSubscriber<Int, Failure>())
            upstream.send(completion: .failure(.failed))
        }
    }

    @Test func trueSubscriptionPredicateRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            TestUpstream<Int, Never>().breakpoint(receiveSubscription: { _ in true }).subscribe(TrackingSubscriber<Int, Never>())
        }
    }

    @Test func reflectionAndProperties() throws {
        let upstream = CapturingUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        let publisher = upstream.breakpoint(receiveOutput: { _ in false })
        #expect(publisher.receiveOutput != nil)
        #expect(publisher.receiveSubscription == nil)
        publisher.subscribe(subscriber)
        let inner = try #require(upstream.raw)
        // Apple's stage is a plain subscriber with no mirror children, not a subscription (§5, §28).
        #expect(!(inner is any Subscription))
        #expect(String(describing: inner) == "Breakpoint")
        #expect((inner as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Breakpoint")
        #expect((inner as? CustomReflectable)?.customMirror.children.map(\.label) == [])
    }

    @Test func predicatesSeeEveryEventEvenAfterCompletion() {
        // §5: no terminal state; a second subscription is forwarded and the closures run for
        // every event, those after a completion included.
        let upstream = HandDrivenUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        var seen: [String] = []
        upstream.breakpoint(
            receiveSubscription: { _ in seen.append("sub"); return false },
            receiveOutput: { seen.append("value \($0)"); return false },
            receiveCompletion: { _ in seen.append("completion"); return false }
        ).subscribe(subscriber)
        let first = RecordingSubscription(name: "S1")
        let second = RecordingSubscription(name: "S2")
        upstream.subscriber?.receive(subscription: first)
        upstream.subscriber?.receive(completion: .finished)
        upstream.subscriber?.receive(subscription: second)
        _ = upstream.subscriber?.receive(7)
        #expect(seen == ["sub", "completion", "sub", "value 7"])
        #expect(subscriber.events == [.subscription("S1"), .completion(.finished), .subscription("S2"), .value(7)])
        #expect(!second.isCancelled)
    }

    @Test func releasedAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.breakpoint().subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }
}

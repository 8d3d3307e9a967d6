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
        #expect(subscriber.events == [.subscription("Breakpoint"), .value(1), .value(20), .completion(.failure(.boom))])
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
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        let publisher = upstream.breakpoint(receiveOutput: { _ in false })
        #expect(publisher.receiveOutput != nil)
        #expect(publisher.receiveSubscription == nil)
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Breakpoint")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Breakpoint")
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == ["downstream"])
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

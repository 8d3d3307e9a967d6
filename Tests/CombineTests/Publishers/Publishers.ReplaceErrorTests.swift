import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

@Suite("Publishers.ReplaceError")
struct ReplaceErrorTests {
    @Test func passesValuesAndReplacesFailure() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 99).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        upstream.send(2)
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription("ReplaceError"), .value(1), .value(2), .value(99), .completion(.finished)])
        #expect(upstream.calls == [.request(.unlimited)])
    }

    @Test func finishedPassesThrough() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 99).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription("ReplaceError"), .value(1), .completion(.finished)])
    }

    @Test func fallbackWaitsForDemand() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.replaceError(with: 99).subscribe(subscriber)
        #expect(upstream.calls == [.request(.max(1))])
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.values == [1])
        #expect(subscriber.completions.isEmpty)
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription("ReplaceError"), .value(1), .value(99), .completion(.finished)])
        // The upstream is gone: the late request is not forwarded.
        #expect(upstream.calls == [.request(.max(1))])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 99])
    }

    @Test func demandStepByStep() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandAfterValue: { $0 == 1 ? .max(1) : .none })
        upstream.replaceError(with: 99).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        subscriber.request(.max(4))
        #expect(upstream.calls == [.request(.max(2)), .request(.max(4))])
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.values == [1, 2, 99])
    }

    @Test func cancelReachesUpstreamAndStopsEverything() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 99).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription("ReplaceError")])
    }

    /// At unlimited demand values skip the lock; the completion still closes that path.
    @Test(arguments: [Subscribers.Completion<Boom>.finished, .failure(.boom)])
    fileprivate func valuesAfterTheCompletionAreDroppedAtUnlimitedDemand(_ completion: Subscribers.Completion<Boom>) {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 99).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: completion)
        #expect(upstream.send(2) == .none)
        let expected: [Int] = completion == .finished ? [1] : [1, 99]
        #expect(subscriber.values == expected)
        #expect(subscriber.completions == [.finished])
    }

    @Test func cancelAfterOwedFallbackDropsIt() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.replaceError(with: 99).subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("ReplaceError")])
    }

    @Test func reflection() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 99).subscribe(subscriber)
        let subscription = try! #require(subscriber.subscription)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "ReplaceError")
        let mirror = (subscription as? CustomReflectable)?.customMirror
        // Spec §28: Apple's ReplaceError shows no children.
        #expect(mirror?.children.map(\.label) == [])
    }

    @Test func specialisedOverloadsKeepTheirTypes() {
        let just: Just<Int> = Just(1).replaceError(with: 2)
        #expect(just.output == 1)
        let optional: Optional<Int>.Publisher = Optional(3).publisher.replaceError(with: 4)
        #expect(optional.output == 3)
        let success: Result<Int, Never>.Publisher = Result<Int, Boom>.success(5).publisher.replaceError(with: 6)
        #expect(success.result.get() == 5)
        let failure: Result<Int, Never>.Publisher = Result<Int, Boom>.failure(.boom).publisher.replaceError(with: 6)
        #expect(failure.result.get() == 6)
    }

    @Test func equatable() {
        let a = Publishers.ReplaceError(upstream: EquatableUpstream(id: 1), output: 5)
        #expect(a == Publishers.ReplaceError(upstream: EquatableUpstream(id: 1), output: 5))
        #expect(a != Publishers.ReplaceError(upstream: EquatableUpstream(id: 1), output: 6))
        #expect(a != Publishers.ReplaceError(upstream: EquatableUpstream(id: 2), output: 5))
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Boom>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.replaceError(with: 99).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }

    @Test func releasesEverythingAfterFailure() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Boom>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.replaceError(with: 99).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(completion: .failure(.boom))
            #expect(subscriber.values == [99])
        }
        #expect(weakSubscription == nil)
    }

    @Test func valueBeyondDemandTraps() async {
        // Spec §10 rule 3: the message names the operator and the rule.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestUpstream<Int, Boom>()
            upstream.replaceError(with: 0).subscribe(TrackingSubscriber<Int, Never>(initialDemand: .max(1)))
            upstream.send(1)
            upstream.send(2)
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("replaceError received a value beyond the outstanding demand"))
    }

}

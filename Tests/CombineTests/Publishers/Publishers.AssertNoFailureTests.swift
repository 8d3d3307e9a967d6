import Combine
import Foundation
import Testing
import TestSupport

private enum MyError: Error, Equatable { case ohNo }

/// Keeps the subscriber attached to it, so a test can look at the operator's own stage.
private final class CapturingUpstream<Output, Failure: Error>: Publisher {
    var subscriber: Any?
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
    }
}

@Suite("Publishers.AssertNoFailure")
struct AssertNoFailureTests {
    @Test func republishesValuesAndFinish() {
        let upstream = TestUpstream<String, MyError>(name: "Up")
        let subscriber = TrackingSubscriber<String, Never>(initialDemand: .max(1))
        upstream.assertNoFailure().subscribe(subscriber)
        upstream.send("Hello")
        upstream.send(completion: .finished)
        // The upstream's own subscription goes downstream, as on Apple's platforms (§5).
        #expect(subscriber.events == [.subscription("Up"), .value("Hello"), .completion(.finished)])
        #expect(upstream.calls == [.request(.max(1))])
    }

    @Test func bookJustHello() {
        // Kodeco ch. 16, "assertNoFailure": prints `Got value: Hello ` (with the trailing space).
        var printed: [String] = []
        var subscriptions = Set<AnyCancellable>()
        Just("Hello")
            .setFailureType(to: MyError.self)
            .assertNoFailure()
            .sink(receiveValue: { printed.append("Got value: \($0) ") })
            .store(in: &subscriptions)
        #expect(printed == ["Got value: Hello "])
    }

    @Test func bookTryMapThrowingCrashes() async {
        await #expect(processExitsWith: .failure) {
            enum MyError: Error { case ohNo }
            let cancellable = Just("Hello")
                .setFailureType(to: MyError.self)
                .tryMap { _ -> String in throw MyError.ohNo }
                .assertNoFailure()
                .sink(receiveValue: { _ in })
            _ = cancellable
        }
    }

    @Test func cancelReachesUpstream() {
        let upstream = TestUpstream<String, MyError>()
        let subscriber = TrackingSubscriber<String, Never>()
        upstream.assertNoFailure().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func failureAfterFinishedStillTraps() async {
        // §5, §10 rule 7: no terminal state, so a failure after `finished` still stops the process.
        await #expect(processExitsWith: .failure) {
            enum Failure: Error { case ohNo }
            let upstream = TestUpstream<Int, Failure>()
            upstream.assertNoFailure().subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(completion: .finished)
            upstream.send(completion: .failure(.ohNo))
        }
    }

    @Test func failureTrapsWithPrefixAndError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            enum Failure: Error { case ohNo }
            let upstream = TestUpstream<Int, Failure>()
            upstream.assertNoFailure("What could possibly go wrong?").subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(completion: .failure(.ohNo))
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("What could possibly go wrong? Unexpected failure: ohNo"))
    }

    @Test func propertiesRecordCallSite() {
        let line: UInt = #line + 1
        let publisher = EquatableUpstream(id: 1).assertNoFailure("p")
        #expect(publisher.prefix == "p")
        #expect(publisher.line == line)
        #expect("\(publisher.file)".hasSuffix("Publishers.AssertNoFailureTests.swift"))
        #expect(publisher.upstream == EquatableUpstream(id: 1))
    }

    @Test func fileDefaultsToTheCallersFullPath() {
        // As Apple's `#file`, which its Swift 5 module spells out as the full path; in a Swift 6
        // module `#file` is only the file ID (`CombineTests/Publishers.AssertNoFailureTests.swift`),
        // and the differential harness found the two differ in the stage's mirror.
        let publisher = EquatableUpstream(id: 1).assertNoFailure()
        #expect("\(publisher.file)" == #filePath)
    }

    @Test func reflection() throws {
        let upstream = CapturingUpstream<Int, Never>()
        upstream.assertNoFailure("p").subscribe(TrackingSubscriber<Int, Never>())
        let inner = try #require(upstream.subscriber)
        // Apple's stage is a plain subscriber, not a subscription (§5, §28).
        #expect(!(inner is any Subscription))
        #expect(String(describing: inner) == "AssertNoFailure")
        #expect((inner as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "AssertNoFailure")
        #expect((inner as? CustomReflectable)?.customMirror.children.map(\.label) == ["file", "line", "prefix"])
    }

    @Test func releasedAfterCompletion() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, MyError>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.assertNoFailure().subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(1)
            upstream.send(completion: .finished)
            #expect(subscriber.values == [1])
        }
        #expect(weakSubscription == nil)
    }
}

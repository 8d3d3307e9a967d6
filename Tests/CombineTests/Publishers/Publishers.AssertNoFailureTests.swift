import Combine
import Foundation
import Testing
import TestSupport

private enum MyError: Error, Equatable { case ohNo }

@Suite("Publishers.AssertNoFailure")
struct AssertNoFailureTests {
    @Test func republishesValuesAndFinish() {
        let upstream = TestUpstream<String, MyError>(name: "Up")
        let subscriber = TrackingSubscriber<String, Never>(initialDemand: .max(1))
        upstream.assertNoFailure().subscribe(subscriber)
        upstream.send("Hello")
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription("AssertNoFailure"), .value("Hello"), .completion(.finished)])
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
        // After cancel a failure is ignored rather than trapping.
        upstream.send(completion: .failure(.ohNo))
        #expect(subscriber.completions.isEmpty)
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

    @Test func reflection() throws {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.assertNoFailure().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "AssertNoFailure")
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == ["downstream", "prefix", "file", "line"])
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

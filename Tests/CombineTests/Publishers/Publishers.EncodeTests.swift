import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

/// A test-local encoder: `JSONEncoder` behind the `TopLevelEncoder` protocol.
private struct TestJSONEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Data { try JSONEncoder().encode(value) }
}

private struct Unencodable: Encodable {
    struct Refused: Error {}
    let id: Int
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

private struct User: Codable, Equatable { let id: String }

@Suite("Publishers.Encode")
struct EncodeTests {
    @Test func encodesEachValue() throws {
        let upstream = TestUpstream<User, Never>()
        let subscriber = TrackingSubscriber<Data, any Error>(initialDemand: .max(2))
        upstream.encode(encoder: TestJSONEncoder()).subscribe(subscriber)
        upstream.send(User(id: "123"))
        upstream.send(completion: .finished)
        #expect(subscriber.values.map { String(decoding: $0, as: UTF8.self) } == [#"{"id":"123"}"#])
        #expect(subscriber.events.count == 3)
        #expect(subscriber.events.first?.description == "subscription(Encode)")
        #expect(upstream.calls == [.request(.max(2))])
    }

    @Test func encodingErrorFailsAndCancelsUpstream() {
        let upstream = TestUpstream<Unencodable, Never>()
        let subscriber = TrackingSubscriber<Data, any Error>()
        upstream.encode(encoder: TestJSONEncoder()).subscribe(subscriber)
        #expect(upstream.send(Unencodable(id: 1)) == .none)
        upstream.send(Unencodable(id: 2))
        upstream.send(completion: .finished)
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions.count == 1)
        if case .failure(let error) = subscriber.completions.first {
            #expect(error is Unencodable.Refused)
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test func upstreamFailureIsErased() {
        let upstream = TestUpstream<User, Boom>()
        let subscriber = TrackingSubscriber<Data, any Error>()
        upstream.encode(encoder: TestJSONEncoder()).subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        if case .failure(let error) = subscriber.completions.first {
            #expect(error as? Boom == .boom)
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test func cancelReachesUpstream() {
        let upstream = TestUpstream<User, Never>()
        let subscriber = TrackingSubscriber<Data, any Error>()
        upstream.encode(encoder: TestJSONEncoder()).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func reflection() throws {
        let upstream = TestUpstream<User, Never>()
        let subscriber = TrackingSubscriber<Data, any Error>()
        let publisher = upstream.encode(encoder: TestJSONEncoder())
        #expect(publisher.upstream === upstream)
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Encode")
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == ["downstream", "finished", "upstreamSubscription"])
    }

    @Test func releasedAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<User, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Data, any Error>()
            upstream.encode(encoder: TestJSONEncoder()).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }
}

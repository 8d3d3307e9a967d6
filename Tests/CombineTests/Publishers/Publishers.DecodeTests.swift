import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

/// A test-local decoder: `JSONDecoder` behind the `TopLevelDecoder` protocol.
private struct TestJSONDecoder: TopLevelDecoder {
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { try JSONDecoder().decode(type, from: data) }
}

private struct User: Codable, Equatable {
    let id: String
    static var unknown: User { User(id: "-1") }
}

/// A test-local encoder: `JSONEncoder` behind the `TopLevelEncoder` protocol.
private struct TestJSONEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Data { try JSONEncoder().encode(value) }
}

@Suite("Publishers.Decode")
struct DecodeTests {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    @Test func decodesEachValueIgnoringUnknownFields() {
        let upstream = TestUpstream<Data, Never>()
        let subscriber = TrackingSubscriber<User, any Error>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        upstream.decode(type: User.self, decoder: TestJSONDecoder()).subscribe(subscriber)
        #expect(upstream.send(json(#"{"id":"123"}"#)) == .max(1))
        upstream.send(json(#"{"id":"7","extra":1}"#))
        upstream.send(completion: .finished)
        #expect(subscriber.values == [User(id: "123"), User(id: "7")])
        #expect(subscriber.events.first?.description == "subscription(Decode)")
        #expect(subscriber.events.last?.description == "finished")
        #expect(upstream.calls == [.request(.max(1))])
    }

    // Mastering iOS 14 ch. 13, sample app "PublishersAndSubscribers": a notification stream of
    // `Data` (a subject stands in for `NotificationCenter`, which posts synchronously too).
    private let valid = try! JSONEncoder().encode(User(id: "123"))
    private let broken = Data(base64Encoded: "abcd")!

    @Test func bookDecodeThenCatchEndsTheStream() {
        let notifications = PassthroughSubject<Data, Never>()
        var printed: [String] = []
        let cancellable = notifications
            .decode(type: User.self, decoder: TestJSONDecoder())
            .catch { _ in Just(User.unknown) }
            .sink { printed.append("\($0)") }
        notifications.send(valid)
        notifications.send(broken)
        notifications.send(valid)
        // Only two outputs: the stream was replaced by `Just`, which completed.
        #expect(printed == [#"User(id: "123")"#, #"User(id: "-1")"#])
        _ = cancellable
    }

    @Test func bookDecodeAndCatchInsideFlatMapKeepTheStreamAlive() {
        let notifications = PassthroughSubject<Data, Never>()
        var printed: [String] = []
        let cancellable = notifications
            .flatMap { data in
                Just(data)
                    .decode(type: User.self, decoder: TestJSONDecoder())
                    .catch { _ in Just(User.unknown) }
            }
            .sink { printed.append("\($0)") }
        notifications.send(valid)
        notifications.send(broken)
        notifications.send(valid)
        #expect(printed == [#"User(id: "123")"#, #"User(id: "-1")"#, #"User(id: "123")"#])
        _ = cancellable
    }

    @Test func encodeDecodeRoundTrip() {
        var users: [User] = []
        let cancellable = [User(id: "a"), User(id: "b")].publisher
            .encode(encoder: TestJSONEncoder())
            .decode(type: User.self, decoder: TestJSONDecoder())
            .sink(receiveCompletion: { _ in }, receiveValue: { users.append($0) })
        #expect(users == [User(id: "a"), User(id: "b")])
        _ = cancellable
    }

    @Test func decodingErrorFailsAndCancelsUpstream() {
        let upstream = TestUpstream<Data, Never>()
        let subscriber = TrackingSubscriber<User, any Error>()
        upstream.decode(type: User.self, decoder: TestJSONDecoder()).subscribe(subscriber)
        upstream.send(json(#"{"nope":1}"#))
        upstream.send(json(#"{"id":"1"}"#))
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(subscriber.values.isEmpty)
        if case .failure(let error) = subscriber.completions.first {
            #expect(error is DecodingError)
        } else {
            Issue.record("expected a failure")
        }
        #expect(subscriber.completions.count == 1)
    }

    @Test func upstreamFailureIsErased() {
        let upstream = TestUpstream<Data, Boom>()
        let subscriber = TrackingSubscriber<User, any Error>()
        upstream.decode(type: User.self, decoder: TestJSONDecoder()).subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        if case .failure(let error) = subscriber.completions.first {
            #expect(error as? Boom == .boom)
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test func cancelReachesUpstream() {
        let upstream = TestUpstream<Data, Never>()
        let subscriber = TrackingSubscriber<User, any Error>()
        upstream.decode(type: User.self, decoder: TestJSONDecoder()).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func reflection() throws {
        let upstream = TestUpstream<Data, Never>()
        let subscriber = TrackingSubscriber<User, any Error>()
        let publisher = upstream.decode(type: User.self, decoder: TestJSONDecoder())
        #expect(publisher.upstream === upstream)
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Decode")
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == ["downstream", "finished", "upstreamSubscription"])
    }

    @Test func releasedAfterFailure() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Data, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<User, any Error>()
            upstream.decode(type: User.self, decoder: TestJSONDecoder()).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(json("garbage"))
            #expect(subscriber.completions.count == 1)
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }
}

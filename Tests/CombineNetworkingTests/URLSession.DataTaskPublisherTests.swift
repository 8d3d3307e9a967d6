import Combine
import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// `URLSession.dataTaskPublisher` against a real HTTP server on 127.0.0.1 (FlyingFox), with the
/// routes the books' worked examples need: `/ip` (JSON), `/missing` (404), `/error` (500),
/// `/count` (counts hits), `/flaky` (500 twice, then JSON), `/slow` (answers after 2 s) and
/// `/hang` (answers after 30 s).
@Suite("URLSession.DataTaskPublisher", .serialized)
struct URLSessionDataTaskPublisherTests {
    struct IPInfo: Codable, Equatable {
        let ip: String
    }

    enum APIError: Error, Equatable {
        case status(Int)
        case network(URLError.Code)
    }

    actor HitCounter {
        private(set) var hits = 0
        func hit() -> Int {
            hits += 1
            return hits
        }
    }

    /// Starts a server on an ephemeral port of 127.0.0.1 and returns it with its base URL.
    static func startServer(hits: HitCounter = HitCounter()) async throws -> (HTTPServer, URL) {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled)
        await server.appendRoute("GET /ip") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(#"{"ip":"1.2.3.4","extra":true}"#.utf8))
        }
        await server.appendRoute("GET /missing") { _ in HTTPResponse(statusCode: .notFound) }
        await server.appendRoute("GET /error") { _ in HTTPResponse(statusCode: .internalServerError) }
        await server.appendRoute("GET /count") { _ in
            let count = await hits.hit()
            return HTTPResponse(statusCode: .ok, body: Data("\(count)".utf8))
        }
        await server.appendRoute("GET /flaky") { _ in
            let count = await hits.hit()
            guard count > 2 else { return HTTPResponse(statusCode: .internalServerError) }
            return HTTPResponse(statusCode: .ok, body: Data(#"{"ip":"5.6.7.8"}"#.utf8))
        }
        await server.appendRoute("GET /down") { _ in
            _ = await hits.hit()
            return HTTPResponse(statusCode: .internalServerError)
        }
        await server.appendRoute("GET /slow") { _ in
            try await Task.sleep(for: .seconds(2))
            return HTTPResponse(statusCode: .ok, body: Data("late".utf8))
        }
        await server.appendRoute("GET /hang") { _ in
            try await Task.sleep(for: .seconds(30))
            return HTTPResponse(statusCode: .ok)
        }
        Task { try await server.run() }
        // The default 5 s is too short for a server started while the whole suite runs under the
        // address sanitizer on a busy machine.
        try await server.waitUntilListening(timeout: 60)
        guard case .ip4(_, let port) = await server.listeningAddress else {
            throw URLError(.cannotConnectToHost)
        }
        return (server, URL(string: "http://127.0.0.1:\(port)")!)
    }

    /// What `tryMap` does in the book's pipelines: HTTP errors become `APIError.status`.
    static func checkStatus(_ output: URLSession.DataTaskPublisher.Output) throws -> Data {
        guard let http = output.response as? HTTPURLResponse else { throw APIError.status(-1) }
        guard (200..<300).contains(http.statusCode) else { throw APIError.status(http.statusCode) }
        return output.data
    }

    /// Carries a pipeline's results out of the sink; the sink's closures run one at a time.
    struct Results<Output, Failure: Error>: @unchecked Sendable {
        let values: [Output]
        let completion: Subscribers.Completion<Failure>
    }

    /// Subscribes with `sink` and waits for the completion.
    static func run<P: Publisher>(
        _ publisher: P
    ) async -> (values: [P.Output], completion: Subscribers.Completion<P.Failure>) {
        let results = await withCheckedContinuation { (continuation: CheckedContinuation<Results<P.Output, P.Failure>, Never>) in
            var values: [P.Output] = []
            var cancellable: AnyCancellable?
            cancellable = publisher.sink(
                receiveCompletion: { completion in
                    continuation.resume(returning: Results(values: values, completion: completion))
                    _ = cancellable
                },
                receiveValue: { values.append($0) })
        }
        return (results.values, results.completion)
    }

    @Test func okResponseDecodesIntoACodableType() async throws {
        let (server, base) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let publisher = URLSession.shared.dataTaskPublisher(for: base.appendingPathComponent("ip"))
        #expect(publisher.request.url == base.appendingPathComponent("ip"))
        let (outputs, finished) = await Self.run(publisher)
        #expect(finished == .finished)
        #expect((outputs.first?.response as? HTTPURLResponse)?.statusCode == 200)

        // The book's pipeline: status check in `tryMap`, then `decode` (extra fields are ignored).
        let (values, completion) = await Self.run(
            publisher
                .tryMap { try Self.checkStatus($0) }
                .decode(type: IPInfo.self, decoder: JSONDecoder()))
        #expect(values == [IPInfo(ip: "1.2.3.4")])
        guard case .finished = completion else {
            Issue.record("expected .finished, got \(completion)")
            return
        }
    }

    @Test func httpErrorsArriveAsValuesAndMapToACustomError() async throws {
        let (server, base) = try await Self.startServer()
        defer { Task { await server.stop() } }
        for (path, status) in [("missing", 404), ("error", 500)] {
            // The request form, as in `URLSession.DataTaskPublisher(request:session:)`.
            let publisher = URLSession.DataTaskPublisher(
                request: URLRequest(url: base.appendingPathComponent(path)), session: .shared)
            let (values, completion) = await Self.run(publisher)
            #expect(completion == .finished)  // not a failure: the server answered
            #expect(values.count == 1)

            let (mapped, failure) = await Self.run(publisher.tryMap { try Self.checkStatus($0) })
            #expect(mapped.isEmpty)
            guard case .failure(let error) = failure else {
                Issue.record("expected a failure, got \(failure)")
                continue
            }
            #expect(error as? APIError == .status(status))
        }
    }

    @Test func connectionRefusedFailsWithURLError() async throws {
        let (server, base) = try await Self.startServer()
        await server.stop()
        try await Task.sleep(for: .milliseconds(100))
        let (values, completion) = await Self.run(URLSession.shared.dataTaskPublisher(for: base.appendingPathComponent("ip")))
        #expect(values.isEmpty)
        guard case .failure(let error) = completion else {
            Issue.record("expected a URLError, got \(completion)")
            return
        }
        #expect([.cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet].contains(error.code))
    }

    @Test func retryResubscribesAndHitsTheServerAgain() async throws {
        // Using Combine, pattern: retrying on transient failure. A `/flaky` route that fails and
        // then succeeds counts the attempts; `retry(3)` on a route that always fails makes exactly
        // 4 requests. The status check comes before `retry` here so that HTTP errors are retried
        // too.
        let flakyHits = HitCounter()
        let (flakyServer, flakyBase) = try await Self.startServer(hits: flakyHits)
        defer { Task { await flakyServer.stop() } }
        let (values, completion) = await Self.run(
            URLSession.shared.dataTaskPublisher(for: flakyBase.appendingPathComponent("flaky"))
                .tryMap { try Self.checkStatus($0) }
                .retry(3)
                .decode(type: IPInfo.self, decoder: JSONDecoder()))
        #expect(values == [IPInfo(ip: "5.6.7.8")])
        guard case .finished = completion else {
            Issue.record("expected .finished, got \(completion)")
            return
        }
        #expect(await flakyHits.hits == 3)

        let downHits = HitCounter()
        let (downServer, downBase) = try await Self.startServer(hits: downHits)
        defer { Task { await downServer.stop() } }
        let (none, failure) = await Self.run(
            URLSession.shared.dataTaskPublisher(for: downBase.appendingPathComponent("down"))
                .tryMap { try Self.checkStatus($0) }
                .retry(3))
        #expect(none.isEmpty)
        guard case .failure(let error) = failure else {
            Issue.record("expected a failure, got \(failure)")
            return
        }
        #expect(error as? APIError == .status(500))
        #expect(await downHits.hits == 4)
    }

    @Test func everySubscriptionHitsTheServerAgain() async throws {
        // What `retry` relies on: subscribing again performs a new request.
        let hits = HitCounter()
        let (server, base) = try await Self.startServer(hits: hits)
        defer { Task { await server.stop() } }
        let publisher = URLSession.shared.dataTaskPublisher(for: base.appendingPathComponent("count"))
        var bodies: [String] = []
        for _ in 0..<3 {
            let (values, _) = await Self.run(publisher)
            bodies += values.map { String(decoding: $0.data, as: UTF8.self) }
        }
        #expect(bodies == ["1", "2", "3"])
        #expect(await hits.hits == 3)
    }

    @Test func slowEndpointTimesOut() async throws {
        let (server, base) = try await Self.startServer()
        defer { Task { await server.stop() } }
        // The session's own timeout fails with URLError.timedOut …
        var request = URLRequest(url: base.appendingPathComponent("slow"))
        request.timeoutInterval = 0.3
        let (values, completion) = await Self.run(URLSession.shared.dataTaskPublisher(for: request))
        #expect(values.isEmpty)
        #expect(completion == .failure(URLError(.timedOut)))

        // … and the `timeout` operator ends the pipeline (finishing, without a custom error).
        let queue = DispatchQueue(label: "timeout")
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<(Int, Subscribers.Completion<URLError>), Never>) in
            var count = 0
            var cancellable: AnyCancellable?
            cancellable = URLSession.shared.dataTaskPublisher(for: base.appendingPathComponent("slow"))
                .timeout(.milliseconds(300), scheduler: queue)
                .sink(
                    receiveCompletion: {
                        continuation.resume(returning: (count, $0))
                        _ = cancellable
                    },
                    receiveValue: { _ in count += 1 })
        }
        #expect(result.0 == 0)
        #expect(result.1 == .finished)
    }

    /// Cancelling the subscription cancels the data task: the session no longer has a running
    /// task and the subscriber gets nothing more. (FlyingFox does not tell its handler when a
    /// client disconnects, so this is observed on the client side.)
    @Test func cancellingTheSubscriptionCancelsTheRequest() async throws {
        let (server, base) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let session = URLSession(configuration: .ephemeral)
        let subscriber = TrackingSubscriber<URLSession.DataTaskPublisher.Output, URLError>()
        session.dataTaskPublisher(for: base.appendingPathComponent("hang")).subscribe(subscriber)
        #expect(subscriber.events.map(\.description) == ["subscription(DataTaskPublisher)"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(await Self.runningTasks(of: session) == 1)
        subscriber.cancel()
        var running = 1
        for _ in 0..<50 where running > 0 {
            try await Task.sleep(for: .milliseconds(20))
            running = await Self.runningTasks(of: session)
        }
        #expect(running == 0)
        try await Task.sleep(for: .milliseconds(100))
        #expect(subscriber.events.count == 1)  // a cancelled subscription gets no completion
        session.invalidateAndCancel()
    }

    /// Spec §28, §30: Apple's subscription shows `task` (none before the first request),
    /// `downstream`, `parent` and `demand`; once cancelled it lets go of what it held.
    @Test func subscriptionMirror() throws {
        let session = URLSession(configuration: .ephemeral)
        let publisher = session.dataTaskPublisher(for: URL(string: "http://127.0.0.1:9/never")!)
        let subscriber = TrackingSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: nil)
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["task", "downstream", "parent", "demand"])
        let values = Dictionary(uniqueKeysWithValues: mirror.children.map { ($0.label!, $0.value) })
        #expect(values["task"].map { String(describing: $0) } == "nil")
        #expect(values["demand"].map { String(describing: $0) } == "max(0)")
        let parent = values["parent"].flatMap { Mirror(reflecting: $0).children.first?.value }
        #expect((parent as? URLSession.DataTaskPublisher)?.request.url == publisher.request.url)
        let downstream = values["downstream"].flatMap { Mirror(reflecting: $0).children.first?.value }
        #expect((downstream as? any Subscriber)?.combineIdentifier == subscriber.combineIdentifier)
        subscription.cancel()
        let after = Mirror(reflecting: subscription).children.map { String(describing: $0.value) }
        #expect(after == ["nil", "nil", "nil", "max(0)"])
        session.invalidateAndCancel()
    }

    static func runningTasks(of session: URLSession) async -> Int {
        await withCheckedContinuation { continuation in
            session.getAllTasks { tasks in
                continuation.resume(returning: tasks.filter { $0.state == .running }.count)
            }
        }
    }
}

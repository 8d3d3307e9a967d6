import Combine
import FlyingFox
import Foundation
import NewsKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The API client and the `news` command against a real HTTP server on 127.0.0.1 (FlyingFox)
/// serving the snapshot's files, plus broken routes (HTTP 500, garbage).
@Suite("LocalServer", .serialized)
struct LocalServerTests {
    /// Starts a server answering `/v0/...` from the bundled snapshot, with `/broken/v0/...`
    /// answering 500 and `/garbage/v0/...` answering non-JSON; runs `body` with its base URL.
    static func withServer(_ body: (URL) async throws -> Void) async throws {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled)
        let snapshot = BundledSnapshot.directory
        await server.appendRoute("GET /v0/*") { request in
            let file = snapshot.appendingPathComponent(request.path)
            guard let data = try? Data(contentsOf: file) else {
                return HTTPResponse(statusCode: .notFound, body: Data("null".utf8))
            }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: data)
        }
        await server.appendRoute("GET /broken/v0/*") { _ in
            HTTPResponse(statusCode: .internalServerError, body: Data("[1000, 1001]".utf8))
        }
        await server.appendRoute("GET /garbage/v0/*") { _ in
            HTTPResponse(statusCode: .ok, body: Data("<html>hello</html>".utf8))
        }
        let task = Task { try await server.run() }
        defer { task.cancel() }
        // The default 5 s is too short for a server started while the whole suite runs under the
        // address sanitizer on a busy machine.
        try await server.waitUntilListening(timeout: 60)
        guard case .ip4(let host, let port) = await server.listeningAddress else {
            Issue.record("server has no IPv4 address")
            return
        }
        try await body(URL(string: "http://\(host):\(port)/")!)
        await server.stop()
    }

    @Test func storiesFromTheLocalServer() async throws {
        try await Self.withServer { base in
            // The first five ids: four stories and an Ask HN post without a link (left out).
            let api = API(baseURL: base.appendingPathComponent("v0/"), session: URLSession(configuration: .ephemeral), maxStories: 5)
            let recorded = await record(api.stories())
            #expect(recorded.completion == .finished)
            #expect(recorded.values.last?.map(\.id) == [41203411, 41203398, 41203377, 41203350])
        }
    }

    @Test func http500IsAnInvalidResponse() async throws {
        try await Self.withServer { base in
            let api = API(baseURL: base.appendingPathComponent("broken/v0/"), session: URLSession(configuration: .ephemeral))
            let recorded = await record(api.stories())
            #expect(recorded.completion == .failure(.invalidResponse))
        }
    }

    @Test func commandAgainstTheLocalServer() async throws {
        try await Self.withServer { base in
            var output = ""
            var error = ""
            let code = NewsCommand.run(
                ["--base-url", base.appendingPathComponent("v0").absoluteString, "--keyword", "sqlite", "--max", "5"],
                output: { output += $0 }, errorOutput: { error += $0 })
            #expect(code == 0)
            #expect(output.contains("1. The unreasonable effectiveness of SQLite in production\n"))

            var garbageError = ""
            let garbageCode = NewsCommand.run(
                ["--base-url", base.appendingPathComponent("garbage/v0").absoluteString],
                output: { _ in }, errorOutput: { garbageError += $0 })
            #expect(garbageCode == NewsCommand.failure)
            #expect(garbageError == "news: The server responded with garbage.\n")
        }
    }

    @Test func closedPortIsUnreachable() {
        var error = ""
        let code = NewsCommand.run(
            ["--base-url", "http://127.0.0.1:9/v0"], output: { _ in }, errorOutput: { error += $0 })
        #expect(code == NewsCommand.failure)
        #expect(error == "news: http://127.0.0.1:9/v0/newstories.json is unreachable.\n")
    }
}

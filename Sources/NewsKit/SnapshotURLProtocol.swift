import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serves Hacker News API requests from JSON files on disk, in-process, so the reader works
/// offline and its tests are deterministic.
///
/// It is an ordinary `URLProtocol`: a session whose configuration lists it in `protocolClasses`
/// gets its responses from a directory registered for the request's host (``register(_:forHost:)``)
/// instead of the network. `GET https://HOST/v0/item/1000.json` reads `DIR/v0/item/1000.json`;
/// a missing file is a 404. A host can also be registered as offline, which fails every request
/// with `URLError.notConnectedToInternet`.
public final class SnapshotURLProtocol: URLProtocol {

    /// What a registered host serves.
    public enum Source: Sendable {
        /// Files under this directory, by URL path.
        case directory(URL)
        /// Nothing: every request fails as if the machine were offline.
        case offline
    }

    private static let sources = Mutex<[String: Source]>([:])

    /// Serves requests for `host` from `source` (replacing any earlier registration).
    public static func register(_ source: Source, forHost host: String) {
        sources.withLock { $0[host] = source }
    }

    /// Stops serving `host`.
    public static func unregister(host: String) {
        _ = sources.withLock { $0.removeValue(forKey: host) }
    }

    /// A session configuration whose requests go through this protocol.
    public static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [SnapshotURLProtocol.self]
        return configuration
    }

    private static func source(for url: URL?) -> Source? {
        guard let host = url?.host else { return nil }
        return sources.withLock { $0[host] }
    }

    /// Claims requests for registered hosts only; anything else goes to the next protocol.
    override public class func canInit(with request: URLRequest) -> Bool {
        source(for: request.url) != nil
    }

    /// Requests are served as they are.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Answers from the registered source: the file's contents (or a 404), or an offline error.
    override public func startLoading() {
        guard let url = request.url, let source = Self.source(for: url) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        switch source {
        case .offline:
            client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
        case .directory(let directory):
            let file = directory.appendingPathComponent(url.path)
            let (status, body): (Int, Data)
            if let data = try? Data(contentsOf: file) {
                (status, body) = (200, data)
            } else {
                (status, body) = (404, Data("null".utf8))
            }
            let response = HTTPURLResponse(
                url: url,
                statusCode: status,
                httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json; charset=utf-8"]
            )!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: body)
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    /// Nothing to stop: every answer is delivered synchronously from `startLoading()`.
    override public func stopLoading() {}
}

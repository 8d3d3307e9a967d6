import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What the "Using Combine" reference examples share: the error types the book's snippets throw,
// a few scheduling helpers for the timed entries, and the in-process answers for the two web
// services the reference chapter calls (ip.jsontest.com and postman-echo.com).

/// The errors the book's reference snippets throw. They describe themselves by case name, so a
/// completion prints as `failure(exampleFailure)` whatever module the example lives in.
enum ReferenceError: Error, CustomStringConvertible {
    case exampleFailure
    case example
    case invalidValue
    case notBigEnough
    case selfDestruct
    case invalidServerResponse

    var description: String {
        switch self {
        case .exampleFailure: return "exampleFailure"
        case .example: return "example"
        case .invalidValue: return "invalidValue"
        case .notBigEnough: return "notBigEnough"
        case .selfDestruct: return "selfDestruct"
        case .invalidServerResponse: return "invalidServerResponse"
        }
    }
}

extension ExampleContext {
    /// Runs `action` `seconds` after now on the example's scheduler: the stand-in for the moment
    /// a user types, a sensor fires or a server answers.
    func referenceAt(_ seconds: Double, _ action: @escaping () -> Void) {
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(seconds)), action)
    }

    /// The time since `start` on the example's clock, as the reference examples print it
    /// (`0.5 s`): virtual time in the tests, the wall clock from the command line.
    func referenceElapsed(since start: Date) -> String {
        let seconds = io.now().timeIntervalSince(start)
        return String(format: "%.1f s", (seconds * 10).rounded() / 10)
    }

    /// `stride` in whole milliseconds, read off the scheduler's own stride type (which the
    /// example only knows generically) by comparing it with millisecond strides.
    func referenceMilliseconds(_ stride: S.SchedulerTimeType.Stride) -> Int {
        var low = 0
        var high = 3_600_000
        while low < high {
            let middle = (low + high) / 2
            if S.SchedulerTimeType.Stride.milliseconds(middle) + .microseconds(500) < stride {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}

/// The reference chapter's web services, answered in-process: `ip.jsontest.com` (the `retry`
/// entry's `IPInfo`) and `postman-echo.com/time/valid` (the `decode` entry).
///
/// A request for `ip.jsontest.com` whose query contains `flaky` fails with a lost connection on
/// its first two attempts; one containing `garbage` is answered with a body that is not JSON.
/// Attempts are counted per URL, so each run of an example uses a URL of its own.
final class ReferenceServicesProtocol: URLProtocol {
    /// A session whose requests this protocol answers.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ReferenceServicesProtocol.self]
        return URLSession(configuration: configuration)
    }()

    /// The address the fixture reports as the caller's.
    static let ipAddress = "203.0.113.7"

    private static let attempts = LockedAttempts()

    override class func canInit(with request: URLRequest) -> Bool {
        ["ip.jsontest.com", "postman-echo.com"].contains(request.url?.host ?? "")
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url else { return }
        let query = url.query ?? ""
        if query.contains("flaky"), Self.attempts.next(for: url) <= 2 {
            client?.urlProtocol(self, didFailWithError: URLError(.networkConnectionLost))
            return
        }
        let body: String
        if url.host == "postman-echo.com" {
            body = #"{"valid":true}"#
        } else if query.contains("garbage") {
            body = "<html>Service Unavailable</html>"
        } else {
            body = #"{"ip": "\#(Self.ipAddress)"}"#
        }
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(body.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    /// How many times each URL has been asked for.
    private final class LockedAttempts: @unchecked Sendable {
        // @unchecked: `counts` is only touched under `lock`.
        private let lock = NSLock()
        private var counts: [URL: Int] = [:]

        func next(for url: URL) -> Int {
            lock.withLock {
                counts[url, default: 0] += 1
                return counts[url]!
            }
        }
    }
}

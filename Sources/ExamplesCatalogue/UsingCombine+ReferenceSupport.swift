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
    /// (`0.5 s`): the runner's virtual time, from the command line as in the tests.
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
final class ReferenceServicesProtocol: InProcessURLProtocol {
    /// A session whose requests this protocol answers.
    static let session = makeSession()

    /// The address the fixture reports as the caller's.
    static let ipAddress = "203.0.113.7"

    override class var hosts: Set<String> { ["ip.jsontest.com", "postman-echo.com"] }

    override class func answer(for url: URL, accept: String?) -> FixtureAnswer {
        let query = url.query ?? ""
        if query.contains("flaky"), FlakyRoutes.shared.nextAttempt(of: url.absoluteString) <= 2 {
            return FixtureAnswer(failure: URLError(.networkConnectionLost))
        }
        let body: String
        if url.host == "postman-echo.com" {
            body = #"{"valid":true}"#
        } else if query.contains("garbage") {
            body = "<html>Service Unavailable</html>"
        } else {
            body = #"{"ip": "\#(ipAddress)"}"#
        }
        return FixtureAnswer(body: Data(body.utf8))
    }
}

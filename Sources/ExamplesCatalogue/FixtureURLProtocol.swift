import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The in-process fixture servers: a `URLProtocol` that answers every request from a route
/// table, so the networking examples print what the books print without a network.
///
/// Each book's servers are a subclass that names its hosts (``hosts``) and its routes
/// (``answer(for:accept:)``) and keeps a session made by ``makeSession()``; the loading itself
/// is shared. An answer without a delay is delivered inside `startLoading`; a delayed one
/// (``FixtureAnswer/delay``) later, on a serial queue, unless the task stops first:
/// `stopLoading` cancels the pending answer, because swift-corelibs-foundation traps when a
/// protocol reports on a task it has already finished with (a subscription dropped right after
/// the request starts, as in Kodeco ch. 10).
class InProcessURLProtocol: URLProtocol {
    /// The hosts this table answers for; requests to any other host are not intercepted.
    class var hosts: Set<String> { [] }

    /// The answer to `url`; `accept` is the request's `Accept` header. Called once per request.
    class func answer(for url: URL, accept: String?) -> FixtureAnswer {
        FixtureAnswer(failure: URLError(.cannotConnectToHost))
    }

    /// Extra seconds added to an answer per task of its session (`taskIdentifier`), so that
    /// requests a session starts at the same moment are answered in the order their tasks were
    /// made; 0 (answer at once) unless a table asks for it.
    class var staggerPerTask: TimeInterval { 0 }

    /// An ephemeral session whose requests this table answers.
    class func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [self]
        return URLSession(configuration: configuration)
    }

    private static let answerQueue = DispatchQueue(label: "InProcessURLProtocol")

    /// The delayed answer still to come; `stopLoading` cancels it.
    private var pending: DispatchWorkItem?

    override class func canInit(with request: URLRequest) -> Bool {
        hosts.contains(request.url?.host ?? "")
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url else { return }
        var answer = Self.answer(for: url, accept: request.value(forHTTPHeaderField: "Accept"))
        answer.delay += Self.staggerPerTask * Double(task?.taskIdentifier ?? 0)
        guard answer.delay > 0 else { return deliver(answer, for: url) }
        let work = DispatchWorkItem { [weak self] in
            self?.deliver(answer, for: url)
        }
        pending = work
        Self.answerQueue.asyncAfter(deadline: .now() + answer.delay, execute: work)
    }

    override func stopLoading() {
        pending?.cancel()
    }

    private func deliver(_ answer: FixtureAnswer, for url: URL) {
        switch answer.result(for: url) {
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .success(let (data, response)):
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: data)
            client?.urlProtocolDidFinishLoading(self)
        }
    }
}

/// The fixture servers of most networking examples (Kodeco ch. 13 and 16, *Using Combine*'s
/// patterns). Hosts it serves:
/// - icanhazdadjoke.com (Kodeco's "Joke API") and www.raywenderlich.com (Kodeco's 303,425-byte
///   page, answered after 0.1 s);
/// - postman-echo.com: `/time/valid` (`{"valid":true}`), `/status/{code}` (any status code, e.g.
///   401, 403, 404, 418, 500, 503), `/delay/{seconds}` (answers after that many seconds) and
///   `/flaky/{failures}/{run}` (drops the connection `failures` times for each `run` id, then
///   answers like `/time/valid`), the endpoints *Using Combine*'s patterns call;
/// - ip.jsontest.com: `/` answers `{"ip": …}`, any other path an HTML error page;
/// - api.github.com `/users/{login}` and avatars0/avatars3.githubusercontent.com `/u/{id}`, for the
///   search-field and cascading-updates patterns (three users: `hec`, `heck`, `heckj`; any
///   other login is a 404);
/// - media.example.com: `/regular` fails as a constrained network does, `/low-data` answers;
/// - unreachable.example.com: every request fails with `URLError(.cannotConnectToHost)`.
///
/// The examples use ``session`` where the book writes `URLSession.shared`; everything else about
/// their pipelines is the book's. Examples that need the network *and* a clock (throttle,
/// retry with delay, timeout) use ``ScheduledFixtureSession`` instead, which serves the same
/// answers on the example's scheduler.
final class FixtureURLProtocol: InProcessURLProtocol {
    /// A session whose requests this protocol answers.
    static let session = makeSession()

    static let jokeHost = "icanhazdadjoke.com"
    static let pageHost = "www.raywenderlich.com"

    /// The page size the book's console shows (`303425 bytes`).
    static let pageSize = 303_425

    override class var hosts: Set<String> { FixtureAnswer.hosts }

    override class func answer(for url: URL, accept: String?) -> FixtureAnswer {
        FixtureAnswer.answer(for: url, accept: accept)
    }
}

/// One canned answer of the fixture servers: a status code and a body, or a transport failure,
/// after an optional delay.
struct FixtureAnswer {
    var statusCode = 200
    var contentType = "application/json"
    var body = Data()
    /// Seconds the server takes to answer.
    var delay: TimeInterval = 0
    /// A transport failure instead of a response.
    var failure: URLError?

    /// Every host the fixtures answer for.
    static let hosts: Set<String> = [
        FixtureURLProtocol.jokeHost, FixtureURLProtocol.pageHost, postmanHost, ipHost, githubHost,
        "avatars0.githubusercontent.com", "avatars3.githubusercontent.com", mediaHost, unreachableHost,
    ]

    static let postmanHost = "postman-echo.com"
    static let ipHost = "ip.jsontest.com"
    static let githubHost = "api.github.com"
    static let mediaHost = "media.example.com"
    static let unreachableHost = "unreachable.example.com"

    /// The IP address ip.jsontest.com reports (a documentation address).
    static let ipAddress = "203.0.113.42"

    /// The GitHub users the search-field examples find: login, public repositories and avatar
    /// URL, as the book's log shows them.
    static let githubUsers: [String: (repos: Int, avatar: String)] = [
        "hec": (3, "https://avatars3.githubusercontent.com/u/53656?v=4"),
        "heck": (6, "https://avatars3.githubusercontent.com/u/138508?v=4"),
        "heckj": (69, "https://avatars0.githubusercontent.com/u/43388?v=4"),
    ]

    /// The bytes of avatar `id`: a different size per user, so the examples can tell them apart.
    static func avatarSize(id: Int) -> Int { 1_000 + id % 9_000 }

    /// The response or failure this answer stands for.
    func result(for url: URL) -> Result<(data: Data, response: URLResponse), URLError> {
        if let failure { return .failure(failure) }
        let response = HTTPURLResponse(
            url: url, statusCode: statusCode, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": contentType])!
        return .success((body, response))
    }

    /// The fixture servers' behaviour. Requests to `/flaky/…` are counted, so call this once per
    /// request.
    static func answer(for url: URL, accept: String? = nil) -> FixtureAnswer {
        let path = url.pathComponents.filter { $0 != "/" }
        switch url.host ?? "" {
        case FixtureURLProtocol.jokeHost:
            return joke(id: url.lastPathComponent, accept: accept)
        case FixtureURLProtocol.pageHost:
            let page = String(repeating: "<p>Combine</p>\n", count: FixtureURLProtocol.pageSize / 15 + 1)
            // The page takes a tenth of a second, as a real download does: Kodeco's share()
            // example subscribes a second time while the request is under way, which an
            // instant answer could beat.
            return FixtureAnswer(contentType: "text/html", body: Data(page.utf8.prefix(FixtureURLProtocol.pageSize)), delay: 0.1)
        case postmanHost:
            return postman(path)
        case ipHost where path.isEmpty:
            return FixtureAnswer(body: Data(#"{"ip": "\#(ipAddress)"}"#.utf8))
        case ipHost:
            return FixtureAnswer(statusCode: 404, contentType: "text/html", body: Data("<html><body>Not Found</body></html>".utf8))
        case githubHost where path.count == 2 && path[0] == "users":
            guard let user = githubUsers[path[1]] else {
                return FixtureAnswer(statusCode: 404, body: Data(#"{"message":"Not Found"}"#.utf8))
            }
            return FixtureAnswer(body: Data(#"{"login":"\#(path[1])","public_repos":\#(user.repos),"avatar_url":"\#(user.avatar)"}"#.utf8))
        case let host where host.hasSuffix(".githubusercontent.com") && path.count == 2:
            let size = avatarSize(id: Int(path[1]) ?? 0)
            return FixtureAnswer(contentType: "image/png", body: Data(repeating: 0x89, count: size))
        case mediaHost where path == ["low-data"]:
            return FixtureAnswer(contentType: "video/mp4", body: Data(repeating: 7, count: 48_000))
        case mediaHost where path == ["regular"]:
            // Linux has no "constrained network" (no `allowsConstrainedNetworkAccess`), so this
            // route fails the way a constrained request does: not connected to the internet.
            return FixtureAnswer(failure: URLError(.notConnectedToInternet))
        default:
            return FixtureAnswer(failure: URLError(.cannotConnectToHost))
        }
    }

    private static func postman(_ path: [String]) -> FixtureAnswer {
        let valid = Data(#"{"valid":true}"#.utf8)
        switch path.first {
        case "time":
            return FixtureAnswer(body: valid)
        case "status":
            let code = Int(path.dropFirst().first ?? "") ?? 200
            return FixtureAnswer(statusCode: code, body: Data(#"{"status":\#(code)}"#.utf8))
        case "delay":
            let seconds = Double(path.dropFirst().first ?? "") ?? 0
            return FixtureAnswer(body: Data(#"{"delay":"\#(Int(seconds))"}"#.utf8), delay: seconds)
        case "flaky" where path.count == 3:
            let failures = Int(path[1]) ?? 0
            guard FlakyRoutes.shared.nextAttempt(of: path[2]) > failures else {
                return FixtureAnswer(failure: URLError(.networkConnectionLost))
            }
            return FixtureAnswer(body: valid)
        default:
            return FixtureAnswer(statusCode: 404, body: Data(#"{"status":404}"#.utf8))
        }
    }

    /// Kodeco's Joke API: a joke as JSON when asked for JSON (plain text otherwise), and for an
    /// unknown id a 200 response whose body says 404.
    private static func joke(id: String, accept: String?) -> FixtureAnswer {
        let joke = "Why do bears have hairy coats? Fur protection."
        guard accept == "application/json" else {
            return FixtureAnswer(contentType: "text/plain", body: Data((id == "9prWnjyImyd" ? joke : "Joke not found").utf8))
        }
        if id == "9prWnjyImyd" {
            return FixtureAnswer(body: Data(#"{"id":"9prWnjyImyd","joke":"\#(joke)","status":200}"#.utf8))
        }
        return FixtureAnswer(body: Data(#"{"message":"Joke with id \"\#(id)\" not found","status":404}"#.utf8))
    }
}

/// Counts the requests to each flaky route, per run id (per URL for the reference chapter's
/// `flaky` queries), so examples running at the same time (the tests run them in parallel) each
/// see their own failures.
final class FlakyRoutes: @unchecked Sendable {
    // @unchecked: `attempts` is only touched on `queue`, a serial queue.
    static let shared = FlakyRoutes()
    private let queue = DispatchQueue(label: "FlakyRoutes")
    private var attempts: [String: Int] = [:]

    /// Records one more request for `run` and returns its number (1 for the first).
    func nextAttempt(of run: String) -> Int {
        queue.sync {
            attempts[run, default: 0] += 1
            return attempts[run]!
        }
    }

    /// A fresh run id.
    static func newRun() -> String { UUID().uuidString }
}

/// The fixture servers reached on an example's scheduler instead of through `URLSession`: each
/// request is answered `latency` (plus the route's own delay) after it is subscribed to, on the
/// scheduler, so pipelines that mix networking with `throttle`, `delay`, `retry` or `timeout`
/// run on virtual time in the tests and print the same text every run.
///
/// Its `dataTaskPublisher(for:)` has the output and failure types of
/// `URLSession.DataTaskPublisher`, and like it starts a new request for every subscription.
struct ScheduledFixtureSession<S: Scheduler> {
    let scheduler: S
    /// How long every answer takes to arrive.
    let latency: S.SchedulerTimeType.Stride

    /// A publisher that makes one request per subscription and delivers its answer later.
    func dataTaskPublisher(for url: URL) -> AnyPublisher<URLSession.DataTaskPublisher.Output, URLError> {
        let scheduler = self.scheduler
        let latency = self.latency
        return Deferred {
            let answer = FixtureAnswer.answer(for: url)
            return Future<URLSession.DataTaskPublisher.Output, URLError> { promise in
                scheduler.schedule(after: scheduler.now.advanced(by: latency + .seconds(answer.delay))) {
                    promise(answer.result(for: url))
                }
            }
        }
        .eraseToAnyPublisher()
    }
}

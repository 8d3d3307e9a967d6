import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture servers of the Kodeco part 3 networking examples (chapters 9, 10 and 13), so they
/// print what the book prints without a network:
///
/// - `https://mysite.com/mydata.json`, chapter 9's placeholder JSON document;
/// - `https://www.raywenderlich.com` (303,425 bytes, as chapter 13's console shows) and
///   `https://www.raywenderlich.com/` (303,094 bytes, as chapter 10's console shows: the book
///   fetched the page on two different days).
///
/// The examples use ``session`` where the book writes `URLSession.shared`; everything else about
/// their pipelines is the book's.
///
/// Each answer comes ``latency`` after the request starts, as a real one would: chapter 10's
/// example drops its subscription right after the request starts, and that cancellation has to
/// find the answer still pending.
class KodecoURLProtocol: InProcessURLProtocol {
    /// How long an answer takes.
    static let latency: TimeInterval = 0.05

    /// A session whose requests this protocol answers.
    static let session = makeSession()

    /// The chapter 9 document, decoded by the examples as `MyType`.
    static let myData = #"{"id":1,"title":"Combine: Asynchronous Programming with Swift"}"#

    override class var hosts: Set<String> { ["mysite.com", "www.raywenderlich.com"] }

    override class func answer(for url: URL, accept: String?) -> FixtureAnswer {
        if url.host == "mysite.com" {
            guard url.path == "/mydata.json" else {
                return FixtureAnswer(statusCode: 404, contentType: "text/plain", body: Data("Not found".utf8), delay: latency)
            }
            return FixtureAnswer(body: Data(myData.utf8), delay: latency)
        }
        let size = url.path == "/" ? 303_094 : 303_425
        let page = String(repeating: "<p>Combine</p>\n", count: size / 15 + 1)
        return FixtureAnswer(contentType: "text/html", body: Data(page.utf8.prefix(size)), delay: latency)
    }
}

/// Kodeco's fixture server for the page run without `share()`: two requests made at the same
/// moment race, and the session may start either first, so each is answered 50 ms after the one
/// made before it in its session. On a session of its own, the first subscriber's request is
/// answered first on every run, as in the book's output.
final class StaggeredKodecoURLProtocol: KodecoURLProtocol {
    override class var staggerPerTask: TimeInterval { 0.05 }
}

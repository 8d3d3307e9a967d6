import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers the Kodeco part 3 networking examples (chapters 9, 10 and 13) in-process, so they
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
/// Each answer comes a few milliseconds after the request starts, as a real one would. An answer
/// given inside `startLoading` races with a cancellation that follows the start at once (the
/// chapter 10 example whose subscription is dropped): swift-corelibs-foundation then reports the
/// cancellation for a task it has already finished with, and traps.
final class KodecoURLProtocol: URLProtocol {
    /// How long an answer takes.
    static let latency: DispatchTimeInterval = .milliseconds(50)

    private static let answerQueue = DispatchQueue(label: "KodecoURLProtocol")

    /// The pending answer; `stopLoading` cancels it.
    private var answer: DispatchWorkItem?

    /// A session whose requests this protocol answers.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [KodecoURLProtocol.self]
        return URLSession(configuration: configuration)
    }()

    static let hosts: Set<String> = ["mysite.com", "www.raywenderlich.com"]

    /// The chapter 9 document, decoded by the examples as `MyType`.
    static let myData = #"{"id":1,"title":"Combine: Asynchronous Programming with Swift"}"#

    override class func canInit(with request: URLRequest) -> Bool {
        hosts.contains(request.url?.host ?? "")
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url else { return }
        let (status, contentType, body) = Self.response(for: url)
        let response = HTTPURLResponse(
            url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": contentType])!
        let answer = DispatchWorkItem { [weak self] in
            guard let self else { return }
            self.client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            self.client?.urlProtocol(self, didLoad: body)
            self.client?.urlProtocolDidFinishLoading(self)
        }
        self.answer = answer
        Self.answerQueue.asyncAfter(deadline: .now() + Self.latency, execute: answer)
    }

    override func stopLoading() {
        answer?.cancel()
    }

    private static func response(for url: URL) -> (Int, String, Data) {
        if url.host == "mysite.com" {
            guard url.path == "/mydata.json" else { return (404, "text/plain", Data("Not found".utf8)) }
            return (200, "application/json", Data(myData.utf8))
        }
        let size = url.path == "/" ? 303_094 : 303_425
        let page = String(repeating: "<p>Combine</p>\n", count: size / 15 + 1)
        return (200, "text/html", Data(page.utf8.prefix(size)))
    }
}

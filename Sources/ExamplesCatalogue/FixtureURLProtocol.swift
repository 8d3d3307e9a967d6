import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers the networking examples' requests in-process, so they print what the book prints
/// without a network: icanhazdadjoke.com (the "Joke API" examples) and www.raywenderlich.com (the
/// resource-management examples' 303,425-byte page).
///
/// The examples use ``session`` where the book writes `URLSession.shared`; everything else about
/// their pipelines is the book's.
final class FixtureURLProtocol: URLProtocol {
    /// A session whose requests this protocol answers.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [FixtureURLProtocol.self]
        return URLSession(configuration: configuration)
    }()

    static let jokeHost = "icanhazdadjoke.com"
    static let pageHost = "www.raywenderlich.com"

    /// The page size the book's console shows (`303425 bytes`).
    static let pageSize = 303_425

    override class func canInit(with request: URLRequest) -> Bool {
        [jokeHost, pageHost].contains(request.url?.host ?? "")
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url else { return }
        let (contentType, body) = Self.response(for: url, accept: request.value(forHTTPHeaderField: "Accept"))
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": contentType])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    /// The API's behaviour as the book describes it: a joke as JSON when asked for JSON (plain
    /// text otherwise), and for an unknown id a 200 response whose body says 404.
    private static func response(for url: URL, accept: String?) -> (String, Data) {
        guard url.host == jokeHost else {
            let page = String(repeating: "<p>Combine</p>\n", count: pageSize / 15 + 1)
            return ("text/html", Data(page.utf8.prefix(pageSize)))
        }
        let id = url.lastPathComponent
        let joke = "Why do bears have hairy coats? Fur protection."
        guard accept == "application/json" else {
            return ("text/plain", Data((id == "9prWnjyImyd" ? joke : "Joke not found").utf8))
        }
        if id == "9prWnjyImyd" {
            return ("application/json", Data(#"{"id":"9prWnjyImyd","joke":"\#(joke)","status":200}"#.utf8))
        }
        return ("application/json", Data(#"{"message":"Joke with id \"\#(id)\" not found","status":404}"#.utf8))
    }
}

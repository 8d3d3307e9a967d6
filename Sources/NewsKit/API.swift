import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Hacker News API client from the book's News project (Kodeco ch. 14): publishers for one
/// story, for a batch of stories merged as they arrive, and for the latest stories as a growing,
/// sorted list.
///
/// Differences from the book: the base URL and the `URLSession` are injectable (the reader runs
/// on a bundled snapshot, the tests on a local server); ``stories()`` treats an HTTP error status
/// on the story list as an invalid response rather than trying to decode the error page; and the
/// queue stories are received on is serial (see `apiQueue`).
public struct API {
    /// What can go wrong when loading the story list. (Inside `API`, `Error` means this type, as
    /// in the book, which is what lines up the failure types of `flatMap`.)
    public enum Error: LocalizedError, Identifiable, Equatable, Sendable {
        /// The story list could not be fetched at all (offline, connection refused…).
        case addressUnreachable(URL)
        /// The story list came back but was not a list of ids.
        case invalidResponse

        /// Identifies the error for a SwiftUI-style alert.
        public var id: String { localizedDescription }

        /// One line for the user.
        public var errorDescription: String? {
            switch self {
            case .addressUnreachable(let url):
                return "\(url.absoluteString) is unreachable."
            case .invalidResponse:
                return "The server responded with garbage."
            }
        }
    }

    /// The API's endpoints, relative to a base URL.
    public enum EndPoint {
        /// The real API.
        public static let baseURL = URL(string: "https://hacker-news.firebaseio.com/v0/")!

        /// The newest stories' ids.
        case stories
        /// One item.
        case story(Int)

        /// The endpoint's URL under `baseURL`.
        public func url(base baseURL: URL = EndPoint.baseURL) -> URL {
            switch self {
            case .stories:
                return baseURL.appendingPathComponent("newstories.json")
            case .story(let id):
                return baseURL.appendingPathComponent("item/\(id).json")
            }
        }
    }

    /// How many of the newest stories ``stories()`` loads.
    public var maxStories: Int
    /// Where the API lives.
    public let baseURL: URL
    /// The session requests go through.
    public let session: URLSession

    private let decoder = JSONDecoder()
    // The book makes this queue concurrent. `receive(on:)` schedules each event separately, so on
    // a concurrent queue a story's completion can overtake its value and the story is lost; a
    // serial queue (as "Using Combine" recommends for Combine) keeps each story's events in order.
    private let apiQueue = DispatchQueue(label: "API", qos: .default)

    /// A client for the API at `baseURL` using `session`.
    public init(
        baseURL: URL = EndPoint.baseURL,
        session: URLSession = .shared,
        maxStories: Int = 10
    ) {
        self.baseURL = baseURL
        self.session = session
        self.maxStories = maxStories
    }

    /// One story. Anything that goes wrong (network, missing item, an item that is not a story
    /// with a link) completes without a value: a bad story is simply left out.
    public func story(id: Int) -> AnyPublisher<Story, Error> {
        session.dataTaskPublisher(for: EndPoint.story(id).url(base: baseURL))
            .receive(on: apiQueue)
            .map(\.data)
            .decode(type: Story.self, decoder: decoder)
            .catch { _ in Empty<Story, Error>() }
            .eraseToAnyPublisher()
    }

    /// The first ``maxStories`` of `storyIDs`, merged in arrival order.
    public func mergedStories(ids storyIDs: [Int]) -> AnyPublisher<Story, Error> {
        let storyIDs = Array(storyIDs.prefix(maxStories))
        precondition(!storyIDs.isEmpty)

        let initialPublisher = story(id: storyIDs[0])
        let remainder = Array(storyIDs.dropFirst())

        return remainder.reduce(initialPublisher) { combined, id in
            return combined
                .merge(with: story(id: id))
                .eraseToAnyPublisher()
        }
    }

    /// The newest stories: a list that grows (always sorted newest first) as each story arrives.
    /// An empty id list finishes without a value.
    public func stories() -> AnyPublisher<[Story], Error> {
        let listURL = EndPoint.stories.url(base: baseURL)
        return session.dataTaskPublisher(for: listURL)
            .tryMap { data, response -> Data in
                if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                    throw Error.invalidResponse
                }
                return data
            }
            .decode(type: [Int].self, decoder: decoder)
            .mapError { error -> Error in
                switch error {
                case is URLError:
                    return Error.addressUnreachable(listURL)
                default:
                    return Error.invalidResponse
                }
            }
            .filter { !$0.isEmpty }
            .flatMap { storyIDs in
                return self.mergedStories(ids: storyIDs)
            }
            .scan([]) { stories, story -> [Story] in
                return stories + [story]
            }
            .map { $0.sorted() }
            .eraseToAnyPublisher()
    }
}

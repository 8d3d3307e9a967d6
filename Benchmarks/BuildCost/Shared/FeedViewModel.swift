#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
#else
import Combine
#endif
import Foundation

struct Post: Decodable, Equatable {
    let id: Int
    let author: String
    let likes: Int
}

/// A news feed: pages loaded on refresh, a filter, unread counts and a periodic poll.
final class FeedViewModel: ObservableObject {
    @Published var filter = ""
    @Published var pageSize = 20
    @Published private(set) var posts: [Post] = []
    @Published private(set) var authors: [String] = []
    @Published private(set) var headline = ""
    @Published private(set) var totalLikes = 0
    @Published private(set) var likeHistory: [Int] = []
    @Published private(set) var polls = 0
    @Published private(set) var isOnline = true

    let refresh = PassthroughSubject<Void, Never>()
    private var cancellables = Set<AnyCancellable>()

    init(scheduler: UIScheduler = mainScheduler, center: NotificationCenter = .default) {
        let pages = $filter
            .debounce(for: .milliseconds(200), scheduler: scheduler)
            .removeDuplicates()
            .map { filter in Self.loadPage(filter, on: scheduler) }
            .switchToLatest()
            .share()
        pages
            .prepend([Post(id: 0, author: "placeholder", likes: 0)])
            .append([])
            .assign(to: &$posts)

        pages
            .throttle(for: .seconds(1), scheduler: scheduler, latest: false)
            .flatMap(maxPublishers: .max(1)) { page in Self.loadAuthors(of: page, on: scheduler) }
            .assign(to: &$authors)

        Publishers.Zip3(pages, $pageSize, $filter)
            .map { page, size, filter in "\(page.count) of \(size) posts matching '\(filter)'" }
            .assign(to: &$headline)

        pages
            .map { $0.reduce(0) { $0 + $1.likes } }
            .scan(0, +)
            .assign(to: &$totalLikes)

        pages
            .zip(refresh)
            .map { page, _ in page.count }
            .collect(4)
            .sink { [weak self] counts in self?.likeHistory = counts }
            .store(in: &cancellables)

        Timer.publish(every: 30, on: .main, in: .common)
            .autoconnect()
            .sink { [weak self] _ in
                self?.polls += 1
                self?.refresh.send(())
            }
            .store(in: &cancellables)

        center.publisher(for: Notification.Name("ConnectivityChanged"))
            .compactMap { $0.object as? Bool }
            .assign(to: &$isOnline)
    }

    private static func loadPage(_ filter: String, on scheduler: UIScheduler) -> AnyPublisher<[Post], Never> {
        Future<Data, RequestError> { promise in
            promise(.success(Data(#"[{"id": 7, "author": "\#(filter)", "likes": 3}]"#.utf8)))
        }
        .delay(for: .milliseconds(30), scheduler: scheduler)
        .retry(3)
        .decode(type: [Post].self, decoder: JSONDecoder())
        .catch { _ in Just([]) }
        .eraseToAnyPublisher()
    }

    private static func loadAuthors(of page: [Post], on scheduler: UIScheduler) -> AnyPublisher<[String], Never> {
        Just(page.map(\.author))
            .delay(for: .milliseconds(5), scheduler: scheduler)
            .eraseToAnyPublisher()
    }
}

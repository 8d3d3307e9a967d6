#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
#else
import Combine
#endif
import Foundation

struct SearchHit: Decodable, Equatable {
    let id: Int
    let title: String
}

/// A search field: results as the user types, suggestions, and a count of searches made.
final class SearchViewModel: ObservableObject {
    @Published var query = ""
    @Published var scope = 0
    @Published private(set) var hits: [SearchHit] = []
    @Published private(set) var suggestions: [String] = []
    @Published private(set) var summary = ""
    @Published private(set) var searchCount = 0
    @Published private(set) var recentBatches: [[String]] = []
    @Published private(set) var secondsOpen = 0
    @Published private(set) var isActive = true

    private var cancellables = Set<AnyCancellable>()

    init(scheduler: UIScheduler = mainScheduler, center: NotificationCenter = .default) {
        let results = $query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map { query in Self.fetch(query, on: scheduler) }
            .switchToLatest()
            .share()
        results
            .prepend([])
            .append([SearchHit(id: 0, title: "end")])
            .assign(to: &$hits)

        $query
            .throttle(for: .milliseconds(500), scheduler: scheduler, latest: true)
            .filter { !$0.isEmpty }
            .flatMap(maxPublishers: .max(2)) { prefix in Self.fetchSuggestions(prefix, on: scheduler) }
            .receive(on: scheduler)
            .assign(to: &$suggestions)

        Publishers.Zip3($query, $scope, results.map(\.count))
            .map { query, scope, count in "\(count) results for \(query) in scope \(scope)" }
            .assign(to: &$summary)

        results
            .scan(0) { total, _ in total + 1 }
            .assign(to: &$searchCount)

        $query
            .zip(results)
            .map { query, hits in hits.map { "\(query): \($0.title)" } }
            .collect(3)
            .sink { [weak self] batch in self?.recentBatches = batch.map { $0 } }
            .store(in: &cancellables)

        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .scan(0) { seconds, _ in seconds + 1 }
            .assign(to: &$secondsOpen)

        center.publisher(for: Notification.Name("SearchReset"))
            .map { _ in false }
            .sink { [weak self] active in
                self?.isActive = active
                self?.query = ""
            }
            .store(in: &cancellables)
    }

    private static func fetch(_ query: String, on scheduler: UIScheduler) -> AnyPublisher<[SearchHit], Never> {
        Future<Data, RequestError> { promise in
            promise(.success(Data(#"[{"id": 1, "title": "\#(query)"}]"#.utf8)))
        }
        .delay(for: .milliseconds(20), scheduler: scheduler)
        .retry(2)
        .decode(type: [SearchHit].self, decoder: JSONDecoder())
        .replaceError(with: [])
        .eraseToAnyPublisher()
    }

    private static func fetchSuggestions(_ prefix: String, on scheduler: UIScheduler) -> AnyPublisher<[String], Never> {
        Just([prefix + "s", prefix + "ing"])
            .delay(for: .milliseconds(10), scheduler: scheduler)
            .eraseToAnyPublisher()
    }
}

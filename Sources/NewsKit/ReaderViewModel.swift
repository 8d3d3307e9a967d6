import Combine
import Foundation

/// The reader's model, as in the book's News app: the stories loaded so far, the last error, the
/// keywords to filter by, and a clock a refresh timer keeps current.
///
/// It is an `ObservableObject`, so anything that shows it (the book's SwiftUI list, the terminal
/// renderer here) can watch `objectWillChange` or the individual `@Published` properties.
public final class ReaderViewModel: ObservableObject {
    private let api: API
    private let deliver: (AnyPublisher<[Story], API.Error>) -> AnyPublisher<[Story], API.Error>
    private var subscriptions = Set<AnyCancellable>()

    /// Every story loaded, newest first.
    @Published public private(set) var allStories = [Story]()
    /// The last loading error, cleared when stories arrive.
    @Published public var error: API.Error? = nil
    /// Keywords; a story is shown when its title contains any of them (case-insensitively).
    @Published public var filter = [String]()
    /// Whether a fetch is in flight.
    @Published public private(set) var isLoading = false
    /// The time the refresh timer last ticked (what "updated at" shows).
    @Published public private(set) var currentDate: Date

    /// The stories to show: ``allStories`` narrowed by ``filter``.
    public var stories: [Story] {
        guard !filter.isEmpty else { return allStories }
        let keywords = filter.map { $0.lowercased() }
        return allStories.filter { story in
            let title = story.title.lowercased()
            return keywords.contains { title.contains($0) }
        }
    }

    /// A model loading from `api`, delivering results on `scheduler` (the book uses
    /// `DispatchQueue.main`), with `currentDate` kept current by `refresh` (by default a
    /// ten-second `Timer` on the main run loop, as in the book's list view).
    public init<S: Scheduler>(
        api: API,
        scheduler: S,
        now: Date = Date(),
        refresh: AnyPublisher<Date, Never>? = nil
    ) {
        self.api = api
        self.currentDate = now
        self.deliver = { $0.receive(on: scheduler).eraseToAnyPublisher() }
        let ticks = refresh ?? Timer.publish(every: 10, on: .main, in: .common)
            .autoconnect()
            .eraseToAnyPublisher()
        ticks.assign(to: &$currentDate)
    }

    /// Loads the newest stories; `completion` runs (on the delivery scheduler) once loading has
    /// finished or failed and the published properties are up to date.
    public func fetchStories(completion: (() -> Void)? = nil) {
        isLoading = true
        deliver(api.stories())
            .sink(
                receiveCompletion: { [weak self] result in
                    if case .failure(let error) = result {
                        self?.error = error
                    }
                    self?.isLoading = false
                    completion?()
                },
                receiveValue: { [weak self] stories in
                    self?.allStories = stories
                    self?.error = nil
                }
            )
            .store(in: &subscriptions)
    }
}

import Combine
import Foundation
import NewsKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reader model: loading into `@Published` state, the keyword filter, errors, the refresh
/// clock, and `objectWillChange`.
@Suite("ReaderViewModel")
struct ReaderViewModelTests {
    /// Loads `api` into a fresh model delivering on a private queue; returns it once loaded.
    static func loadedModel(api: API, filter: [String] = []) async -> ReaderViewModel {
        let queue = DispatchQueue(label: "reader-test")
        let model = ReaderViewModel(api: api, scheduler: queue, refresh: Empty().eraseToAnyPublisher())
        let shared = UncheckedSendable(value: model)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                shared.value.filter = filter
                shared.value.fetchStories { continuation.resume() }
            }
        }
        return model
    }

    @Test func loadsTheSnapshot() async {
        let model = await Self.loadedModel(api: snapshotAPI(host: "model-load.snapshot.test"))
        #expect(model.allStories.count == 20)
        #expect(model.stories == model.allStories)
        #expect(model.error == nil)
        #expect(model.isLoading == false)
    }

    @Test func keywordFilterIsCaseInsensitiveAndMatchesAnyKeyword() async {
        let model = await Self.loadedModel(
            api: snapshotAPI(host: "model-filter.snapshot.test"), filter: ["swift"])
        #expect(model.stories.count == 5)
        #expect(model.stories.allSatisfy { $0.title.lowercased().contains("swift") })
        model.filter = ["SQLITE", "postgresql"]
        #expect(model.stories.map(\.id) == [41203377, 41203240])
        model.filter = ["NOSUCHWORD"]
        #expect(model.stories.isEmpty)
        model.filter = []
        #expect(model.stories.count == 20)
    }

    @Test func corruptListSetsTheError() async throws {
        let fixture = try FixtureDirectory(newStories: "<html>500</html>")
        defer { fixture.remove() }
        let model = await Self.loadedModel(api: snapshotAPI(directory: fixture.url, host: "model-corrupt.snapshot.test"))
        #expect(model.error == .invalidResponse)
        #expect(model.allStories.isEmpty)
    }

    @Test func refreshTicksUpdateTheClockAndObjectWillChangeFires() {
        let ticks = PassthroughSubject<Date, Never>()
        let model = ReaderViewModel(
            api: snapshotAPI(host: "model-clock.snapshot.test"),
            scheduler: DispatchQueue(label: "unused"),
            now: Date(timeIntervalSince1970: 0),
            refresh: ticks.eraseToAnyPublisher()
        )
        var changes = 0
        let subscription = model.objectWillChange.sink { changes += 1 }
        ticks.send(Date(timeIntervalSince1970: 10))
        #expect(model.currentDate == Date(timeIntervalSince1970: 10))
        model.filter = ["swift"]
        #expect(changes == 2)
        subscription.cancel()
    }
}

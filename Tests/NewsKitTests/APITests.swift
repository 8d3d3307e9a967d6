import Combine
import Foundation
import NewsKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The book's API client against the bundled snapshot (served in-process), and against broken
/// fixtures.
@Suite("API")
struct APITests {
    @Test func storyDecodesTheBooksItem() async throws {
        let api = snapshotAPI(host: "api-story.snapshot.test")
        let recorded = await record(api.story(id: 1000))
        let story = try #require(recorded.values.first)
        #expect(recorded.values.count == 1)
        #expect(story.title == "How Important is the .com TLD?")
        #expect(story.by == "python_kiss")
        #expect(story.url == "http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/")
        #expect(recorded.completion == .finished)
    }

    @Test func missingOrUndecodableStoriesCompleteSilently() async {
        let api = snapshotAPI(host: "api-missing.snapshot.test")
        let missing = await record(api.story(id: -5))
        #expect(missing.values.isEmpty)
        #expect(missing.completion == .finished)
        let askHN = await record(api.story(id: 41203388))  // no url: not a story with a link
        #expect(askHN.values.isEmpty)
        #expect(askHN.completion == .finished)
    }

    @Test func mergedStoriesDeliversEachStoryOnce() async {
        let api = snapshotAPI(host: "api-merged.snapshot.test")
        let recorded = await record(api.mergedStories(ids: [1000, 1001, 1002]))
        #expect(Set(recorded.values.map(\.id)) == [1000, 1001, 1002])
        #expect(recorded.values.count == 3)
        #expect(recorded.completion == .finished)
    }

    @Test func mergedStoriesHonoursMaxStories() async {
        var api = snapshotAPI(host: "api-max.snapshot.test")
        api.maxStories = 2
        let recorded = await record(api.mergedStories(ids: [1000, 1001, 1002]))
        #expect(Set(recorded.values.map(\.id)) == [1000, 1001])
    }

    @Test func storiesGrowOneByOneSortedNewestFirst() async throws {
        let api = snapshotAPI(host: "api-stories.snapshot.test")
        let recorded = await record(api.stories())
        #expect(recorded.completion == .finished)
        #expect(recorded.values.map(\.count) == Array(1...20))
        for list in recorded.values {
            #expect(list == list.sorted())
        }
        let last = try #require(recorded.values.last)
        #expect(last.first?.title == "Swift 6.3 released with improved Linux support")
    }

    @Test func corruptStoryListIsAnInvalidResponse() async throws {
        let fixture = try FixtureDirectory(newStories: "{\"oops\": ")
        defer { fixture.remove() }
        let api = snapshotAPI(directory: fixture.url, host: "api-corrupt.snapshot.test")
        let recorded = await record(api.stories())
        #expect(recorded.values.isEmpty)
        #expect(recorded.completion == .failure(.invalidResponse))
    }

    @Test func emptyStoryListFinishesWithoutAValue() async throws {
        let fixture = try FixtureDirectory(newStories: "[]")
        defer { fixture.remove() }
        let api = snapshotAPI(directory: fixture.url, host: "api-empty.snapshot.test")
        let recorded = await record(api.stories())
        #expect(recorded.values.isEmpty)
        #expect(recorded.completion == .finished)
    }

    @Test func offlineIsAddressUnreachable() async {
        SnapshotURLProtocol.register(.offline, forHost: "api-offline.snapshot.test")
        defer { SnapshotURLProtocol.unregister(host: "api-offline.snapshot.test") }
        let api = API(
            baseURL: URL(string: "https://api-offline.snapshot.test/v0/")!,
            session: URLSession(configuration: SnapshotURLProtocol.sessionConfiguration())
        )
        let recorded = await record(api.stories())
        let url = URL(string: "https://api-offline.snapshot.test/v0/newstories.json")!
        #expect(recorded.completion == .failure(.addressUnreachable(url)))
        #expect(API.Error.addressUnreachable(url).errorDescription == "\(url.absoluteString) is unreachable.")
    }
}

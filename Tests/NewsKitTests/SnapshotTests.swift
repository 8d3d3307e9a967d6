import Foundation
import NewsKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bundled snapshot and the in-process `URLProtocol` that serves it.
@Suite("Snapshot")
struct SnapshotTests {
    /// Fetches `url` through `session` with a plain data task (no Combine involved).
    static func fetch(_ url: URL, session: URLSession) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: url) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (data ?? Data(), response as! HTTPURLResponse))
                }
            }.resume()
        }
    }

    @Test func bundledSnapshotHasAboutTwentyStories() throws {
        let list = BundledSnapshot.directory.appendingPathComponent("v0/newstories.json")
        let ids = try JSONDecoder().decode([Int].self, from: Data(contentsOf: list))
        #expect(ids.count >= 20)
        let stories = ids.compactMap { id -> Story? in
            let file = BundledSnapshot.directory.appendingPathComponent("v0/item/\(id).json")
            return (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(Story.self, from: $0) }
        }
        #expect(stories.count == 20)
    }

    @Test func protocolServesFilesAndMissingOnesAs404() async throws {
        let session = BundledSnapshot.session()
        let base = URL(string: "https://\(BundledSnapshot.host)/v0/")!
        let (data, response) = try await Self.fetch(base.appendingPathComponent("item/1000.json"), session: session)
        #expect(response.statusCode == 200)
        let story = try JSONDecoder().decode(Story.self, from: data)
        #expect(story.title == "How Important is the .com TLD?")
        let (_, missing) = try await Self.fetch(base.appendingPathComponent("item/1.json"), session: session)
        #expect(missing.statusCode == 404)
    }

    @Test func offlineHostFailsLikeNoNetwork() async {
        SnapshotURLProtocol.register(.offline, forHost: "offline.snapshot.test")
        defer { SnapshotURLProtocol.unregister(host: "offline.snapshot.test") }
        let session = URLSession(configuration: SnapshotURLProtocol.sessionConfiguration())
        await #expect(throws: URLError.self) {
            _ = try await Self.fetch(URL(string: "https://offline.snapshot.test/v0/newstories.json")!, session: session)
        }
    }

    @Test func storiesSortNewestFirstAndPrintLikeTheBook() {
        let old = Story(id: 1, title: "Old", by: "a", time: 100, url: "http://a")
        let new = Story(id: 2, title: "New", by: "b", time: 200, url: "http://b")
        #expect([old, new].sorted() == [new, old])
        #expect(old.debugDescription == "\nOld\nby a\nhttp://a\n-----")
    }

    @Test func rendererNumbersStoriesAndSaysWhenNothingMatches() {
        let story = Story(id: 1, title: "Swift on Linux", by: "tim", time: 0, url: "https://swift.org")
        let text = StoryListRenderer.render([story], keywords: ["swift"], updated: Date(timeIntervalSince1970: 0))
        #expect(text == """
            Hacker News — 1 newest story, updated 1970-01-01 00:00 UTC
            Filtered by: swift

            1. Swift on Linux
               by tim, 1970-01-01 00:00 UTC
               https://swift.org

            """)
        let snapshot = StoryListRenderer.render([story], freshness: .snapshot(Date(timeIntervalSince1970: 1_732_267_200)))
        #expect(snapshot.hasPrefix("Hacker News — 1 newest story, from a snapshot of 2024-11-22 09:20 UTC\n"))
        #expect(StoryListRenderer.render([], keywords: ["NOSUCHWORD"], updated: Date()) == "No stories match \"NOSUCHWORD\".\n")
        #expect(StoryListRenderer.render([], updated: Date()) == "No stories.\n")
    }

    /// The bundled snapshot's time is its newest item's.
    @Test func theSnapshotsTimeIsItsNewestItems() throws {
        #expect(BundledSnapshot.time() == Date(timeIntervalSince1970: 1_732_267_200))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        #expect(BundledSnapshot.time(of: empty) == nil)
    }
}

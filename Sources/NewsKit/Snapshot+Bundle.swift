import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The API snapshot bundled with the reader (about twenty stories, checked into the repository).
public enum BundledSnapshot {
    /// The host the snapshot answers for: the real API's, so the same URLs work offline.
    public static let host = "hacker-news.firebaseio.com"

    /// The directory holding `v0/newstories.json` and `v0/item/*.json`.
    public static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Snapshot")
    }

    /// The time of a snapshot laid out like the bundled one: the time of its newest item (the
    /// API records no time for the snapshot itself, and a snapshot is at least that recent).
    /// `nil` when the directory holds no item with a time.
    public static func time(of directory: URL = BundledSnapshot.directory) -> Date? {
        let items = directory.appendingPathComponent("v0/item")
        let files = (try? FileManager.default.contentsOfDirectory(at: items, includingPropertiesForKeys: nil)) ?? []
        struct Timed: Decodable { let time: TimeInterval? }
        let times = files.compactMap { file -> TimeInterval? in
            guard let data = try? Data(contentsOf: file) else { return nil }
            return (try? JSONDecoder().decode(Timed.self, from: data))?.time
        }
        return times.max().map { Date(timeIntervalSince1970: $0) }
    }

    /// A session that answers API requests from `directory` (registered under `host`) instead of
    /// the network.
    public static func session(directory: URL = BundledSnapshot.directory, host: String = BundledSnapshot.host) -> URLSession {
        SnapshotURLProtocol.register(.directory(directory), forHost: host)
        return URLSession(configuration: SnapshotURLProtocol.sessionConfiguration())
    }
}

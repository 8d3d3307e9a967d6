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

    /// A session that answers API requests from `directory` (registered under `host`) instead of
    /// the network.
    public static func session(directory: URL = BundledSnapshot.directory, host: String = BundledSnapshot.host) -> URLSession {
        SnapshotURLProtocol.register(.directory(directory), forHost: host)
        return URLSession(configuration: SnapshotURLProtocol.sessionConfiguration())
    }
}

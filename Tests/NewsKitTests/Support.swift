import Combine
import Foundation
import NewsKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything a publisher sent, once it completed.
struct Recorded<Output, Failure: Error> {
    var values: [Output] = []
    var completion: Subscribers.Completion<Failure>?
}

/// The shared state of one `record(_:timeout:)` call.
final class RecordBox<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    let lock = NSLock()
    var recorded = Recorded<Output, Failure>()
    var cancellable: AnyCancellable?
    var continuation: CheckedContinuation<Void, Never>?
    var done = false
}

/// Hands a non-Sendable value to a queue that is the only one using it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}

/// Subscribes to `publisher` and waits (up to `timeout` seconds) for it to complete.
func record<P: Publisher>(_ publisher: P, timeout: TimeInterval = 10) async -> Recorded<P.Output, P.Failure> {
    let box = RecordBox<P.Output, P.Failure>()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        box.lock.withLock { box.continuation = continuation }
        let cancellable = publisher.sink(
            receiveCompletion: { completion in
                let continuation: CheckedContinuation<Void, Never>? = box.lock.withLock {
                    box.recorded.completion = completion
                    guard !box.done else { return nil }
                    box.done = true
                    return box.continuation
                }
                continuation?.resume()
            },
            receiveValue: { value in box.lock.withLock { box.recorded.values.append(value) } }
        )
        box.lock.withLock { box.cancellable = cancellable }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            let continuation: CheckedContinuation<Void, Never>? = box.lock.withLock {
                guard !box.done else { return nil }
                box.done = true
                return box.continuation
            }
            continuation?.resume()
        }
    }
    return box.lock.withLock { box.recorded }
}

/// A fixture directory laid out like the snapshot, made in a temporary folder.
struct FixtureDirectory {
    let url: URL

    init(newStories: String, items: [Int: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("news-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("v0/item"), withIntermediateDirectories: true)
        try Data(newStories.utf8).write(to: url.appendingPathComponent("v0/newstories.json"))
        for (id, json) in items {
            try Data(json.utf8).write(to: url.appendingPathComponent("v0/item/\(id).json"))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// An API client whose requests for `host` are answered from `directory` in-process.
func snapshotAPI(directory: URL = BundledSnapshot.directory, host: String, maxStories: Int = 30) -> API {
    API(
        baseURL: URL(string: "https://\(host)/v0/")!,
        session: BundledSnapshot.session(directory: directory, host: host),
        maxStories: maxStories
    )
}

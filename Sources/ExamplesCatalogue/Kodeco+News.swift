import Combine
import Foundation
import NewsKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Kodeco ch. 14, "In Practice: Project 'News'": the playground runs of the Hacker News client
// before the app is built on it, against the API snapshot bundled with NewsKit (the book's items
// 1000–1002 are in it). `print(story)` shows the story's `debugDescription`, the book's console
// form.

extension Catalogue {
    static var kodecoNews: [Example] { [
        Example(
            "news-story",
            title: "News: a single story",
            source: "Kodeco ch. 14, fetching a single story",
            book: .differs(
                "The book's console shows a blank line between the author and the URL and another "
                    + "before finished; the Story.debugDescription the book lists prints only the lines "
                    + "shown here."
            ),
            timing: .asynchronous,
            operators: ["dataTaskPublisher", "decode", "catch", "Empty"]
        ) { io in
            let api = API(session: BundledSnapshot.session())
            api.story(id: 1000)
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print($0) })
                .store(in: &io.subscriptions)
        },

        Example(
            "news-story-missing",
            title: "News: a single story",
            source: "Kodeco ch. 14, fetching a story that does not exist",
            book: .notPrinted,
            timing: .asynchronous,
            operators: ["catch", "Empty"]
        ) { io in
            let api = API(session: BundledSnapshot.session())
            api.story(id: -5)
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print($0) })
                .store(in: &io.subscriptions)
        },

        Example(
            "news-merged-stories",
            title: "News: merged stories",
            source: "Kodeco ch. 14, multiple stories via merging publishers",
            book: .differs(
                "The book's console shows a blank line between each author and URL and another "
                    + "before finished; the Story.debugDescription the book lists prints only the lines "
                    + "shown here."
            ),
            timing: .asynchronous,
            operators: ["merge", "reduce"]
        ) { io in
            let api = API(session: StaggeredSnapshotProtocol.makeSession())
            api.mergedStories(ids: StaggeredSnapshotProtocol.order)
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print($0) })
                .store(in: &io.subscriptions)
        },
    ] }
}

/// The bundled snapshot as the merged-stories example's server: each story is answered 50 ms
/// after the one before it, in the order the example asks for them. The snapshot's own protocol
/// answers as soon as the session starts a request, and the session starts the three in any
/// order, so the merge's arrival order would change from run to run; staggered, it is the book's
/// (1000, 1001, 1002) on every run.
final class StaggeredSnapshotProtocol: InProcessURLProtocol {
    /// The stories, in the order they are answered.
    static let order = [1000, 1001, 1002]

    override class var hosts: Set<String> { [BundledSnapshot.host] }

    override class func answer(for url: URL, accept: String?) -> FixtureAnswer {
        var answer = FixtureAnswer()
        if let body = try? Data(contentsOf: BundledSnapshot.directory.appendingPathComponent(url.path)) {
            answer.body = body
        } else {
            answer.statusCode = 404
            answer.body = Data("null".utf8)
        }
        let id = Int(url.deletingPathExtension().lastPathComponent) ?? 0
        answer.delay = 0.05 * Double(order.firstIndex(of: id) ?? 0)
        return answer
    }
}

import Combine
import Foundation
import NewsKit

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
            timing: .asynchronous,
            operators: ["merge", "reduce"]
        ) { io in
            let api = API(session: BundledSnapshot.session())
            api.mergedStories(ids: [1000, 1001, 1002])
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print($0) })
                .store(in: &io.subscriptions)
        },
    ] }
}

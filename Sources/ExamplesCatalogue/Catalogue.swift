/// The catalogue of the source books' examples, in book order.
///
/// Each source file contributes one or more groups (`extension Catalogue { static var … }`).
/// To add examples: write them in a file of their own as a group (`static var myGroup:
/// [Example] { [...] }`), add the group to ``groups``, and their slugs to the book's list in
/// ``bookOrder`` where the book has them. Each example says how its output stands to the book's
/// (`book: .same`, `.differs("why")` or `.notPrinted`), and the book's text or the expected
/// output goes into the tests' list for that book (`Tests/ExamplesTests/ExpectedOutput+*.swift`).
public enum Catalogue {
    /// Every built example, in book order.
    public static var all: [Example] {
        // A slug listed twice keeps its first place; CatalogueTests reports the duplicate.
        let position = Dictionary(bookOrder.enumerated().map { ($1, $0) }) { first, _ in first }
        return groups.flatMap { $0 }.sorted {
            (position[$0.slug] ?? .max, $0.slug) < (position[$1.slug] ?? .max, $1.slug)
        }
    }

    /// The example with the given slug, if any.
    public static func example(named slug: String) -> Example? {
        all.first { $0.slug == slug }
    }

    /// What command-line words stand for, the one rule of both `examples WORD...` and
    /// `examples list WORD...`: a word that is an example's slug stands for that example; any
    /// other word for every example that ``Example/matches(_:)`` it (by operator, book or title),
    /// in book order. The result follows the order of the words, without repeats; `unmatched`
    /// holds the words that stand for nothing.
    public static func examples(matching words: [String]) -> (examples: [Example], unmatched: [String]) {
        let everything = all
        var found: [Example] = []
        var unmatched: [String] = []
        for word in words {
            let matching = everything.first(where: { $0.slug == word }).map { [$0] }
                ?? everything.filter { $0.matches(word) }
            if matching.isEmpty { unmatched.append(word) }
            for example in matching where !found.contains(where: { $0.slug == example.slug }) {
                found.append(example)
            }
        }
        return (found, unmatched)
    }

    static var groups: [[Example]] {
        [
            usingCombinePatterns,
            usingCombine,
            debuggingAndResources,
            errorHandling,
            customPublishers,
            masteringIOS14,
            networking,
            kodecoNetworkingAndTimers,
            kodecoNews,
            kodecoFallibleAPI,
            kodecoSchedulers,
            kodecoReader,
            kodecoRemaining,
            usingCombineThreads,
            marbles,
            beyondTheBooks,
        ]
    }

    /// The books' order: *Using Combine* (its patterns, then its reference), Kodeco's *Combine:
    /// Asynchronous Programming with Swift* (part 3, then part 4), *Mastering iOS 14* ch. 13; then
    /// the examples that go beyond the books.
    static var bookOrder: [String] {
        usingCombinePatternsOrder + usingCombineReferenceOrder + kodecoAndMasteringOrder + beyondTheBooksOrder
    }

    /// *Using Combine*'s reference section, in the book's order.
    static let usingCombineReferenceOrder: [String] = [
        // Publishers
        "ref-future", "ref-future-retry", "ref-empty", "ref-fail", "ref-sequence", "ref-record",
        "ref-deferred", "ref-make-connectable", "ref-observable-object", "ref-published",
        "ref-published-error-sink", "ref-notification-center", "ref-timer",
        "ref-data-task-publisher", "ref-result",
        // Operators: mapping, filtering, reducing
        "scan", "ref-scan-count", "ref-try-scan", "ref-map", "ref-try-map", "ref-flat-map",
        "ref-set-failure-type", "ref-compact-map", "ref-try-compact-map", "ref-filter",
        "ref-try-filter", "ref-remove-duplicates", "ref-try-remove-duplicates", "ref-replace-empty",
        "ref-replace-error", "ref-replace-nil", "ref-collect", "ref-collect-by-time",
        "ref-ignore-output", "ref-reduce", "ref-try-reduce",
        // Operators: mathematics, matching, sequence operations
        "ref-max", "ref-min", "ref-count", "ref-all-satisfy", "ref-contains", "ref-contains-where",
        "ref-first", "ref-last", "ref-drop-until-output", "ref-drop-while", "ref-prepend",
        "ref-drop-first", "ref-prefix-until-output", "ref-prefix-while", "ref-output",
        // Operators: mixing publishers, error handling, adapting types
        "ref-combine-latest", "ref-merge", "ref-zip", "catch", "ref-try-catch",
        "ref-assert-no-failure", "ref-retry", "ref-map-error", "switch-to-latest",
        "ref-switch-to-latest-api",
        // Operators: timing, coding, multiple subscribers, debugging, schedulers, type erasure
        "ref-debounce", "ref-delay", "ref-measure-interval", "ref-throttle", "ref-timeout",
        "ref-encode", "ref-decode", "ref-share", "ref-multicast", "ref-breakpoint",
        "ref-handle-events", "ref-print", "ref-receive-subscribe", "ref-erase-to-any-publisher",
        "ref-any-subscriber",
        // Subjects, subscribers
        "ref-subjects", "ref-assign", "ref-sink", "ref-any-cancellable",
    ]

    /// Kodeco part 3 and part 4, then *Mastering iOS 14*, in the books' order.
    static let kodecoAndMasteringOrder: [String] = [
        // Kodeco part 3: ch. 9 networking
        "data-task-publisher", "data-task-try-map-decode", "data-task-decode", "data-task-multicast",
        // ch. 10 debugging
        "print", "print-time-logger", "handle-events-forgotten", "handle-events-kept", "breakpoint-debugger",
        // ch. 11 timers, ch. 12 key-value observing
        "run-loop-timer", "timer-publisher", "dispatch-queue-timer", "published-instead-of-kvo", "observable-object",
        // ch. 13 resource management
        "share", "share-removed", "share-late-subscriber", "multicast", "future",
        // ch. 14 the News project
        "news-story", "news-story-missing", "news-merged-stories",
        // Kodeco part 4: ch. 15 SwiftUI & Combine (the model half)
        "reader-fetch-stories", "reader-clock", "settings-binding", "settings-persisted",
        // ch. 16 error handling
        "never-sink", "set-failure-type", "assign-to-on", "assign-to", "assert-no-failure",
        "try-map-map", "try-map", "map-vs-try-map", "map-vs-try-map-throwing",
        "joke-api", "joke-api-map-error", "joke-api-try-map-404", "joke-api-bad-id", "joke-api-unknown-id",
        "catching-low", "catching-high", "retry", "retry-succeeds", "replace-error", "catch-fallback",
        // ch. 17 schedulers
        "expensive-computation", "subscribe-on", "receive-on-main",
        "immediate-scheduler", "immediate-scheduler-global", "run-loop-scheduler", "run-loop-subscribe-on",
        "dispatch-queue-scheduler",
        "operation-queue-concurrent", "operation-queue", "target-queue-challenge",
        // ch. 18 custom publishers and backpressure
        "unwrap", "dispatch-timer", "dispatch-timer-cancelled", "share-replay", "share-replay-print", "pausable-sink-no-resumer", "pausable-sink",
        // Mastering iOS 14
        "sequence-sink", "filter", "map-user", "reduce", "scan-product", "combine-latest", "merge", "zip",
        "passthrough-subject", "current-value-subject",
        "signup-validated-email", "signup-button",
        "notification-publisher", "notification-map-data", "notification-catch", "notification-flat-map",
    ] + marblesOrder
}

/// What the books print for each example; the comment on each entry names the book and
/// section. Where the book's printed text is wrong or
/// depends on the playground (memory addresses, a different input), the entry follows what the
/// code shown really prints and says so.
enum ExpectedOutput {
    /// Every part's expected outputs together (a slug appears in one part only).
    static let bySlug: [String: String] = [
        catalogue, usingCombinePatterns, usingCombineReference,
    ].reduce(into: [:]) { all, part in all.merge(part) { first, _ in first } }

    /// Kodeco, Mastering iOS 14, the marble demos and the examples beyond the books: the first
    /// catalogue's entries and those added since, in their own files.
    static let catalogue: [String: String] = [firstCatalogue, kodeco, mastering, marbles, beyondTheBooks]
        .reduce(into: [:]) { all, part in all.merge(part) { first, _ in first } }

    /// The first catalogue: Kodeco, Mastering iOS 14 and the first *Using Combine* reference entries.
    static let firstCatalogue: [String: String] = [
        // Kodeco ch. 16, Never
        "never-sink": """
            ——— Example of: Never sink ———
            Hello

            """,
        // Kodeco ch. 16, setFailureType
        "set-failure-type": """
            ——— Example of: setFailureType ———
            Got value: Hello
            Finished successfully!

            """,
        // Kodeco ch. 16, assign(to:on:)
        "assign-to-on": """
            ——— Example of: assign(to:on:) ———
            1 Unknown
            2 Shai

            """,
        // Kodeco ch. 16, assign(to:): the initial value, then three timer ticks; the virtual clock starts
        // at the book's first date.
        "assign-to": """
            ——— Example of: assign(to:on:) strong capture ———
            2021-08-21 12:43:32 +0000
            2021-08-21 12:43:33 +0000
            2021-08-21 12:43:34 +0000
            2021-08-21 12:43:35 +0000

            """,
        // Kodeco ch. 16, assertNoFailure (note the trailing space)
        "assert-no-failure": """
            ——— Example of: assertNoFailure ———
            Got value: Hello\u{20}

            """,
        // Kodeco ch. 16, try* operators, with map
        "try-map-map": """
            ——— Example of: tryMap ———
            Got value: 5
            Got value: 4
            Got value: 7
            Completed with finished

            """,
        // Kodeco ch. 16, try* operators, with tryMap; corrected (the book's duplicated line came from a
        // playground with a fourth name), "..." in the book is the module-qualified type name.
        "try-map": """
            ——— Example of: tryMap ———
            Got value: 5
            Completed with failure(ExamplesCatalogue.NameError.tooShort("Shai"))

            """,
        // Kodeco ch. 16, mapping errors
        "map-vs-try-map": """
            ——— Example of: map vs tryMap ———
            Got value Hello World!
            Done!

            """,
        "map-vs-try-map-throwing": """
            ——— Example of: map vs tryMap ———
            Hello is too short!

            """,
        // Kodeco ch. 16, catching and retrying; UIImage descriptions without the playground's memory address.
        "catching-low": """
            ——— Example of: Catching and retrying ———
            Got image: <UIImage named(lq.jpg) {300, 300}>
            finished

            """,
        "catching-high": """
            ——— Example of: Catching and retrying ———
            failure(Failed fetching image with high quality)

            """,
        "retry": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            failure(Failed fetching image with high quality)

            """,
        "retry-succeeds": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got image: <UIImage named(hq.jpg) {1835, 2446}>
            finished

            """,
        "replace-error": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Got image: <UIImage named(na.jpg) {200, 200}>
            finished

            """,
        "catch-fallback": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Failed fetching high quality, falling back to low quality
            Got image: <UIImage named(lq.jpg) {300, 300}>
            finished

            """,
        // Kodeco ch. 18, unwrap()
        "unwrap": """
            ——— Example of: unwrap ———
            Received value: 1
            Received value: 2
            Received value: 3
            Received value: 4

            """,
        // Kodeco ch. 18, the DispatchTimer publisher: real time only; its shape is checked in DispatchTimerTests.
        "dispatch-timer": "",
        // Kodeco ch. 18, shareReplay, test 1; on virtual time the synchronous part takes no time at all.
        "share-replay": """
            ——— Example of: shareReplay ———
            +0.00000s: subscription1 received 1
            +0.00000s: subscription1 received 2
            +0.00000s: subscription1 received 3
            +0.00000s: subscription2 received 2
            +0.00000s: subscription2 received 3
            +0.00000s: subscription1 received 4
            +0.00000s: subscription2 received 4
            +0.00000s: subscription1 received 5
            +0.00000s: subscription2 received 5
            +0.00000s: subscription1 completed: finished
            +0.00000s: subscription2 completed: finished
            Subscribing to shareReplay after upstream completed
            +1.00000s: subscription3 received 4
            +1.00000s: subscription3 received 5
            +1.00000s: subscription3 completed: finished

            """,
        // Kodeco ch. 18, shareReplay, the print verification. The book's listing says "received
        // completion:" where its code prints "completed:"; this follows the code.
        "share-replay-print": """
            ——— Example of: shareReplay ———
            shareReplay: receive subscription: (PassthroughSubject)
            shareReplay: request unlimited
            shareReplay: receive value: (1)
            +0.00000s: subscription1 received 1
            shareReplay: receive value: (2)
            +0.00000s: subscription1 received 2
            shareReplay: receive value: (3)
            +0.00000s: subscription1 received 3
            +0.00000s: subscription2 received 2
            +0.00000s: subscription2 received 3
            shareReplay: receive value: (4)
            +0.00000s: subscription1 received 4
            +0.00000s: subscription2 received 4
            shareReplay: receive value: (5)
            +0.00000s: subscription1 received 5
            +0.00000s: subscription2 received 5
            shareReplay: receive finished
            +0.00000s: subscription1 completed: finished
            +0.00000s: subscription2 completed: finished
            Subscribing to shareReplay after upstream completed
            +1.00000s: subscription3 received 4
            +1.00000s: subscription3 received 5
            +1.00000s: subscription3 completed: finished

            """,
        // Kodeco ch. 18, the pausable sink resumed by a timer
        "pausable-sink": """
            ——— Example of: pausableSink ———
            Receive value: 1
            Pausing
            Subscription is paused, resuming
            Receive value: 2
            Receive value: 3
            Pausing
            Subscription is paused, resuming
            Receive value: 4
            Receive value: 5
            Pausing
            Subscription is paused, resuming
            Receive value: 6
            Pausable subscription completed: finished

            """,
        // Kodeco ch. 10, printing events
        "print": """
            ——— Example of: print ———
            publisher: receive subscription: (1...3)
            publisher: request unlimited
            publisher: receive value: (1)
            publisher: receive value: (2)
            publisher: receive value: (3)
            publisher: receive finished

            """,
        // Kodeco ch. 10, a TimeLogger stream; the intervals between lines are zero on a fixed clock.
        "print-time-logger": """
            ——— Example of: print(_:to:) ———
            +0.00000s: publisher: receive subscription: (1...3)
            +0.00000s: publisher: request unlimited
            +0.00000s: publisher: receive value: (1)
            +0.00000s: publisher: receive value: (2)
            +0.00000s: publisher: receive value: (3)
            +0.00000s: publisher: receive finished

            """,
        // Kodeco ch. 13, Future
        "future": """
            ——— Example of: Future ———
            Performing some work and returning a result
            Subscribing to future...
            subscription1 received: '5'
            subscription1 completed
            subscription2 received: '5'
            subscription2 completed

            """,
        // Using Combine, reference: scan; prints "0 1 3 6 10 15 " (no newline)
        "scan": """
            ——— Example of: scan ———
            0 1 3 6 10 15\u{20}
            """,
        // Using Combine, reference: catch
        "catch": """
            ——— Example of: catch ———
            .sink() received oneValue
            .sink() received twoValue
            .sink() received replacement value
            .sink() received the completion: finished

            """,
        // Using Combine, reference: switchToLatest (the study notes' demo)
        "switch-to-latest": """
            ——— Example of: switchToLatest ———
            Value: 1
            Value: 2
            Value: 3
            Value: 4
            Value: 5

            """,
        // Mastering iOS 14, playground basics (snippets reconstructed from the prose)
        "sequence-sink": """
            ——— Example of: sink ———
            1
            2
            3
            4

            """,
        "filter": """
            ——— Example of: filter ———
            2
            4

            """,
        "reduce": """
            ——— Example of: reduce ———
            24

            """,
        "scan-product": """
            ——— Example of: scan ———
            1
            2
            6
            24

            """,
        // Mastering iOS 14, combineLatest and zip
        "combine-latest": """
            ——— Example of: combineLatest ———
            Result: ("a", 1).
            Result: ("a", 2).
            Result: ("b", 2).
            Result: ("c", 2).
            Result: ("d", 2).
            Result: ("d", 3).
            Result: ("d", 10).

            """,
        "zip": """
            ——— Example of: zip ———
            Result: ("a", 1).
            Result: ("b", 2).
            Result: ("c", 3).
            Result: ("d", 10).

            """,
        // Mastering iOS 14, subjects
        "passthrough-subject": """
            ——— Example of: PassthroughSubject ———
            Result: second value

            """,
        "current-value-subject": """
            ——— Example of: CurrentValueSubject ———
            Result: first value
            Result: second value

            """,
        // Mastering iOS 14, sample app 2, stage 3: after the failure the stream is Just's, finished.
        "notification-catch": """
            ——— Example of: decode and catch ———
            User(id: "123")
            User(id: "-1")

            """,
        // Mastering iOS 14, sample app 2, final version
        "notification-flat-map": """
            ——— Example of: flatMap and catch ———
            User(id: "123")
            User(id: "-1")
            User(id: "123")

            """,
        // Kodeco ch. 16, the Joke API's final version
        "joke-api": """
            ——— Example of: Joke API ———
            Got joke: Joke(id: "9prWnjyImyd", joke: "Why do bears have hairy coats? Fur protection.")
            finished

            """,
        "joke-api-bad-id": """
            ——— Example of: Joke API ———
            failure(Joke with ID 123456 doesn't exist)

            """,
        "joke-api-unknown-id": """
            ——— Example of: Joke API ———
            failure(Joke with ID notAJoke42 doesn't exist)

            """,
        // Kodeco ch. 13, the share() and multicast(subject:) listings
        "share": """
            ——— Example of: share ———
            subscribing first
            shared: receive subscription: (DataTaskPublisher)
            shared: request unlimited
            subscribing second
            shared: receive value: (303425 bytes)
            subscription1 received: '303425 bytes'
            subscription2 received: '303425 bytes'
            shared: receive finished

            """,
        "multicast": """
            ——— Example of: multicast ———
            multicast: receive subscription: (DataTaskPublisher)
            multicast: request unlimited
            multicast: receive value: (303425 bytes)
            subscription1 received: '303425 bytes'
            subscription2 received: '303425 bytes'
            multicast: receive finished

            """,
        // Kodeco ch. 17 (OperationQueue with maxConcurrentOperationCount = 1: in order)
        "operation-queue": """
            ——— Example of: OperationQueue ———
            Received 1
            Received 2
            Received 3
            Received 4
            Received 5
            Received 6
            Received 7
            Received 8
            Received 9
            Received 10

            """,
    ]
}

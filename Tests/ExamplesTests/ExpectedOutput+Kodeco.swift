/// Kodeco, parts 3 and 4: the examples added to the first catalogue, in book order.
extension ExpectedOutput {
    static let kodeco: [String: String] = [
        // Kodeco ch. 9, URLSession extensions. The book shows the code, not its output. The
        // response is printed without the memory address Foundation's description begins with
        // (`BookResponse`); the body is the fixture's 63-byte document.
        "data-task-publisher": """
            ——— Example of: dataTaskPublisher ———
            Retrieved data of size 63, response = <HTTPURLResponse 200 https://mysite.com/mydata.json>

            """,
        // Kodeco ch. 9, Codable support: decoding in tryMap, then with decode(type:decoder:);
        // `MyType` is the fixture document's shape (the book never shows it).
        "data-task-try-map-decode": """
            ——— Example of: decoding with tryMap ———
            Retrieved object MyType(id: 1, title: "Combine: Asynchronous Programming with Swift")

            """,
        "data-task-decode": """
            ——— Example of: decode(type:decoder:) ———
            Retrieved object MyType(id: 1, title: "Combine: Asynchronous Programming with Swift")

            """,
        // Kodeco ch. 9, multicast { PassthroughSubject<Data, URLError>() }: one request, two sinks.
        "data-task-multicast": """
            ——— Example of: multicast ———
            Sink1 Retrieved object 303425 bytes
            Sink2 Retrieved object 303425 bytes

            """,
        // Kodeco ch. 10, handleEvents, the cancellable not kept.
        "handle-events-forgotten": """
            ——— Example of: handleEvents ———
            Network request will start
            Network request cancelled

            """,
        // Kodeco ch. 10, handleEvents, the cancellable kept (the page fetched with a trailing `/`
        // is 303094 bytes in the book).
        "handle-events-kept": """
            ——— Example of: handleEvents ———
            Network request will start
            Network request data received
            Sink received data: 303094 bytes
            Sink received completion: finished

            """,
        // Kodeco ch. 10, using the debugger operators as a last resort: the book gives only the
        // predicate `value > 10 && value < 15` and no output. A true predicate, or a failure
        // reaching breakpointOnError, raises SIGTRAP, which ends a process with no debugger; so
        // the example names the values that would stop, sends only values that pass, and prints
        // the same predicate's verdict beside each.
        "breakpoint-debugger": """
            ——— Example of: breakpoint ———
            Would stop the debugger (SIGTRAP), so not sent: 11, 12, 13, 14
            Received 5, breakpoint predicate: false
            Received 10, breakpoint predicate: false
            Received 15, breakpoint predicate: false
            Received 20, breakpoint predicate: false
            Completed with finished; breakpointOnError stops only on a failure

            """,
        // Kodeco ch. 11, RunLoop: fires at 0, 1 and 2 s; cancelled at 3 s.
        "run-loop-timer": """
            ——— Example of: RunLoop timer ———
            Timer fired
            Timer fired
            Timer fired

            """,
        // Kodeco ch. 11, the Timer class: the counter; the book lets it run, the example stops at 3.
        "timer-publisher": """
            ——— Example of: Timer publisher ———
            Counter is 1
            Counter is 2
            Counter is 3

            """,
        // Kodeco ch. 11, DispatchQueue: the action starts at once, so the first value is 0.
        "dispatch-queue-timer": """
            ——— Example of: DispatchQueue timer ———
            Timer emitted 0
            Timer emitted 1
            Timer emitted 2

            """,
        // Kodeco ch. 12, your own KVO-compliant property: the book's output, from a @Published
        // property standing in for the @objc dynamic one (no KVO on Linux).
        "published-instead-of-kvo": """
            ——— Example of: KVO-compliant property ———
            integerProperty changes to 0
            integerProperty changes to 100
            integerProperty changes to 200

            """,
        // Kodeco ch. 12, ObservableObject: one line per change of a @Published
        // property; the two changes are the example's (the book only subscribes).
        "observable-object": """
            ——— Example of: ObservableObject ———
            object will change
            object will change

            """,
        // Kodeco ch. 13, share() commented out: two subscriptions, two requests
        // (which race: the test compares the lines in any order).
        "share-removed": """
            ——— Example of: share ———
            subscribing first
            shared: receive subscription: (DataTaskPublisher)
            shared: request unlimited
            subscribing second
            shared: receive subscription: (DataTaskPublisher)
            shared: request unlimited
            shared: receive value: (303425 bytes)
            subscription1 received: '303425 bytes'
            shared: receive finished
            shared: receive value: (303425 bytes)
            subscription2 received: '303425 bytes'
            shared: receive finished

            """,
        // Kodeco ch. 13, the late subscriber: the second subscriber
        // arrives after completion and gets only `finished`. The first "subscribing second" is the
        // book's own leftover print, and is in its output too.
        "share-late-subscriber": """
            ——— Example of: share ———
            subscribing first
            shared: receive subscription: (DataTaskPublisher)
            shared: request unlimited
            subscribing second
            shared: receive value: (303425 bytes)
            subscription1 received: '303425 bytes'
            shared: receive finished
            subscribing second
            subscription2 completion finished

            """,
        // Kodeco ch. 14, a single story. The book's console shows extra blank lines around the
        // URL and before `finished`; the book's `debugDescription` ("\n\(title)\nby \(by)\n\(url)
        // \n-----") prints exactly the lines below, which is what this follows.
        "news-story": """
            ——— Example of: News: a single story ———

            How Important is the .com TLD?
            by python_kiss
            http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/
            -----
            finished

            """,
        // Kodeco ch. 14: a missing story is caught and replaced with Empty, so only `finished`.
        "news-story-missing": """
            ——— Example of: News: a single story ———
            finished

            """,
        // Kodeco ch. 14, merged stories: three stories in arrival order (compared in any order: the requests race), then
        // `finished`.
        "news-merged-stories": """
            ——— Example of: News: merged stories ———

            How Important is the .com TLD?
            by python_kiss
            http://www.netbusinessblog.com/2007/02/19/how-important-is-the-dot-com/
            -----

            Wireless: India's Hot, China's Not
            by python_kiss
            http://www.redherring.com/Article.aspx?a=21355
            -----

            The Battle for Mobile Search
            by python_kiss
            http://www.businessweek.com/technology/content/feb2007/tc20070220_828216.htm?campaign_id=rss_daily
            -----
            finished

            """,
        // Kodeco ch. 15, fetching the latest stories: the debug `didSet { print(allStories.count) }`, one
        // line per growing list; the bundled snapshot has eight stories with a link among the
        // first ten ids.
        "reader-fetch-stories": """
            ——— Example of: ReaderViewModel.fetchStories ———
            1
            2
            3
            4
            5
            6
            7
            8

            """,
        // Kodeco ch. 15, the ten-second timer keeping `currentDate` current (the first line is the
        // initial date), on virtual time from the books' first date.
        "reader-clock": """
            ——— Example of: ReaderViewModel clock ———
            Updated: 2021-08-21 12:43:32 +0000
            Updated: 2021-08-21 12:43:42 +0000
            Updated: 2021-08-21 12:43:52 +0000
            Updated: 2021-08-21 12:44:02 +0000

            """,
        // Kodeco ch. 15, `userSettings.$keywords.map { $0.map { $0.value } }.assign(to: \.filter, on:
        // viewModel)`; the prints stand in for the views. objectWillChange fires before the
        // change reaches the filter, as Apple's does (it is sent in willSet).
        "settings-binding": """
            ——— Example of: Settings to ReaderViewModel ———
            Filter: []
            settings will change
            Filter: ["swift"]
            settings will change
            Filter: ["swift", "combine"]
            settings will change
            Filter: ["combine"]

            """,
        // Kodeco ch. 15, challenge 2 (the book gives no console text): the keywords saved by the
        // first launch are loaded by the second and reach the reader's filter.
        "settings-persisted": """
            ——— Example of: persisted settings ———
            First launch, keywords: []
            Second launch, keywords: ["swift", "combine"]
            Filter: ["swift", "combine"]

            """,
        // Kodeco ch. 16, DadJokes.Error + mapError: the 404 body fails to decode.
        "joke-api-map-error": """
            ——— Example of: Joke API ———
            failure(Failed parsing response from server)

            """,
        // Kodeco ch. 16, the tryMap 404 check under a mapError that does not pass its own
        // errors through.
        "joke-api-try-map-404": """
            ——— Example of: Joke API ———
            failure(An unknown error occurred)

            """,
        // Kodeco ch. 17, subscribe(on:) and receive(on:). The book's listing drops the colon its code prints
        // (`thread \(thread): '\(value)'`); this follows the code. Thread 1 is the thread the
        // example starts on.
        "expensive-computation": """
            ——— Example of: subscribe(on:) ———
            Start computation publisher on thread 1
            ExpensiveComputation subscriber received on thread 1
            Beginning expensive computation on thread 1
            Completed expensive computation on thread 1
            Received computation result on thread 1: 'Computation complete'

            """,
        // Kodeco ch. 17, with subscribe(on: queue). Queue thread numbers depend on the machine
        // (the book says so); the test compares them as "not thread 1". The book's "Beginning
        // expensive computation from thread 5" says "from" where the same code said "on" in the
        // run before; this follows the one piece of code.
        "subscribe-on": """
            ——— Example of: subscribe(on:) ———
            Start computation publisher on thread 1
            ExpensiveComputation subscriber received on thread 5
            Beginning expensive computation on thread 5
            Completed expensive computation on thread 5
            Received computation result on thread 5: 'Computation complete'

            """,
        // Kodeco ch. 17, introducing receive(on:): subscribe(on: queue) then receive(on: DispatchQueue.main).
        "receive-on-main": """
            ——— Example of: receive(on:) ———
            Start computation publisher on thread 1
            ExpensiveComputation subscriber received on thread 4
            Beginning expensive computation on thread 4
            Completed expensive computation on thread 4
            Received computation result on thread 1: 'Computation complete'

            """,
        // Kodeco ch. 17, ImmediateScheduler: the chapter's ThreadRecorderView shows, per timer
        // value, the thread at each record point; this prints the same rows as text. Both points
        // are on the main thread.
        "immediate-scheduler": """
            ——— Example of: ImmediateScheduler ———
            1: thread 1 → thread 1
            2: thread 1 → thread 1
            3: thread 1 → thread 1

            """,
        // The page's experiment, receive(on: DispatchQueue.global()) first: a pool thread, the
        // same one at both points (its number depends on the machine; values from the concurrent
        // queue may come in any order).
        "immediate-scheduler-global": """
            ——— Example of: ImmediateScheduler ———
            1: thread 5 → thread 5
            2: thread 7 → thread 7
            3: thread 4 → thread 4

            """,
        // Kodeco ch. 17, RunLoop scheduler (the book shows the rows in its ThreadRecorderView):
        // values hop to a global-queue thread (its number depends on the machine; compared as "not
        // thread 1"), then back with receive(on: RunLoop.current) to the run loop's thread. The
        // book's run loop is the main one; here it is a run loop on the example's own thread,
        // numbered 1 as the main thread it stands in for, because a test process never turns the
        // main run loop. The timer and the 4.5-second cancellation run on virtual time and each
        // tick waits for its value to arrive, so the book's "four values" holds on every run (the
        // book warns a slow machine may show three).
        "run-loop-scheduler": """
            ——— Example of: RunLoop ———
            1: thread 2 → thread 1
            2: thread 3 → thread 1
            3: thread 2 → thread 1
            4: thread 4 → thread 1

            """,
        // Kodeco ch. 17, RunLoop scheduler, the comprehension challenge: subscribe(on:
        // DispatchQueue.global()) in place of the first receive(on:). The book: "everything is
        // recorded on thread one", because the Timer emits on the main run loop whatever queue it
        // is subscribed on. Here thread 1 is the run loop's own thread, standing in for the main
        // thread as above; the ticks are on virtual time and sent from that thread.
        "run-loop-subscribe-on": """
            ——— Example of: RunLoop ———
            1: thread 1 → thread 1
            2: thread 1 → thread 1
            3: thread 1 → thread 1
            4: thread 1 → thread 1

            """,
        // Kodeco ch. 17, DispatchQueue (the book shows the rows in its ThreadRecorderView): values
        // sent on the main queue, received on the serial queue, whose pool thread varies from
        // run to run (compared as "not thread 1"); stopped after four seconds (challenge 1).
        "dispatch-queue-scheduler": """
            ——— Example of: DispatchQueue ———
            1: thread 1 → thread 2
            2: thread 1 → thread 2
            3: thread 1 → thread 2
            4: thread 1 → thread 2

            """,
        // Kodeco ch. 17, OperationQueue with its default concurrency: the book's order; values
        // may arrive in any order, so the test compares the lines in any order.
        "operation-queue-concurrent": """
            ——— Example of: OperationQueue ———
            Received 4
            Received 3
            Received 2
            Received 7
            Received 5
            Received 10
            Received 6
            Received 9
            Received 1
            Received 8

            """,
        // Kodeco ch. 17, challenge 2 (the book leaves the answer to its challenge project): the
        // timer fires on the serial queue, values are received on it and then on a second serial
        // queue targeting it, stopped after four seconds as in challenge 1. The ticks are on
        // virtual time, each sending on the serial queue and waiting for its value to arrive, so
        // four values are shown on every run. Dispatch runs a value's three steps on one pool
        // thread (as below, the answer: Dispatch, not Combine, avoids the hop), but which pool
        // thread, and whether it stays the same, is Dispatch's choice and not guaranteed, so
        // pool-thread numbers are compared as "not thread 1".
        "target-queue-challenge": """
            ——— Example of: DispatchQueue ———
            1: thread 2 → thread 2 → thread 2
            2: thread 2 → thread 2 → thread 2
            3: thread 2 → thread 2 → thread 2
            4: thread 2 → thread 2 → thread 2

            """,
        // Kodeco ch. 18, the DispatchTimer cancelled after 3.5 s: real time only (three ticks, whose times vary);
        // checked by DispatchTimerTests.
        "dispatch-timer-cancelled": "",
        // Kodeco ch. 18, the pausable sink without a resumer.
        "pausable-sink-no-resumer": """
            ——— Example of: pausableSink ———
            Receive value: 1
            Pausing

            """,
    ]

    /// Kodeco examples whose lines may come in any order (concurrent deliveries).
    static let kodecoAnyOrder: Set<String> = ["share-removed", "immediate-scheduler-global", "news-merged-stories", "operation-queue-concurrent"]

    /// Examples printing the numbers of queue threads, which depend on the machine: compared
    /// with every thread number other than 1 read as the same.
    static let threadNumbersVary: Set<String> = [
        "subscribe-on", "receive-on-main", "immediate-scheduler-global", "dispatch-queue-scheduler",
        "run-loop-scheduler", "target-queue-challenge",
    ]
}

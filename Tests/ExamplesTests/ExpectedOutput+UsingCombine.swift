/// *Using Combine* (Heckman), in book order: the core concepts and patterns, then the reference.
/// The book prints console output for only a few of its snippets (scan, catch, switchToLatest,
/// the search field's log, the retry log); the others print what the book's code prints.
extension ExpectedOutput {
    static let usingCombine: [Expected] = [
        // Core concepts, publishers and subscribers: the first pipeline, `Just(5).map { "a string" }.sink`.
        .notPrinted("first-pipeline", prints: """
            The end result was a string

            """),
        // Core concepts, describing pipelines with marble diagrams: the type-changing `map` (5 is "some").
        .notPrinted("type-changing-map", prints: """
            The end result was some

            """),
        // Developing with Combine, types in publishers and subscribers: the nested type the book
        // quotes, then `AnyPublisher<String, Never>` after `eraseToAnyPublisher()` (printed without module
        // names, as the book writes them).
        .notPrinted("type-erasure", prints: """
            without erasure: Publishers.FlatMap<Publishers.Map<Publishers.Catch<Future<String, Error>, Just<String>>, String>, PassthroughSubject<String, Never>>
            with eraseToAnyPublisher(): AnyPublisher<String, Never>

            """),
        // Developing with Combine, pipelines and threads: the section has no listing; this pipeline
        // shows its statements (subscribe(on:) moves what comes before it, an operator taking a
        // scheduler (delay) and receive(on:) move what comes after them). `RunLoop.main` is a run
        // loop on the example's own thread, since a test process never turns the main run loop;
        // places are named by role (queue labels), not by thread numbers, so the text is fixed.
        .notPrinted("pipelines-and-threads", prints: """
            sink subscribes on the main thread
            Deferred makes its publisher on background queue
            map before subscribe(on:) gets 5 on background queue
            map after subscribe(on:) gets 10 on background queue
            map after delay gets 11 on delay's queue
            sink receives value 11 on the run loop's thread

            """),
        // Pattern "creating a subscriber with sink": both sink forms, then `cancel()`; nothing is
        // printed for the values and the completion sent after the cancel.
        .notPrinted("sink-cancel", prints: """
            the simple sink:
            .sink() received one
            the sink with completion and data:
            .sink() received two
            .sink() received three
            cancelled; sending four and a completion

            """),
        // Pattern "creating a subscriber with assign": `receive(on: RunLoop.main)` delivers on the
        // main run loop's next turn (the example's scheduler), and after `cancel()` the button stays as it was.
        .notPrinted("assign-cancel", prints: """
            send(true)
            right after send: isEnabled == false
            yourButton.isEnabled = true
            send(false)
            yourButton.isEnabled = false
            cancelled; send(true)
            after the cancel: isEnabled == false

            """),
        // Pattern "making a network request with dataTaskPublisher": postman-echo's `{"valid":true}`
        // served in-process.
        .notPrinted("fetch-decode", prints: """
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished

            """),
        // Pattern "stricter request processing with dataTaskPublisher": the book's URL passes the
        // status check; a 500 from the same server is thrown as `invalidServerResponse`. The completion
        // prints the error with its module path (`ExamplesCatalogue.UsingCombineTests…` where the book's
        // test target is `UsingCombineTests`).
        .notPrinted("strict-status", prints: """
            GET https://postman-echo.com/time/valid?timestamp=2016-10-10
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished
            GET https://postman-echo.com/status/500
            .sink() received the completion failure(ExamplesCatalogue.UsingCombineTests.TestFailureCondition.invalidServerResponse)
            received error:  invalidServerResponse

            """),
        // Pattern "normalizing errors from a dataTaskPublisher": `fetch(url:)` over 401, 403, 404, 418
        // (client error), 503 (server error), a 200 (its 14 bytes) and an unreachable host, whose URLError
        // swift-corelibs-foundation describes as "NSURLErrorDomain error -1004" (cannot connect to host).
        .notPrinted("api-error", prints: """
            https://postman-echo.com/status/401: Unauthorized
            https://postman-echo.com/status/403: Resource forbidden
            https://postman-echo.com/status/404: Resource not found
            https://postman-echo.com/status/418: client error
            https://postman-echo.com/status/503: server error
            https://postman-echo.com/time/valid?timestamp=2016-10-10: 14 bytes
            https://unreachable.example.com/: The operation could not be completed. (NSURLErrorDomain error -1004.)

            """),
        // Pattern "wrapping an asynchronous call with a Future to create a one-shot publisher": the
        // Future asks for access as soon as it is created, the Deferred one only when subscribed to (a fake
        // callback API stands in for Contacts, which is Apple-only; it answers one second later).
        .notPrinted("future-wrap", prints: """
            creating the Future
            requestAccess(for: .contacts) called
            creating the Deferred Future
            subscribing to both at 2 s
            Future: access granted: true
            Future: completion finished at 2 s
            requestAccess(for: .contacts) called
            Deferred: access granted: true
            Deferred: completion finished at 3 s

            """),
        // Pattern "wrapping an asynchronous call with a Future": the pre-resolved success (`true`)
        // and failure (`ExampleFailure.oneCase`, printed with its module path) Futures.
        .notPrinted("future-resolved", prints: """
            .sink() received true
            .sink() received the completion: finished
            .sink() received the completion: failure(ExamplesCatalogue.UsingCombineTests.ExampleFailure.oneCase)

            """),
        // Pattern "wrapping an asynchronous call with a Future" (the note on Deferred): `retry` on a
        // Future only replays its stored failure, so the work runs once; inside `Deferred` each retry runs it
        // again and the third attempt succeeds.
        .notPrinted("future-retry", prints: """
            Future { … }.retry(2):
            attempt 1
            Future completion: failure(ExamplesCatalogue.UsingCombineTests.TestFailureCondition.invalidServerResponse)
            Deferred { Future { … } }.retry(2):
            attempt 1
            attempt 2
            attempt 3
            Deferred value: succeeded on attempt 3
            Deferred completion: finished

            """),
        // Pattern "sequencing operations with Combine": step 1, the three step-2 Futures in parallel
        // (Zip3), then 3 and 4, logged with `.print()`; pressing start again at 2.5 s prints
        // "Cancelling existing run". Fixed step durations replace the book's random 1–4 s sleeps; step 1's
        // Future was made once in viewDidLoad, so the second run gets its result at once.
        .notPrinted("sequencing", prints: """
            resetting all the steps
            activity indicator started
            attaching a new sink to start things going
            receive subscription: (FlatMap)
            request unlimited
            step 1 done at 1.0 s
            step 2.2 done at 2.0 s
            start pressed again at 2.5 s
            Cancelling existing run
            receive cancel
            activity indicator stopped
            resetting all the steps
            activity indicator started
            attaching a new sink to start things going
            receive subscription: (FlatMap)
            request unlimited
            step 1 done at 2.5 s
            step 2.2 done at 3.5 s
            step 2.3 done at 4.5 s
            step 2.1 done at 5.5 s
            step 3 done at 7.5 s
            step 4 done at 8.5 s
            receive value: (true)
            .sink() received value:  true
            receive finished
            .sink() received the completion:  finished
            activity indicator stopped

            """),
        // Pattern "verify no failure with assertNoFailure" (prose in the book): a parse that can
        // throw, behind the invariant that the field only holds digits, feeding `assign`.
        .notPrinted("assert-invariant", prints: """
            counter label shows 1
            counter label shows 12
            counter label shows 123

            """),
        // Pattern "using catch to handle errors in a one-shot pipeline": a good answer decodes; an
        // HTML page does not, and catch answers `IPInfo(ip: "8.8.8.8")`. (The book's `Publishers.Just`
        // is a pre-release spelling of `Just`.)
        .notPrinted("catch-one-shot", prints: """
            GET http://ip.jsontest.com
            .sink() received IPInfo(ip: "203.0.113.42")
            .sink() received the completion finished
            GET http://ip.jsontest.com/missing
            .sink() received IPInfo(ip: "8.8.8.8")
            .sink() received the completion finished

            """),
        // Pattern "retrying in the event of a temporary failure": a route that drops the connection
        // twice; `delay` (2 s here, a random 1–4 s in the book) spaces the attempts, `retry(3)` makes the
        // third request succeed, and the value still waits its 2 s delay.
        .notPrinted("retry-delay", prints: """
            request #1 at 0 s
            request #1 failed: URLError -1005
            request #2 at 2 s
            request #2 failed: URLError -1005
            request #3 at 4 s
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished at 6 s

            """),
        // Pattern "retrying in the event of a temporary failure", with the `delay(2).retry(5)
        // .timeout(5)` variant: a server taking 10 s; timeout cancels the request and finishes without a value.
        .notPrinted("retry-timeout", prints: """
            request started at 0 s
            request cancelled at 5 s
            .sink() received the completion finished at 5 s

            """),
        // Pattern "using flatMap with catch to handle errors": each URL gets its own one-shot
        // pipeline, so the 500 becomes `valid: false` and the pipeline still answers the next URL (a subject
        // of URLs in place of the book's `Just(testURL)`).
        .notPrinted("flatmap-catch", prints: """
            send https://postman-echo.com/time/valid?timestamp=2016-10-10
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            send https://postman-echo.com/status/500
            .sink() received PostmanEchoTimeStampCheckResponse(valid: false)
            send https://postman-echo.com/time/valid?timestamp=2016-10-10
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished

            """),
        // Pattern "requesting data from an alternate URL when the network is constrained" (WWDC 2019):
        // Linux has no constrained-network API, so the fixture fails the regular URL as a constrained request
        // does (not connected to the internet) and tryCatch asks the low-data URL; any other error (cannot
        // connect, -1004) is rethrown. The book's snippet also misses a brace and spells `HTTPUrlResponse`.
        .notPrinted("fallback-url", prints: """
            adaptiveLoader(regularURL: https://media.example.com/regular)
            received 48000 bytes
            finished
            adaptiveLoader(regularURL: https://unreachable.example.com/regular)
            failed: URLError -1004

            """),
        // Patterns "declarative UI updates from user input" and "debugging pipelines with the print
        // operator": the book's interactive log for h, he, hec, heck, heckj, line for line. Differences: the
        // GitHub user prints with this module's path (`ExamplesCatalogue.UIKit_Combine.GithubAPIUser` where the
        // book's app module is `UIKit_Combine`); the blank lines only come before each "Set username to"
        // (the book's console shows one more, after the `hec` answer); the example ends by releasing the
        // view controller, which prints the two `receive cancel` lines. The `@Published` subscription
        // prints as `PublishedSubject`, the name Apple's current releases give it; the book's log,
        // recorded on an earlier release, shows `CurrentValueSubject`.
        .differs(
            "search-field",
            book: """
            username pipeline: : receive subscription: (RemoveDuplicates)
            username pipeline: : request unlimited
            github user data: : receive subscription: (CurrentValueSubject)
            github user data: : request unlimited
            github user data: : receive value: ([])
            username pipeline: : receive value: ()
            github user data: : receive value: ([])

            Set username to  h
            username pipeline: : receive value: (h)
            github user data: : receive value: ([])

            Set username to  he
            username pipeline: : receive value: (he)
            github user data: : receive value: ([])

            Set username to  hec
            username pipeline: : receive value: (hec)

            Set username to  heck
            github user data: : receive value: ([UIKit_Combine.GithubAPIUser(login: "hec", public_repos: 3, avatar_url: "https://avatars3.githubusercontent.com/u/53656?v=4")])

            username pipeline: : receive value: (heck)
            github user data: : receive value: ([UIKit_Combine.GithubAPIUser(login: "heck", public_repos: 6, avatar_url: "https://avatars3.githubusercontent.com/u/138508?v=4")])

            Set username to  heckj
            username pipeline: : receive value: (heckj)
            github user data: : receive value: ([UIKit_Combine.GithubAPIUser(login: "heckj", public_repos: 69, avatar_url: "https://avatars0.githubusercontent.com/u/43388?v=4")])

            """,
            prints: """
            username pipeline: : receive subscription: (RemoveDuplicates)
            username pipeline: : request unlimited
            github user data: : receive subscription: (PublishedSubject)
            github user data: : request unlimited
            github user data: : receive value: ([])
            username pipeline: : receive value: ()
            github user data: : receive value: ([])

            Set username to  h
            username pipeline: : receive value: (h)
            github user data: : receive value: ([])

            Set username to  he
            username pipeline: : receive value: (he)
            github user data: : receive value: ([])

            Set username to  hec
            username pipeline: : receive value: (hec)

            Set username to  heck
            github user data: : receive value: ([ExamplesCatalogue.UIKit_Combine.GithubAPIUser(login: "hec", public_repos: 3, avatar_url: "https://avatars3.githubusercontent.com/u/53656?v=4")])
            username pipeline: : receive value: (heck)
            github user data: : receive value: ([ExamplesCatalogue.UIKit_Combine.GithubAPIUser(login: "heck", public_repos: 6, avatar_url: "https://avatars3.githubusercontent.com/u/138508?v=4")])

            Set username to  heckj
            username pipeline: : receive value: (heckj)
            github user data: : receive value: ([ExamplesCatalogue.UIKit_Combine.GithubAPIUser(login: "heckj", public_repos: 69, avatar_url: "https://avatars0.githubusercontent.com/u/43388?v=4")])
            github user data: : receive cancel
            username pipeline: : receive cancel

            """
        ),
        // Pattern "declarative UI updates from user input", with `debounce` where the book uses
        // `throttle` (the book names both for continuous pipelines): quick typing sends only `heckj` on.
        .notPrinted("search-debounce", prints: """
            username pipeline: : receive subscription: (RemoveDuplicates)
            username pipeline: : request unlimited
            github user data: : receive subscription: (PublishedSubject)
            github user data: : request unlimited
            github user data: : receive value: ([])
            username pipeline: : receive value: ()
            github user data: : receive value: ([])
            Set username to  h
            Set username to  he
            Set username to  hec
            Set username to  heck
            Set username to  heckj
            username pipeline: : receive value: (heckj)
            github user data: : receive value: ([ExamplesCatalogue.UIKit_Combine.GithubAPIUser(login: "heckj", public_repos: 69, avatar_url: "https://avatars0.githubusercontent.com/u/43388?v=4")])
            github user data: : receive cancel
            username pipeline: : receive cancel

            """),
        // Pattern "cascading UI updates including a network request": the activity indicator
        // follows each request (user, then avatar), the repository count label and the avatar follow
        // `githubUserData`; a name under three characters and an unknown user (404, caught as []) both
        // give "unknown" and the empty image. The label's changes print where the book has a KVO subscriber.
        .notPrinted("cascading-updates", prints: """
            repositoryCountLabel Updated to "unknown"
            githubAvatarImageView shows <empty image>
            githubAvatarImageView shows <empty image>
            Set username to  heckj
            activity indicator started
            activity indicator stopped
            repositoryCountLabel Updated to "69"
            activity indicator started
            activity indicator stopped
            githubAvatarImageView shows <image of 8388 bytes>
            Set username to  he
            repositoryCountLabel Updated to "unknown"
            githubAvatarImageView shows <empty image>
            Set username to  nobody
            activity indicator started
            activity indicator stopped
            githubAvatarImageView shows <empty image>

            """),
        // Pattern "merging multiple pipelines to update UI elements": the message labels and the
        // submit button as the three fields are typed; `assign` sets the button on every combined value.
        .notPrinted("form-validation", prints: """
            value2_message_label Updated to "values must match and have at least 5 characters"
            value1_message_label Updated to "minimum of 3 characters required"
            submission_button.isEnabled = false
            value1 typed: "ab"
            submission_button.isEnabled = false
            value1 typed: "abc"
            value1_message_label Updated to ""
            submission_button.isEnabled = false
            value2 typed: "secret"
            submission_button.isEnabled = false
            value2_repeat typed: "secre"
            submission_button.isEnabled = false
            value2_repeat typed: "secret"
            value2_message_label Updated to ""
            submission_button.isEnabled = true
            value1 typed: "ab"
            value1_message_label Updated to "minimum of 3 characters required"
            submission_button.isEnabled = false

            """),
        // Pattern "creating a repeating publisher by wrapping a delegate based API": a fake heading
        // sensor stands in for CoreLocation; the permission label updates 2 s after the request (the book's
        // `let _ =` would cancel that sink at once, so it is kept); the switch starts and stops the headings;
        // the sensor's error ends the publisher.
        .notPrinted("delegate-proxy", prints: """
            locationPermissionLabel Updated to "notDetermined"
            headingSubscriber: receive subscription: (PassthroughSubject)
            headingSubscriber: request unlimited
            requesting corelocation permission
            updating corelocation permission label
            locationPermissionLabel Updated to "Allowed when in use"
            Enabling heading tracking
            headingSubscriber: receive value: (Heading(trueHeading: 10.0))
            headingLabel Updated to "10.0"
            headingSubscriber: receive value: (Heading(trueHeading: 20.0))
            headingLabel Updated to "20.0"
            Disabling heading tracking
            Enabling heading tracking
            headingSubscriber: receive value: (Heading(trueHeading: 30.0))
            headingLabel Updated to "30.0"
            (the compass is disturbed)
            headingSubscriber: receive error: (headingFailure)

            """),
        // Pattern "responding to updates from NotificationCenter": the custom notification
        // with `userInfo ["foo": "bar"]` (swift-corelibs-foundation's Notification description), and one
        // carrying a value object.
        .notPrinted("notification-custom", prints: """
            passed through:  name = an-example-notification, userInfo = [AnyHashable("foo"): "bar"]
            passed through:  name = an-example-notification, object = a value object

            """),
        // Pattern "responding to updates from NotificationCenter", the AppKit text field part
        // with a stand-in field: only the filter field's changes reach `filterString`.
        .notPrinted("notification-filter", prints: """
            filterString = "com"
            filterString = "combine"

            """),
        // Pattern "using ObservableObject with SwiftUI models as a publisher source": the model as
        // the book writes it; each entry change fires `objectWillChange` twice (the entry, then the
        // validation messages assigned from the pipeline), and the submit button follows `submitAllowed`.
        .notPrinted("reactive-form", prints: """
            validationMessages: ["Please enter values of at least 5 characters."]
            Submit button disabled: true
            firstEntry = "hello"
            objectWillChange
            objectWillChange
            validationMessages: ["Values for fields must match.", "Please enter values of at least 5 characters."]
            Submit button disabled: true
            secondEntry = "hell"
            objectWillChange
            objectWillChange
            validationMessages: ["Values for fields must match.", "Please enter values of at least 5 characters."]
            Submit button disabled: true
            secondEntry = "hello"
            objectWillChange
            objectWillChange
            validationMessages: []
            Submit button disabled: false

            """),
        // Pattern "testing a publisher with XCTestExpectation": the test's assertions printed;
        // the expectation is fulfilled on `.finished`.
        .notPrinted("test-expectation", prints: """
            passed: XCTAssertNotNil(data)
            passed: XCTAssertEqual(httpResponse.statusCode, 200)
            .sink() received the completion finished
            expectation fulfilled: Download from Optional(https://postman-echo.com/time/valid?timestamp=2016-10-10)

            """),
        // Pattern "testing a subscriber with a PassthroughSubject": the counts after each send;
        // the `.finished` sent after the failure changes nothing.
        .notPrinted("test-subject-sink", prints: """
            values received: 0, completions received: 0
            passed: expectedValues contains firstStringValue
            .sink() received firstStringValue
            values received: 1, completions received: 0
            passed: expectedValues contains secondStringValue
            .sink() received secondStringValue
            values received: 2, completions received: 0
            received the error:  anErrorExample
            passed: the error is anErrorExample
            values received: 2, completions received: 1
            values received: 2, completions received: 1

            """),
        // Pattern "testing a subscriber with scheduled sends from PassthroughSubject": no KVO
        // on Linux, so the object publishes `intValue` with @Published (its subscription prints as
        // PublishedSubject); the update is scheduled 0.5 s later. The final `receive cancel` is the
        // example releasing its subscription.
        .notPrinted("test-scheduled-sends", prints: """
            receive subscription: (PublishedSubject)
            request unlimited
            receive value: (0)
            value of intValue updated to: >>0<<
            Updating to foo.intValue on background queue
            receive value: (5)
            value of intValue updated to: >>5<<
            expectation fulfilled: testKVOPublisher
            receive cancel

            """),
        // Pattern "testing with EntwineTest's virtual-time scheduler": `Just(1).delay(for: 1)`
        // has not sunk after subscribing; it has once the scheduler runs.
        .notPrinted("test-virtual-time", prints: """
            after subscribing: didSink == false
            running the scheduler (EntwineTest's `scheduler.resume()`)
            sink received the delayed value: didSink == true

            """),
        // Pattern "using EntwineTest to create a testable publisher and subscriber": the
        // `testMap` recording, subscribed at 200, values at 300, 400, 500.
        .notPrinted("test-testable-map", prints: """
            results.recordedOutput:
                (200, .subscription)
                (300, .input("A"))
                (400, .input("B"))
                (500, .input("C"))

            """),
        // Pattern "debugging pipelines with the print operator", the retry demo: four subscriptions
        // to Fail, then the error downstream. As on current systems, `(2)>`'s subscription comes first (the
        // book's iOS 13 log shows it after the errors), demand requests are logged, and there is no final
        // `receive cancel` (the sink has let go of its subscription when it completed).
        .differs(
            "print-retry",
            book: """
            (1)>: receive subscription: (Empty)
            (1)>: receive error: (invalidServerResponse)
            (1)>: receive subscription: (Empty)
            (1)>: receive error: (invalidServerResponse)
            (1)>: receive subscription: (Empty)
            (1)>: receive error: (invalidServerResponse)
            (1)>: receive subscription: (Empty)
            (1)>: receive error: (invalidServerResponse)
            (2)>: receive error: (invalidServerResponse)
             ** .sink() received the completion: failure(UsingCombineTests.RetryPublisherTests.TestFailureCondition.invalidServerResponse)
            (2)>: receive subscription: (Retry)
            (2)>: request unlimited
            (2)>: receive cancel

            """,
            prints: """
            (1)>: receive subscription: (Empty)
            (2)>: receive subscription: (Retry)
            (2)>: request unlimited
            (1)>: request unlimited
            (1)>: receive error: (invalidServerResponse)
            (1)>: receive subscription: (Empty)
            (1)>: request unlimited
            (1)>: receive error: (invalidServerResponse)
            (1)>: receive subscription: (Empty)
            (1)>: request unlimited
            (1)>: receive error: (invalidServerResponse)
            (1)>: receive subscription: (Empty)
            (1)>: request unlimited
            (1)>: receive error: (invalidServerResponse)
            (2)>: receive error: (invalidServerResponse)
             ** .sink() received the completion: failure(ExamplesCatalogue.UsingCombineTests.RetryPublisherTests.TestFailureCondition.invalidServerResponse)

            """
        ),
        // Pattern "debugging pipelines with the handleEvents operator": all five closures.
        // receiveSubscription comes first, then receiveRequest (the book's annotation has them the other way
        // round), receiveOutput per value, and receiveCancel or receiveCompletion.
        .notPrinted("handle-events", prints: """
            subscribing a pipeline that is cancelled
            receiveSubscription event called with PassthroughSubject
            receiveRequest event called with unlimited
            receiveOutput was invoked with first
            receiveCancel event invoked
            subscribing a pipeline that finishes
            receiveSubscription event called with PassthroughSubject
            receiveRequest event called with unlimited
            receiveOutput was invoked with second
            receiveCompletion event called with finished

            """),
        // Pattern "debugging pipelines with the debugger": `breakpoint` closures that return
        // false, and `breakpointOnError`, let the values through without raising SIGTRAP.
        .notPrinted("breakpoint-predicates", prints: """
            value: 1
            value: 2
            value: 3
            completion: finished

            """),
        // Reference › Future: the closure runs when the Future is created, before anyone subscribes
        // (the book's Contacts request is a stand-in API that answers at once).
        .notPrinted("ref-future", prints: """
            creating the Future
            requestAccess called
            subscribing
            .sink() received true
            .sink() received the completion: finished

            """),
        // Reference › Future: retry does not run a Future's closure again (FB7455914); wrapped in
        // Deferred it does (attempts 1–3, the third succeeds).
        .notPrinted("ref-future-retry", prints: """
            Future with retry(2):
            asyncAPICall attempt 1
            .sink() received the completion: failure(exampleFailure)
            Deferred { Future } with retry(2):
            asyncAPICall attempt 1
            asyncAPICall attempt 2
            asyncAPICall attempt 3
            .sink() received true
            .sink() received the completion: finished

            """),
        // Reference › Empty: no value, finished at once.
        .notPrinted("ref-empty", prints: """
            .sink() received the completion: finished

            """),
        // Reference › Fail: both initialisers fail at once on subscription.
        .notPrinted("ref-fail", prints: """
            .sink() received the completion: failure(exampleFailure)
            .sink() received the completion: failure(exampleFailure)

            """),
        // Reference › Publishers.Sequence (the book's snippet has a stray closing brace).
        .notPrinted("ref-sequence", prints: """
            one
            two
            red
            blue

            """),
        // Reference › Record: the recording is played back to each subscriber; `recording.output`
        // and `recording.completion` can be inspected.
        .notPrinted("ref-record", prints: """
            .sink() received value:  one
            .sink() received value:  two
            .sink() received value:  three
            .sink() received the completion:  finished
            .sink() received value:  one
            .sink() received value:  two
            .sink() received value:  three
            .sink() received the completion:  finished
            recording.output: ["one", "two", "three"]
            recording.completion: finished

            """),
        // Reference › Deferred: the closure runs once per subscriber, at subscription.
        .notPrinted("ref-deferred", prints: """
            creating the Deferred
            subscribing the first subscriber
            requestAccess called
            .sink() received true
            .sink() received the completion: finished
            subscribing the second subscriber
            requestAccess called
            .sink() received true
            .sink() received the completion: finished

            """),
        // Reference › MakeConnectable: nothing until connect(); autoconnect() connects on the first
        // subscriber.
        .notPrinted("ref-make-connectable", prints: """
            subscribed; calling connect()
            Value received in sink:  woot
            with autoconnect():
            Value received in sink:  woot

            """),
        // Reference › ObservableObject: objectWillChange sends Void before the @Published property
        // changes; a property without @Published announces nothing.
        .notPrinted("ref-observable-object", prints: """
            setting username (@Published)
            objectWillChange sent: (), username is still ''
            setting nickname (not @Published)
            username is now 'heckj'

            """),
        // Reference › @Published: a new subscriber gets the current value at once, then every change
        // (the book's `assign(\.text, on:)` spelled `assign(to:on:)`, through `map` to the label's
        // optional type).
        .notPrinted("ref-published", prints: """
            value of username updated to: \u{20}
            label.text = ""
            value of username updated to:  heckj
            label.text = "heckj"

            """),
        // Reference › @Published (testPublishedSinkWithError): the failing pipeline ends for good.
        // The book says the @Published publisher then stops reporting changes altogether; with Apple's
        // Combine only the failed subscription ends, and the other pipeline keeps receiving.
        .notPrinted("ref-published-error-sink", prints: """
            erroring pipeline: received mappedValue
            other pipeline: received ''
            username = "first"
            erroring pipeline: received mappedValue
            other pipeline: received 'first'
            username = "boom"
            erroring pipeline: completion failure(selfDestruct)
            other pipeline: received 'boom'
            username = "after the error"
            other pipeline: received 'after the error'

            """),
        // Reference › NotificationCenter: only notifications of the given name arrive. The fields
        // are printed one by one; `print($0)` of a Notification is worded differently on Linux.
        .notPrinted("ref-notification-center", prints: """
            received your-notification, object: nil, userInfo: nil
            received your-notification, object: nil, userInfo: Optional([AnyHashable("foo"): "bar"])

            """),
        // Reference › Timer, on virtual time from 2021-08-21 12:43:32: the autoconnected timer ticks
        // every second until cancelled; the connectable one ticks only after connect().
        .notPrinted("ref-timer", prints: """
            passed through:  2021-08-21 12:43:33 +0000
            passed through:  2021-08-21 12:43:34 +0000
            passed through:  2021-08-21 12:43:35 +0000
            cancelled the autoconnected timer at 3.2 s
            connect() at 3.5 s
            connectable timer passed through:  2021-08-21 12:43:36 +0000
            connectable timer passed through:  2021-08-21 12:43:37 +0000

            """),
        // Reference › URLSession.dataTaskPublisher, URL and URLRequest forms, against the
        // in-process fixture (303,425-byte page).
        .notPrinted("ref-data-task-publisher", prints: """
            for a URL: data 303425 bytes, status 200
            for a URLRequest: data 303425 bytes, status 200
            .sink() received the completion: finished

            """),
        // Reference › Result: `.publisher` sends the success then finishes, or fails.
        .notPrinted("ref-result", prints: """
            .sink() received 5
            .sink() received the completion: finished
            .sink() received the completion: failure(exampleFailure)

            """),
        // Using Combine, reference: scan; prints "0 1 3 6 10 15 " (no newline)
        .same("scan", book: """
            0 1 3 6 10 15\u{20}
            """),
        // Reference › scan: counting the characters of each string received.
        .notPrinted("ref-scan-count", prints: """
            .sink() received 3
            .sink() received 6
            .sink() received 11
            .sink() received the completion: finished

            """),
        // Reference › tryScan: a throw ends the pipeline with the error.
        .notPrinted("ref-try-scan", prints: """
            .sink() received 1
            .sink() received 3
            .sink() received 6
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › map: `Just(MyStruct()).map { inValue -> Bool in inValue.isValid }`.
        .notPrinted("ref-map", prints: """
            .sink() received true
            .sink() received the completion: finished

            """),
        // Reference › tryMap: `Just(5)` passes, `Just(3)` throws notBigEnough (the book's closure
        // uses `inValue` without naming the parameter; named here).
        .notPrinted("ref-try-map", prints: """
            Just(5):
            .sink() received 5
            .sink() received the completion: finished
            Just(3):
            .sink() received the completion: failure(notBigEnough)

            """),
        // Reference › flatMap: each value decoded in its own Just pipeline; a decoding error becomes
        // the placeholder and the outer pipeline keeps going.
        .notPrinted("ref-flat-map", prints: """
            .sink() received YourType(name: first)
            .sink() received YourType(name: placeholder)
            .sink() received YourType(name: third)
            .sink() received the completion: finished

            """),
        // Reference › setFailureType: Just's <Never> changed to match an API's error type; no
        // failure is produced by it.
        .notPrinted("ref-set-failure-type", prints: """
            .sink() received cached value
            .sink() received fresh value
            .sink() received the completion: failure(invalidServerResponse)

            """),
        // Reference › compactMap: `.compactMap { return $0 }` drops the nils.
        .notPrinted("ref-compact-map", prints: """
            .sink() received one
            .sink() received three
            .sink() received the completion: finished

            """),
        // Reference › tryCompactMap: "boom" throws and ends the stream.
        .notPrinted("ref-try-compact-map", prints: """
            .sink() received one
            .sink() received two
            .sink() received the completion: failure(example)

            """),
        // Reference › filter.
        .notPrinted("ref-filter", prints: """
            .sink() received 2
            .sink() received 4
            .sink() received 6
            .sink() received the completion: finished

            """),
        // Reference › tryFilter: a throw is propagated as the failure.
        .notPrinted("ref-try-filter", prints: """
            .sink() received 2
            .sink() received 4
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › removeDuplicates: only consecutive repeats are dropped; `by:` compares ids.
        .notPrinted("ref-remove-duplicates", prints: """
            removeDuplicates():
            .sink() received a
            .sink() received b
            .sink() received a
            .sink() received the completion: finished
            removeDuplicates(by:):
            .sink() received item 1 (property1: 10)
            .sink() received item 2 (property1: 12)
            .sink() received item 1 (property1: 13)
            .sink() received the completion: finished

            """),
        // Reference › tryRemoveDuplicates: a throw sends the failure and no value.
        .notPrinted("ref-try-remove-duplicates", prints: """
            .sink() received a
            .sink() received b
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › replaceEmpty: only an empty stream that finishes gets the replacement; an
        // empty failing one just fails.
        .notPrinted("ref-replace-empty", prints: """
            an empty stream that finishes:
            .sink() received -replacement-
            .sink() received the completion: finished
            a stream with values:
            .sink() received one
            .sink() received the completion: finished
            an empty stream that fails:
            .sink() received the completion: failure(exampleFailure)

            """),
        // Reference › replaceError: the same output as `catch { Just("foo") }`.
        .notPrinted("ref-replace-error", prints: """
            replaceError(with:):
            .sink() received one
            .sink() received foo
            .sink() received the completion: finished
            catch:
            .sink() received one
            .sink() received foo
            .sink() received the completion: finished

            """),
        // Reference › replaceNil.
        .notPrinted("ref-replace-nil", prints: """
            .sink() received one
            .sink() received -replacement-
            .sink() received three
            .sink() received the completion: finished

            """),
        // Reference › collect: collect() sends one array at the end, collect(3) every three values
        // and the rest at the end; a failure is forwarded instead of the array.
        .notPrinted("ref-collect", prints: """
            collect():
            .sink() received ["one", "two", "three", "four", "five", "six", "seven"]
            .sink() received the completion: finished
            collect(3):
            .sink() received ["one", "two", "three"]
            .sink() received ["four", "five", "six"]
            .sink() received ["seven"]
            .sink() received the completion: finished
            collect() on a failing stream:
            .sink() received the completion: failure(exampleFailure)

            """),
        // Reference › collect, `.byTime(q, 1.0)` and `.byTimeOrCount(q, 1.0, 3)`: byTime sends
        // what arrived each second and the rest at the finish; byTimeOrCount also sends when three are
        // waiting, and its next interval counts from then.
        .notPrinted("ref-collect-by-time", prints: """
            byTimeOrCount: [1, 2, 3] at 0.3 s
            byTime: [1, 2, 3, 4] at 1.0 s
            byTimeOrCount: [4] at 1.3 s
            byTime: [5] at 2.0 s
            byTimeOrCount: [5, 6, 7] at 2.2 s
            byTime: [6, 7] at 2.5 s
            byTime: completion finished at 2.5 s
            byTimeOrCount: completion finished at 2.5 s

            """),
        // Reference › ignoreOutput: receiveValue is never called.
        .notPrinted("ref-ignore-output", prints: """
            .sink() received the completion finished
            finishReceived: true

            """),
        // Reference › reduce: one value, only when the upstream finishes.
        .notPrinted("ref-reduce", prints: """
            sending "Hello"
            sending ", "
            sending "Combine"
            sending .finished
            .sink() received Hello, Combine
            .sink() received the completion: finished

            """),
        // Reference › tryReduce: a throw sends the failure and no value.
        .notPrinted("ref-try-reduce", prints: """
            ["Hello", ", ", "Combine"]:
            .sink() received Hello, Combine
            .sink() received the completion: finished
            ["Hello", "boom", "Combine"]:
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › max, tryMax.
        .notPrinted("ref-max", prints: """
            max():
            .sink() received 9
            .sink() received the completion: finished
            max(by:):
            .sink() received item 2 (property1: 12)
            .sink() received the completion: finished
            tryMax(by:):
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › min, tryMin; a failure is forwarded with no value.
        .notPrinted("ref-min", prints: """
            min():
            .sink() received 1
            .sink() received the completion: finished
            min(by:):
            .sink() received item 1 (property1: 4)
            .sink() received the completion: finished
            min() on a failing stream:
            .sink() received the completion: failure(exampleFailure)

            """),
        // Reference › count.
        .notPrinted("ref-count", prints: """
            .sink() received 3
            .sink() received the completion: finished
            count() on a failing stream:
            .sink() received the completion: failure(exampleFailure)

            """),
        // Reference › allSatisfy, tryAllSatisfy. The book says allSatisfy answers only when the
        // upstream finishes; Apple's Combine answers `false` at the first failing value and finishes
        // then (here before 4 is sent). `true` still waits for the finish.
        .notPrinted("ref-all-satisfy", prints: """
            sending 1
            sending 2
            sending -3
            .sink() received false
            .sink() received the completion: finished
            sending 4
            all positive:
            .sink() received true
            .sink() received the completion: finished
            tryAllSatisfy throwing:
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › contains: `true` and finish at the first match (later values ignored);
        // `false` when the upstream finishes first.
        .notPrinted("ref-contains", prints: """
            sending one
            sending two
            .sink() received true
            .sink() received the completion: finished
            sending three
            no match before .finished:
            .sink() received false
            .sink() received the completion: finished

            """),
        // Reference › containsWhere, tryContainsWhere.
        .notPrinted("ref-contains-where", prints: """
            .sink() received true
            .sink() received the completion: finished
            .sink() received false
            .sink() received the completion: finished
            tryContains(where:):
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › first, firstWhere, tryFirstWhere.
        .notPrinted("ref-first", prints: """
            first():
            .sink() received one
            .sink() received the completion: finished
            first() of an empty stream:
            .sink() received the completion: finished
            first(where:):
            .sink() received three
            .sink() received the completion: finished
            tryFirst(where:):
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › last, lastWhere, tryLastWhere.
        .notPrinted("ref-last", prints: """
            last():
            .sink() received six
            .sink() received the completion: finished
            last(where:):
            .sink() received four
            .sink() received the completion: finished
            last(where:) with no match:
            .sink() received the completion: finished
            tryLast(where:):
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › dropUntilOutput.
        .notPrinted("ref-drop-until-output", prints: """
            trigger sends a value
            .sink() received three
            .sink() received four
            .sink() received the completion: finished

            """),
        // Reference › dropWhile, tryDropWhile: a one-time gate, not a filter.
        .notPrinted("ref-drop-while", prints: """
            .sink() received one
            .sink() received seven
            .sink() received two
            .sink() received the completion: finished
            tryDrop(while:):
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › prepend (Publishers.Concatenate) and its sequence and single-value forms; a
        // suffix failure waits until the prefix completes.
        .notPrinted("ref-prepend", prints: """
            Publishers.Concatenate(prefix:suffix:):
            .sink() received one
            .sink() received two
            .sink() received three
            .sink() received four
            .sink() received the completion: finished
            secondPublisher.prepend(firstPublisher):
            .sink() received one
            .sink() received two
            .sink() received three
            .sink() received four
            .sink() received the completion: finished
            prepend(["one", "two"]):
            .sink() received one
            .sink() received two
            .sink() received three
            .sink() received four
            .sink() received the completion: finished
            prepend("one"):
            .sink() received one
            .sink() received three
            .sink() received four
            .sink() received the completion: finished
            the suffix fails before the prefix completes:
            .sink() received one
            .sink() received two
            prefix completes
            .sink() received the completion: failure(exampleFailure)

            """),
        // Reference › drop: dropFirst(), dropFirst(3).
        .notPrinted("ref-drop-first", prints: """
            dropFirst():
            .sink() received two
            .sink() received three
            .sink() received four
            .sink() received five
            .sink() received the completion: finished
            dropFirst(3):
            .sink() received four
            .sink() received five
            .sink() received the completion: finished

            """),
        // Reference › prefixUntilOutput.
        .notPrinted("ref-prefix-until-output", prints: """
            .sink() received one
            .sink() received two
            second publisher sends a value
            .sink() received the completion: finished

            """),
        // Reference › prefixWhile, tryPrefixWhile (the book shows `.prefix` for both; the API is
        // `prefix(while:)` and `tryPrefix(while:)`).
        .notPrinted("ref-prefix-while", prints: """
            .sink() received three
            .sink() received four
            .sink() received the completion: finished
            tryPrefix(while:):
            .sink() received three
            .sink() received the completion: failure(invalidValue)

            """),
        // Reference › output: 0-indexed; the book's `output(at: 2...3)` is `output(in:)`.
        .notPrinted("ref-output", prints: """
            output(at: 3):
            .sink() received three
            .sink() received the completion: finished
            output(in: 2...3):
            .sink() received two
            .sink() received three
            .sink() received the completion: finished
            output(at: 7), upstream finishes first:
            .sink() received the completion: finished

            """),
        // Reference › combineLatest. Not said in the book: nothing is sent until every upstream
        // has sent a value.
        .notPrinted("ref-combine-latest", prints: """
            (nothing until both have sent a value)
            .sink() received ("Ann", 30)
            .sink() received ("Bob", 30)
            names finishes; ages keeps going
            .sink() received ("Bob", 31)
            .sink() received the completion: finished

            """),
        // Reference › merge, MergeMany.
        .notPrinted("ref-merge", prints: """
            .sink() received first: one
            .sink() received second: one
            first finishes; merge keeps forwarding second
            .sink() received second: two
            .sink() received the completion: finished
            Publishers.MergeMany:
            .sink() received a
            .sink() received b
            .sink() received c
            .sink() received d
            .sink() received the completion: finished

            """),
        // Reference › zip (Zip3 as a synchronisation point).
        .notPrinted("ref-zip", prints: """
            (waiting for 2.2)
            .sink() received ("2.1 done", "2.2 done", "2.3 done")
            step 2.1 finishes
            .sink() received the completion: finished

            """),
        // Using Combine, reference: catch
        .same("catch", book: """
            .sink() received oneValue
            .sink() received twoValue
            .sink() received replacement value
            .sink() received the completion: finished

            """),
        // Reference › tryCatch: the handler returns a new publisher or throws.
        .notPrinted("ref-try-catch", prints: """
            a recoverable error:
            .sink() received oneValue
            .sink() received fallback value
            .sink() received the completion: finished
            an error the handler rethrows:
            .sink() received oneValue
            .sink() received the completion: failure(invalidServerResponse)

            """),
        // Reference › assertNoFailure (the good path only: a failure stops the program).
        .notPrinted("ref-assert-no-failure", prints: """
            .sink() received oneValue
            .sink() received twoValue

            """),
        // Reference › retry: retry(3) over a connection failing twice, then the `catch` fallback
        // `IPInfo(ip: "8.8.8.8")` when the body does not decode (in-process ip.jsontest.com).
        .notPrinted("ref-retry", prints: """
            a flaky connection:
            request attempt 1
            attempt 1 failed, URLError code -1005
            request attempt 2
            attempt 2 failed, URLError code -1005
            request attempt 3
            .sink() received IPInfo(ip: "203.0.113.7")
            .sink() received the completion: finished
            a response that does not decode:
            request attempt 1
            .sink() received IPInfo(ip: "8.8.8.8")
            .sink() received the completion: finished

            """),
        // Reference › mapError: APIError kept, URLError converted, anything else unknown.
        .notPrinted("ref-map-error", prints: """
            .sink() received the completion: failure(unknown)
            .sink() received the completion: failure(networkError(code: -1009))
            .sink() received the completion: failure(unknown)

            """),
        // Using Combine, reference: switchToLatest (the study notes' demo)
        .same("switch-to-latest", book: """
            Value: 1
            Value: 2
            Value: 3
            Value: 4
            Value: 5

            """),
        // Reference › switchToLatest with an API returning a publisher per username.
        .notPrinted("ref-switch-to-latest-api", prints: """
            .sink() received []
            .sink() received ["heck (GitHub user)"]
            .sink() received ["heckj (GitHub user)"]

            """),
        // Reference › debounce(for: 0.5): the last value of each burst, half a second after it.
        .notPrinted("ref-debounce", prints: """
            sent h at 0.1 s
            sent he at 0.2 s
            sent hec at 0.3 s
            .sink() received hec at 0.8 s
            sent heck at 1.0 s
            .sink() received heck at 1.5 s
            sent heckj at 1.6 s
            sent heck at 1.9 s
            .sink() received heck at 2.4 s
            .sink() received the completion: finished at 3.0 s

            """),
        // Reference › delay(for: 2.0): values and the completion two seconds late.
        .notPrinted("ref-delay", prints: """
            sent 10.0 at 0.0 s
            sent 20.0 at 0.5 s
            sent .finished at 1.0 s
            .sink() received 10.0 at 2.0 s
            .sink() received 20.0 at 2.5 s
            .sink() received the completion: finished at 3.0 s

            """),
        // Reference › measureInterval: the time since the subscription, then since the previous
        // value.
        .notPrinted("ref-measure-interval", prints: """
            .sink() received an interval of 500 ms
            .sink() received an interval of 1000 ms
            .sink() received an interval of 250 ms
            .sink() received the completion: finished

            """),
        // Reference › throttle, with Apple's current timing (the book's marbles are iOS 13.3's): the
        // first value after a quiet window at once, then one per 0.5 s window, the last or the first.
        .notPrinted("ref-throttle", prints: """
            throttle(for: 0.5, latest: true):
            sent a at 0.1 s
            .sink() received a at 0.1 s
            sent b at 0.2 s
            sent c at 0.3 s
            .sink() received c at 0.6 s
            sent d at 0.7 s
            sent e at 0.8 s
            .sink() received e at 1.1 s
            sent f at 2.0 s
            .sink() received f at 2.0 s
            .sink() received the completion: finished at 2.6 s
            throttle(for: 0.5, latest: false):
            sent a at 3.1 s
            .sink() received a at 3.1 s
            sent b at 3.2 s
            sent c at 3.3 s
            .sink() received b at 3.6 s
            sent d at 3.7 s
            sent e at 3.8 s
            .sink() received d at 4.1 s
            sent f at 5.0 s
            .sink() received f at 5.0 s
            .sink() received the completion: finished at 5.6 s

            """),
        // Reference › timeout: the book's delay(2) + retry(5) + timeout(5). The book says timeout
        // needs <Never> and never fails; with Apple's API a customError makes it fail instead.
        .notPrinted("ref-timeout", prints: """
            request attempt 1 at 0.0 s
            request attempt 2 at 2.0 s
            request attempt 3 at 4.0 s
            .sink() received the completion: finished at 5.0 s
            with customError:
            request attempt 1 at 5.5 s
            request attempt 2 at 7.5 s
            request attempt 3 at 9.5 s
            .sink() received the completion: failure(exampleFailure) at 10.5 s

            """),
        // Reference › encode (the book's `print(stringRepresentation)` of an Optional).
        .notPrinted("ref-encode", prints: """
            .sink() data received 14 bytes
            Optional("{\\"valid\\":true}")

            """),
        // Reference › decode: postman-echo's `{"valid":true}` (in-process), then a body that does
        // not match the type.
        .notPrinted("ref-decode", prints: """
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion: finished
            decoding data that does not match:
            .sink() received a failure: DecodingError

            """),
        // Reference › share: the work runs once for both subscribers; one that subscribes after the
        // data only gets the completion.
        .notPrinted("ref-share", prints: """
            expensive work on one value
            subscriber 1 received ONE VALUE
            subscriber 2 received ONE VALUE
            a subscriber after the data has been sent:
            subscriber 3 received the completion: finished

            """),
        // Reference › multicast, the subject and closure forms: no data until connect().
        .notPrinted("ref-multicast", prints: """
            multicast(subject:):
            connect()
            upstream subscribed
            .sink() received subscriber 1: one
            .sink() received subscriber 2: one
            .sink() received subscriber 1: two
            .sink() received subscriber 2: two
            .sink() received the completion: finished
            .sink() received the completion: finished
            multicast { subject }:
            (no data until connect)
            upstream subscribed
            .sink() received subscriber 3: one
            .sink() received subscriber 3: two
            .sink() received the completion: finished

            """),
        // Reference › breakpoint, breakpointOnError: closures returning false pass everything on.
        .notPrinted("ref-breakpoint", prints: """
            .sink() received one
            .sink() received two
            .sink() received the completion: finished

            """),
        // Reference › handleEvents driving an activity indicator; Apple calls receiveSubscription
        // before receiveRequest.
        .notPrinted("ref-handle-events", prints: """
            activityIndicator.startAnimating()
            receiveRequest: unlimited
            receiveOutput: data
            .sink() received data
            cancelling
            activityIndicator.stopAnimating()

            """),
        // Reference › print on a @Published pipeline with the book's tryMap; `print(_:to:)` writes
        // into the example's output. The `@Published` subscription prints as `PublishedSubject`, as
        // with Apple's current releases (the book, from an earlier release, shows `CurrentValueSubject`).
        .notPrinted("ref-print", prints: """
            username pipeline: receive subscription: (PublishedSubject)
            username pipeline: request unlimited
            username pipeline: receive value: ()
            .sink() received mappedValue
            username pipeline: receive value: (heckj)
            .sink() received mappedValue
            username pipeline: receive value: (boom)
            username pipeline: receive cancel
            .sink() received the completion: failure(selfDestruct)

            """),
        // Reference › receive, subscribe: the publisher is subscribed on the background scheduler
        // after assign returns; the label is written on the receiving one.
        .notPrinted("ref-receive-subscribe", prints: """
            assign(to:on:) returned
            networkDataPublisher subscribed
            label.text = "403 bytes"

            """),
        // Reference › eraseToAnyPublisher: the nested type before, AnyPublisher after.
        .notPrinted("ref-erase-to-any-publisher", prints: """
            before: Filter<Map<PassthroughSubject<String, Never>, Int>>
            after: AnyPublisher<Int, Never>
            .sink() received 10
            .sink() received 30
            .sink() received the completion: finished

            """),
        // Reference › AnySubscriber, built from closures (asking for two values) and wrapping a sink.
        .notPrinted("ref-any-subscriber", prints: """
            from closures:
            received a subscription, requesting 2
            received one
            received two
            wrapping a sink:
            sink received one
            sink received two
            sink received three
            sink received the completion: finished

            """),
        // Reference › Subjects: CurrentValueSubject gives its value to a new subscriber;
        // PassthroughSubject keeps nothing.
        .notPrinted("ref-subjects", prints: """
            currentValueSubject subscriber received initial value
            currentValueSubject subscriber received second value
            passthroughSubject subscriber received second value

            """),
        // Reference › assign, with `map { image -> UIImage? in image }` to match the optional key
        // path.
        .notPrinted("ref-assign", prints: """
            imageView.image set to: photo.png
            imageView.image set to: avatar.png

            """),
        // Reference › sink: both forms with Just(5); `let _ =` cancels at once, so a later value is
        // never received; nothing after cancel().
        .notPrinted("ref-sink", prints: """
            the simple form:
            .sink() received 5
            the two-closure form:
            .sink() received 5
            .sink() received the completion finished
            let _ = on a publisher that sends later:
            cancel():
            .sink() received before cancel

            """),
        // Reference › AnyCancellable: releasing one, or emptying the set, cancels the subscriber.
        .notPrinted("ref-any-cancellable", prints: """
            received  one
            stored subscriber received  one
            mySubscriber = nil
            stored subscriber received  two
            cancellableSet.removeAll()
            (nothing more received)

            """),
    ]
}

extension ExpectedOutput {
    /// "Using Combine": the core concepts and the patterns chapters (book order).
    static let usingCombinePatterns: [String: String] = [
        // Core concepts, publishers and subscribers: the first pipeline, `Just(5).map { "a string" }.sink`.
        "first-pipeline": """
            ——— Example of: a simple pipeline ———
            The end result was a string

            """,
        // Core concepts, describing pipelines with marble diagrams: the type-changing `map` (5 is "some").
        "type-changing-map": """
            ——— Example of: a type-changing map ———
            The end result was some

            """,
        // Developing with Combine, types in publishers and subscribers: the nested type the book
        // quotes, then `AnyPublisher<String, Never>` after `eraseToAnyPublisher()` (printed without module
        // names, as the book writes them).
        "type-erasure": """
            ——— Example of: types in publishers and subscribers ———
            without erasure: Publishers.FlatMap<Publishers.Map<Publishers.Catch<Future<String, Error>, Just<String>>, String>, PassthroughSubject<String, Never>>
            with eraseToAnyPublisher(): AnyPublisher<String, Never>

            """,
        // Developing with Combine, pipelines and threads: the section has no listing; this pipeline
        // shows its statements (subscribe(on:) moves what comes before it, an operator taking a
        // scheduler (delay) and receive(on:) move what comes after them). `RunLoop.main` is a run
        // loop on the example's own thread, since a test process never turns the main run loop;
        // places are named by role (queue labels), not by thread numbers, so the text is fixed.
        "pipelines-and-threads": """
            ——— Example of: pipelines and threads ———
            sink subscribes on the main thread
            Deferred makes its publisher on background queue
            map before subscribe(on:) gets 5 on background queue
            map after subscribe(on:) gets 10 on background queue
            map after delay gets 11 on delay's queue
            sink receives value 11 on the run loop's thread

            """,
        // Pattern "creating a subscriber with sink": both sink forms, then `cancel()`; nothing is
        // printed for the values and the completion sent after the cancel.
        "sink-cancel": """
            ——— Example of: sink ———
            the simple sink:
            .sink() received one
            the sink with completion and data:
            .sink() received two
            .sink() received three
            cancelled; sending four and a completion

            """,
        // Pattern "creating a subscriber with assign": `receive(on: RunLoop.main)` delivers on the
        // main run loop's next turn (the example's scheduler), and after `cancel()` the button stays as it was.
        "assign-cancel": """
            ——— Example of: assign ———
            send(true)
            right after send: isEnabled == false
            yourButton.isEnabled = true
            send(false)
            yourButton.isEnabled = false
            cancelled; send(true)
            after the cancel: isEnabled == false

            """,
        // Pattern "making a network request with dataTaskPublisher": postman-echo's `{"valid":true}`
        // served in-process.
        "fetch-decode": """
            ——— Example of: dataTaskPublisher and decode ———
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished

            """,
        // Pattern "stricter request processing with dataTaskPublisher": the book's URL passes the
        // status check; a 500 from the same server is thrown as `invalidServerResponse`. The completion
        // prints the error with its module path (`ExamplesCatalogue.UsingCombineTests…` where the book's
        // test target is `UsingCombineTests`).
        "strict-status": """
            ——— Example of: stricter request processing with dataTaskPublisher ———
            GET https://postman-echo.com/time/valid?timestamp=2016-10-10
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished
            GET https://postman-echo.com/status/500
            .sink() received the completion failure(ExamplesCatalogue.UsingCombineTests.TestFailureCondition.invalidServerResponse)
            received error:  invalidServerResponse

            """,
        // Pattern "normalizing errors from a dataTaskPublisher": `fetch(url:)` over 401, 403, 404, 418
        // (client error), 503 (server error), a 200 (its 14 bytes) and an unreachable host, whose URLError
        // swift-corelibs-foundation describes as "NSURLErrorDomain error -1004" (cannot connect to host).
        "api-error": """
            ——— Example of: normalizing errors from a dataTaskPublisher ———
            https://postman-echo.com/status/401: Unauthorized
            https://postman-echo.com/status/403: Resource forbidden
            https://postman-echo.com/status/404: Resource not found
            https://postman-echo.com/status/418: client error
            https://postman-echo.com/status/503: server error
            https://postman-echo.com/time/valid?timestamp=2016-10-10: 14 bytes
            https://unreachable.example.com/: The operation could not be completed. (NSURLErrorDomain error -1004.)

            """,
        // Pattern "wrapping an asynchronous call with a Future to create a one-shot publisher": the
        // Future asks for access as soon as it is created, the Deferred one only when subscribed to (a fake
        // callback API stands in for Contacts, which is Apple-only; it answers one second later).
        "future-wrap": """
            ——— Example of: wrapping an asynchronous call with Future ———
            creating the Future
            requestAccess(for: .contacts) called
            creating the Deferred Future
            subscribing to both at 2 s
            Future: access granted: true
            Future: completion finished at 2 s
            requestAccess(for: .contacts) called
            Deferred: access granted: true
            Deferred: completion finished at 3 s

            """,
        // Pattern "wrapping an asynchronous call with a Future": the pre-resolved success (`true`)
        // and failure (`ExampleFailure.oneCase`, printed with its module path) Futures.
        "future-resolved": """
            ——— Example of: pre-resolved Futures ———
            .sink() received true
            .sink() received the completion: finished
            .sink() received the completion: failure(ExamplesCatalogue.UsingCombineTests.ExampleFailure.oneCase)

            """,
        // Pattern "wrapping an asynchronous call with a Future" (the note on Deferred): `retry` on a
        // Future only replays its stored failure, so the work runs once; inside `Deferred` each retry runs it
        // again and the third attempt succeeds.
        "future-retry": """
            ——— Example of: Future and retry ———
            Future { … }.retry(2):
            attempt 1
            Future completion: failure(ExamplesCatalogue.UsingCombineTests.TestFailureCondition.invalidServerResponse)
            Deferred { Future { … } }.retry(2):
            attempt 1
            attempt 2
            attempt 3
            Deferred value: succeeded on attempt 3
            Deferred completion: finished

            """,
        // Pattern "sequencing operations with Combine": step 1, the three step-2 Futures in parallel
        // (Zip3), then 3 and 4, logged with `.print()`; pressing start again at 2.5 s prints
        // "Cancelling existing run". Fixed step durations replace the book's random 1–4 s sleeps; step 1's
        // Future was made once in viewDidLoad, so the second run gets its result at once.
        "sequencing": """
            ——— Example of: sequencing asynchronous operations ———
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

            """,
        // Pattern "verify no failure with assertNoFailure" (prose in the book): a parse that can
        // throw, behind the invariant that the field only holds digits, feeding `assign`.
        "assert-invariant": """
            ——— Example of: assertNoFailure ———
            counter label shows 1
            counter label shows 12
            counter label shows 123

            """,
        // Pattern "using catch to handle errors in a one-shot pipeline": a good answer decodes; an
        // HTML page does not, and catch answers `IPInfo(ip: "8.8.8.8")`. (The book's `Publishers.Just`
        // is a pre-release spelling of `Just`.)
        "catch-one-shot": """
            ——— Example of: catch in a one-shot pipeline ———
            GET http://ip.jsontest.com
            .sink() received IPInfo(ip: "203.0.113.42")
            .sink() received the completion finished
            GET http://ip.jsontest.com/missing
            .sink() received IPInfo(ip: "8.8.8.8")
            .sink() received the completion finished

            """,
        // Pattern "retrying in the event of a temporary failure": a route that drops the connection
        // twice; `delay` (2 s here, a random 1–4 s in the book) spaces the attempts, `retry(3)` makes the
        // third request succeed, and the value still waits its 2 s delay.
        "retry-delay": """
            ——— Example of: retrying in the event of a temporary failure ———
            request #1 at 0 s
            request #1 failed: URLError -1005
            request #2 at 2 s
            request #2 failed: URLError -1005
            request #3 at 4 s
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished at 6 s

            """,
        // Pattern "retrying in the event of a temporary failure", with the `delay(2).retry(5)
        // .timeout(5)` variant: a server taking 10 s; timeout cancels the request and finishes without a value.
        "retry-timeout": """
            ——— Example of: retry and timeout ———
            request started at 0 s
            request cancelled at 5 s
            .sink() received the completion finished at 5 s

            """,
        // Pattern "using flatMap with catch to handle errors": each URL gets its own one-shot
        // pipeline, so the 500 becomes `valid: false` and the pipeline still answers the next URL (a subject
        // of URLs in place of the book's `Just(testURL)`).
        "flatmap-catch": """
            ——— Example of: flatMap and catch ———
            send https://postman-echo.com/time/valid?timestamp=2016-10-10
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            send https://postman-echo.com/status/500
            .sink() received PostmanEchoTimeStampCheckResponse(valid: false)
            send https://postman-echo.com/time/valid?timestamp=2016-10-10
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion finished

            """,
        // Pattern "requesting data from an alternate URL when the network is constrained" (WWDC 2019):
        // Linux has no constrained-network API, so the fixture fails the regular URL as a constrained request
        // does (not connected to the internet) and tryCatch asks the low-data URL; any other error (cannot
        // connect, -1004) is rethrown. The book's snippet also misses a brace and spells `HTTPUrlResponse`.
        "fallback-url": """
            ——— Example of: requesting data from an alternate URL when the network is constrained ———
            adaptiveLoader(regularURL: https://media.example.com/regular)
            received 48000 bytes
            finished
            adaptiveLoader(regularURL: https://unreachable.example.com/regular)
            failed: URLError -1004

            """,
        // Patterns "declarative UI updates from user input" and "debugging pipelines with the print
        // operator": the book's interactive log for h, he, hec, heck, heckj, line for line. Differences: the
        // GitHub user prints with this module's path (`ExamplesCatalogue.UIKit_Combine.GithubAPIUser` where the
        // book's app module is `UIKit_Combine`); the blank lines only come before each "Set username to"
        // (the book's console shows one more, after the `hec` answer); the example ends by releasing the
        // view controller, which prints the two `receive cancel` lines. The `@Published` subscription
        // prints as `PublishedSubject`, the name Apple's current releases give it; the book's log,
        // recorded on an earlier release, shows `CurrentValueSubject`.
        "search-field": """
            ——— Example of: declarative UI updates from user input ———
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

            """,
        // Pattern "declarative UI updates from user input", with `debounce` where the book uses
        // `throttle` (the book names both for continuous pipelines): quick typing sends only `heckj` on.
        "search-debounce": """
            ——— Example of: declarative UI updates from user input, debounced ———
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

            """,
        // Pattern "cascading UI updates including a network request": the activity indicator
        // follows each request (user, then avatar), the repository count label and the avatar follow
        // `githubUserData`; a name under three characters and an unknown user (404, caught as []) both
        // give "unknown" and the empty image. The label's changes print where the book has a KVO subscriber.
        "cascading-updates": """
            ——— Example of: cascading UI updates including a network request ———
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

            """,
        // Pattern "merging multiple pipelines to update UI elements": the message labels and the
        // submit button as the three fields are typed; `assign` sets the button on every combined value.
        "form-validation": """
            ——— Example of: merging multiple pipelines to update UI elements ———
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

            """,
        // Pattern "creating a repeating publisher by wrapping a delegate based API": a fake heading
        // sensor stands in for CoreLocation; the permission label updates 2 s after the request (the book's
        // `let _ =` would cancel that sink at once, so it is kept); the switch starts and stops the headings;
        // the sensor's error ends the publisher.
        "delegate-proxy": """
            ——— Example of: creating a repeating publisher by wrapping a delegate based API ———
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

            """,
        // Pattern "responding to updates from NotificationCenter": the custom notification
        // with `userInfo ["foo": "bar"]` (swift-corelibs-foundation's Notification description), and one
        // carrying a value object.
        "notification-custom": """
            ——— Example of: responding to updates from NotificationCenter ———
            passed through:  name = an-example-notification, userInfo = [AnyHashable("foo"): "bar"]
            passed through:  name = an-example-notification, object = a value object

            """,
        // Pattern "responding to updates from NotificationCenter", the AppKit text field part
        // with a stand-in field: only the filter field's changes reach `filterString`.
        "notification-filter": """
            ——— Example of: NotificationCenter filtered by object ———
            filterString = "com"
            filterString = "combine"

            """,
        // Pattern "using ObservableObject with SwiftUI models as a publisher source": the model as
        // the book writes it; each entry change fires `objectWillChange` twice (the entry, then the
        // validation messages assigned from the pipeline), and the submit button follows `submitAllowed`.
        "reactive-form": """
            ——— Example of: ObservableObject as a SwiftUI model ———
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

            """,
        // Pattern "testing a publisher with XCTestExpectation": the test's assertions printed;
        // the expectation is fulfilled on `.finished`.
        "test-expectation": """
            ——— Example of: testing a publisher with XCTestExpectation ———
            passed: XCTAssertNotNil(data)
            passed: XCTAssertEqual(httpResponse.statusCode, 200)
            .sink() received the completion finished
            expectation fulfilled: Download from Optional(https://postman-echo.com/time/valid?timestamp=2016-10-10)

            """,
        // Pattern "testing a subscriber with a PassthroughSubject": the counts after each send;
        // the `.finished` sent after the failure changes nothing.
        "test-subject-sink": """
            ——— Example of: testing a subscriber with a PassthroughSubject ———
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

            """,
        // Pattern "testing a subscriber with scheduled sends from PassthroughSubject": no KVO
        // on Linux, so the object publishes `intValue` with @Published (its subscription prints as
        // PublishedSubject); the update is scheduled 0.5 s later. The final `receive cancel` is the
        // example releasing its subscription.
        "test-scheduled-sends": """
            ——— Example of: testing a subscriber with scheduled sends ———
            receive subscription: (PublishedSubject)
            request unlimited
            receive value: (0)
            value of intValue updated to: >>0<<
            Updating to foo.intValue on background queue
            receive value: (5)
            value of intValue updated to: >>5<<
            expectation fulfilled: testKVOPublisher
            receive cancel

            """,
        // Pattern "testing with EntwineTest's virtual-time scheduler": `Just(1).delay(for: 1)`
        // has not sunk after subscribing; it has once the scheduler runs.
        "test-virtual-time": """
            ——— Example of: a virtual-time scheduler ———
            after subscribing: didSink == false
            running the scheduler (EntwineTest's `scheduler.resume()`)
            sink received the delayed value: didSink == true

            """,
        // Pattern "using EntwineTest to create a testable publisher and subscriber": the
        // `testMap` recording, subscribed at 200, values at 300, 400, 500.
        "test-testable-map": """
            ——— Example of: a testable publisher and subscriber ———
            results.recordedOutput:
                (200, .subscription)
                (300, .input("A"))
                (400, .input("B"))
                (500, .input("C"))

            """,
        // Pattern "debugging pipelines with the print operator", the retry demo: four subscriptions
        // to Fail, then the error downstream. As on current systems, `(2)>`'s subscription comes first (the
        // book's iOS 13 log shows it after the errors), demand requests are logged, and there is no final
        // `receive cancel` (the sink has let go of its subscription when it completed).
        "print-retry": """
            ——— Example of: print around retry ———
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

            """,
        // Pattern "debugging pipelines with the handleEvents operator": all five closures.
        // receiveSubscription comes first, then receiveRequest (the book's annotation has them the other way
        // round), receiveOutput per value, and receiveCancel or receiveCompletion.
        "handle-events": """
            ——— Example of: handleEvents ———
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

            """,
        // Pattern "debugging pipelines with the debugger": `breakpoint` closures that return
        // false, and `breakpointOnError`, let the values through without raising SIGTRAP.
        "breakpoint-predicates": """
            ——— Example of: breakpoint ———
            value: 1
            value: 2
            value: 3
            completion: finished

            """,
    ]
}

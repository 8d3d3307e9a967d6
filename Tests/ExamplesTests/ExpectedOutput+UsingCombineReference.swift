/// "Using Combine" (Heckman), the reference chapter: what each `ref-` example prints.
/// The comments name the reference entry; where the book's text differs from Apple's Combine,
/// the entry follows Apple and says so.
extension ExpectedOutput {
    static let usingCombineReference: [String: String] = [
        // Reference › Future: the closure runs when the Future is created, before anyone subscribes
        // (the book's Contacts request is a stand-in API that answers at once).
        "ref-future": """
            ——— Example of: Future ———
            creating the Future
            requestAccess called
            subscribing
            .sink() received true
            .sink() received the completion: finished

            """,
        // Reference › Future: retry does not run a Future's closure again (FB7455914); wrapped in
        // Deferred it does (attempts 1–3, the third succeeds).
        "ref-future-retry": """
            ——— Example of: Future and retry ———
            Future with retry(2):
            asyncAPICall attempt 1
            .sink() received the completion: failure(exampleFailure)
            Deferred { Future } with retry(2):
            asyncAPICall attempt 1
            asyncAPICall attempt 2
            asyncAPICall attempt 3
            .sink() received true
            .sink() received the completion: finished

            """,
        // Reference › Empty: no value, finished at once.
        "ref-empty": """
            ——— Example of: Empty ———
            .sink() received the completion: finished

            """,
        // Reference › Fail: both initialisers fail at once on subscription.
        "ref-fail": """
            ——— Example of: Fail ———
            .sink() received the completion: failure(exampleFailure)
            .sink() received the completion: failure(exampleFailure)

            """,
        // Reference › Publishers.Sequence (the book's snippet has a stray closing brace).
        "ref-sequence": """
            ——— Example of: Publishers.Sequence ———
            one
            two
            red
            blue

            """,
        // Reference › Record: the recording is played back to each subscriber; `recording.output`
        // and `recording.completion` can be inspected.
        "ref-record": """
            ——— Example of: Record ———
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

            """,
        // Reference › Deferred: the closure runs once per subscriber, at subscription.
        "ref-deferred": """
            ——— Example of: Deferred ———
            creating the Deferred
            subscribing the first subscriber
            requestAccess called
            .sink() received true
            .sink() received the completion: finished
            subscribing the second subscriber
            requestAccess called
            .sink() received true
            .sink() received the completion: finished

            """,
        // Reference › MakeConnectable: nothing until connect(); autoconnect() connects on the first
        // subscriber.
        "ref-make-connectable": """
            ——— Example of: MakeConnectable ———
            subscribed; calling connect()
            Value received in sink:  woot
            with autoconnect():
            Value received in sink:  woot

            """,
        // Reference › ObservableObject: objectWillChange sends Void before the @Published property
        // changes; a property without @Published announces nothing.
        "ref-observable-object": """
            ——— Example of: ObservableObject ———
            setting username (@Published)
            objectWillChange sent: (), username is still ''
            setting nickname (not @Published)
            username is now 'heckj'

            """,
        // Reference › @Published: a new subscriber gets the current value at once, then every change
        // (the book's `assign(\.text, on:)` spelled `assign(to:on:)`, through `map` to the label's
        // optional type).
        "ref-published": """
            ——— Example of: @Published ———
            value of username updated to: \u{20}
            label.text = ""
            value of username updated to:  heckj
            label.text = "heckj"

            """,
        // Reference › @Published (testPublishedSinkWithError): the failing pipeline ends for good.
        // The book says the @Published publisher then stops reporting changes altogether; with Apple's
        // Combine only the failed subscription ends, and the other pipeline keeps receiving.
        "ref-published-error-sink": """
            ——— Example of: @Published with an erroring sink ———
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

            """,
        // Reference › NotificationCenter: only notifications of the given name arrive. The fields
        // are printed one by one; `print($0)` of a Notification is worded differently on Linux.
        "ref-notification-center": """
            ——— Example of: NotificationCenter ———
            received your-notification, object: nil, userInfo: nil
            received your-notification, object: nil, userInfo: Optional([AnyHashable("foo"): "bar"])

            """,
        // Reference › Timer, on virtual time from 2021-08-21 12:43:32: the autoconnected timer ticks
        // every second until cancelled; the connectable one ticks only after connect().
        "ref-timer": """
            ——— Example of: Timer ———
            passed through:  2021-08-21 12:43:33 +0000
            passed through:  2021-08-21 12:43:34 +0000
            passed through:  2021-08-21 12:43:35 +0000
            cancelled the autoconnected timer at 3.2 s
            connect() at 3.5 s
            connectable timer passed through:  2021-08-21 12:43:36 +0000
            connectable timer passed through:  2021-08-21 12:43:37 +0000

            """,
        // Reference › URLSession.dataTaskPublisher, URL and URLRequest forms, against the
        // in-process fixture (303,425-byte page).
        "ref-data-task-publisher": """
            ——— Example of: URLSession.dataTaskPublisher ———
            for a URL: data 303425 bytes, status 200
            for a URLRequest: data 303425 bytes, status 200
            .sink() received the completion: finished

            """,
        // Reference › Result: `.publisher` sends the success then finishes, or fails.
        "ref-result": """
            ——— Example of: Result ———
            .sink() received 5
            .sink() received the completion: finished
            .sink() received the completion: failure(exampleFailure)

            """,
        // Reference › scan: counting the characters of each string received.
        "ref-scan-count": """
            ——— Example of: scan counting characters ———
            .sink() received 3
            .sink() received 6
            .sink() received 11
            .sink() received the completion: finished

            """,
        // Reference › tryScan: a throw ends the pipeline with the error.
        "ref-try-scan": """
            ——— Example of: tryScan ———
            .sink() received 1
            .sink() received 3
            .sink() received 6
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › map: `Just(MyStruct()).map { inValue -> Bool in inValue.isValid }`.
        "ref-map": """
            ——— Example of: map ———
            .sink() received true
            .sink() received the completion: finished

            """,
        // Reference › tryMap: `Just(5)` passes, `Just(3)` throws notBigEnough (the book's closure
        // uses `inValue` without naming the parameter; named here).
        "ref-try-map": """
            ——— Example of: tryMap ———
            Just(5):
            .sink() received 5
            .sink() received the completion: finished
            Just(3):
            .sink() received the completion: failure(notBigEnough)

            """,
        // Reference › flatMap: each value decoded in its own Just pipeline; a decoding error becomes
        // the placeholder and the outer pipeline keeps going.
        "ref-flat-map": """
            ——— Example of: flatMap ———
            .sink() received YourType(name: first)
            .sink() received YourType(name: placeholder)
            .sink() received YourType(name: third)
            .sink() received the completion: finished

            """,
        // Reference › setFailureType: Just's <Never> changed to match an API's error type; no
        // failure is produced by it.
        "ref-set-failure-type": """
            ——— Example of: setFailureType ———
            .sink() received cached value
            .sink() received fresh value
            .sink() received the completion: failure(invalidServerResponse)

            """,
        // Reference › compactMap: `.compactMap { return $0 }` drops the nils.
        "ref-compact-map": """
            ——— Example of: compactMap ———
            .sink() received one
            .sink() received three
            .sink() received the completion: finished

            """,
        // Reference › tryCompactMap: "boom" throws and ends the stream.
        "ref-try-compact-map": """
            ——— Example of: tryCompactMap ———
            .sink() received one
            .sink() received two
            .sink() received the completion: failure(example)

            """,
        // Reference › filter.
        "ref-filter": """
            ——— Example of: filter ———
            .sink() received 2
            .sink() received 4
            .sink() received 6
            .sink() received the completion: finished

            """,
        // Reference › tryFilter: a throw is propagated as the failure.
        "ref-try-filter": """
            ——— Example of: tryFilter ———
            .sink() received 2
            .sink() received 4
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › removeDuplicates: only consecutive repeats are dropped; `by:` compares ids.
        "ref-remove-duplicates": """
            ——— Example of: removeDuplicates ———
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

            """,
        // Reference › tryRemoveDuplicates: a throw sends the failure and no value.
        "ref-try-remove-duplicates": """
            ——— Example of: tryRemoveDuplicates ———
            .sink() received a
            .sink() received b
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › replaceEmpty: only an empty stream that finishes gets the replacement; an
        // empty failing one just fails.
        "ref-replace-empty": """
            ——— Example of: replaceEmpty ———
            an empty stream that finishes:
            .sink() received -replacement-
            .sink() received the completion: finished
            a stream with values:
            .sink() received one
            .sink() received the completion: finished
            an empty stream that fails:
            .sink() received the completion: failure(exampleFailure)

            """,
        // Reference › replaceError: the same output as `catch { Just("foo") }`.
        "ref-replace-error": """
            ——— Example of: replaceError ———
            replaceError(with:):
            .sink() received one
            .sink() received foo
            .sink() received the completion: finished
            catch:
            .sink() received one
            .sink() received foo
            .sink() received the completion: finished

            """,
        // Reference › replaceNil.
        "ref-replace-nil": """
            ——— Example of: replaceNil ———
            .sink() received one
            .sink() received -replacement-
            .sink() received three
            .sink() received the completion: finished

            """,
        // Reference › collect: collect() sends one array at the end, collect(3) every three values
        // and the rest at the end; a failure is forwarded instead of the array.
        "ref-collect": """
            ——— Example of: collect ———
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

            """,
        // Reference › collect, `.byTime(q, 1.0)` and `.byTimeOrCount(q, 1.0, 3)`: byTime sends
        // what arrived each second and the rest at the finish; byTimeOrCount also sends when three are
        // waiting, and its next interval counts from then.
        "ref-collect-by-time": """
            ——— Example of: collect by time ———
            byTimeOrCount: [1, 2, 3] at 0.3 s
            byTime: [1, 2, 3, 4] at 1.0 s
            byTimeOrCount: [4] at 1.3 s
            byTime: [5] at 2.0 s
            byTimeOrCount: [5, 6, 7] at 2.2 s
            byTime: [6, 7] at 2.5 s
            byTime: completion finished at 2.5 s
            byTimeOrCount: completion finished at 2.5 s

            """,
        // Reference › ignoreOutput: receiveValue is never called.
        "ref-ignore-output": """
            ——— Example of: ignoreOutput ———
            .sink() received the completion finished
            finishReceived: true

            """,
        // Reference › reduce: one value, only when the upstream finishes.
        "ref-reduce": """
            ——— Example of: reduce ———
            sending "Hello"
            sending ", "
            sending "Combine"
            sending .finished
            .sink() received Hello, Combine
            .sink() received the completion: finished

            """,
        // Reference › tryReduce: a throw sends the failure and no value.
        "ref-try-reduce": """
            ——— Example of: tryReduce ———
            ["Hello", ", ", "Combine"]:
            .sink() received Hello, Combine
            .sink() received the completion: finished
            ["Hello", "boom", "Combine"]:
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › max, tryMax.
        "ref-max": """
            ——— Example of: max ———
            max():
            .sink() received 9
            .sink() received the completion: finished
            max(by:):
            .sink() received item 2 (property1: 12)
            .sink() received the completion: finished
            tryMax(by:):
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › min, tryMin; a failure is forwarded with no value.
        "ref-min": """
            ——— Example of: min ———
            min():
            .sink() received 1
            .sink() received the completion: finished
            min(by:):
            .sink() received item 1 (property1: 4)
            .sink() received the completion: finished
            min() on a failing stream:
            .sink() received the completion: failure(exampleFailure)

            """,
        // Reference › count.
        "ref-count": """
            ——— Example of: count ———
            .sink() received 3
            .sink() received the completion: finished
            count() on a failing stream:
            .sink() received the completion: failure(exampleFailure)

            """,
        // Reference › allSatisfy, tryAllSatisfy. The book says allSatisfy answers only when the
        // upstream finishes; Apple's Combine answers `false` at the first failing value and finishes
        // then (here before 4 is sent). `true` still waits for the finish.
        "ref-all-satisfy": """
            ——— Example of: allSatisfy ———
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

            """,
        // Reference › contains: `true` and finish at the first match (later values ignored);
        // `false` when the upstream finishes first.
        "ref-contains": """
            ——— Example of: contains ———
            sending one
            sending two
            .sink() received true
            .sink() received the completion: finished
            sending three
            no match before .finished:
            .sink() received false
            .sink() received the completion: finished

            """,
        // Reference › containsWhere, tryContainsWhere.
        "ref-contains-where": """
            ——— Example of: contains(where:) ———
            .sink() received true
            .sink() received the completion: finished
            .sink() received false
            .sink() received the completion: finished
            tryContains(where:):
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › first, firstWhere, tryFirstWhere.
        "ref-first": """
            ——— Example of: first ———
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

            """,
        // Reference › last, lastWhere, tryLastWhere.
        "ref-last": """
            ——— Example of: last ———
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

            """,
        // Reference › dropUntilOutput.
        "ref-drop-until-output": """
            ——— Example of: drop(untilOutputFrom:) ———
            trigger sends a value
            .sink() received three
            .sink() received four
            .sink() received the completion: finished

            """,
        // Reference › dropWhile, tryDropWhile: a one-time gate, not a filter.
        "ref-drop-while": """
            ——— Example of: drop(while:) ———
            .sink() received one
            .sink() received seven
            .sink() received two
            .sink() received the completion: finished
            tryDrop(while:):
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › prepend (Publishers.Concatenate) and its sequence and single-value forms; a
        // suffix failure waits until the prefix completes.
        "ref-prepend": """
            ——— Example of: prepend ———
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

            """,
        // Reference › drop: dropFirst(), dropFirst(3).
        "ref-drop-first": """
            ——— Example of: dropFirst ———
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

            """,
        // Reference › prefixUntilOutput.
        "ref-prefix-until-output": """
            ——— Example of: prefix(untilOutputFrom:) ———
            .sink() received one
            .sink() received two
            second publisher sends a value
            .sink() received the completion: finished

            """,
        // Reference › prefixWhile, tryPrefixWhile (the book shows `.prefix` for both; the API is
        // `prefix(while:)` and `tryPrefix(while:)`).
        "ref-prefix-while": """
            ——— Example of: prefix(while:) ———
            .sink() received three
            .sink() received four
            .sink() received the completion: finished
            tryPrefix(while:):
            .sink() received three
            .sink() received the completion: failure(invalidValue)

            """,
        // Reference › output: 0-indexed; the book's `output(at: 2...3)` is `output(in:)`.
        "ref-output": """
            ——— Example of: output ———
            output(at: 3):
            .sink() received three
            .sink() received the completion: finished
            output(in: 2...3):
            .sink() received two
            .sink() received three
            .sink() received the completion: finished
            output(at: 7), upstream finishes first:
            .sink() received the completion: finished

            """,
        // Reference › combineLatest. Not said in the book: nothing is sent until every upstream
        // has sent a value.
        "ref-combine-latest": """
            ——— Example of: combineLatest ———
            (nothing until both have sent a value)
            .sink() received ("Ann", 30)
            .sink() received ("Bob", 30)
            names finishes; ages keeps going
            .sink() received ("Bob", 31)
            .sink() received the completion: finished

            """,
        // Reference › merge, MergeMany.
        "ref-merge": """
            ——— Example of: merge ———
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

            """,
        // Reference › zip (Zip3 as a synchronisation point).
        "ref-zip": """
            ——— Example of: zip ———
            (waiting for 2.2)
            .sink() received ("2.1 done", "2.2 done", "2.3 done")
            step 2.1 finishes
            .sink() received the completion: finished

            """,
        // Reference › tryCatch: the handler returns a new publisher or throws.
        "ref-try-catch": """
            ——— Example of: tryCatch ———
            a recoverable error:
            .sink() received oneValue
            .sink() received fallback value
            .sink() received the completion: finished
            an error the handler rethrows:
            .sink() received oneValue
            .sink() received the completion: failure(invalidServerResponse)

            """,
        // Reference › assertNoFailure (the good path only: a failure stops the program).
        "ref-assert-no-failure": """
            ——— Example of: assertNoFailure ———
            .sink() received oneValue
            .sink() received twoValue

            """,
        // Reference › retry: retry(3) over a connection failing twice, then the `catch` fallback
        // `IPInfo(ip: "8.8.8.8")` when the body does not decode (in-process ip.jsontest.com).
        "ref-retry": """
            ——— Example of: retry ———
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

            """,
        // Reference › mapError: APIError kept, URLError converted, anything else unknown.
        "ref-map-error": """
            ——— Example of: mapError ———
            .sink() received the completion: failure(unknown)
            .sink() received the completion: failure(networkError(code: -1009))
            .sink() received the completion: failure(unknown)

            """,
        // Reference › switchToLatest with an API returning a publisher per username.
        "ref-switch-to-latest-api": """
            ——— Example of: switchToLatest with an API ———
            .sink() received []
            .sink() received ["heck (GitHub user)"]
            .sink() received ["heckj (GitHub user)"]

            """,
        // Reference › debounce(for: 0.5): the last value of each burst, half a second after it.
        "ref-debounce": """
            ——— Example of: debounce ———
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

            """,
        // Reference › delay(for: 2.0): values and the completion two seconds late.
        "ref-delay": """
            ——— Example of: delay ———
            sent 10.0 at 0.0 s
            sent 20.0 at 0.5 s
            sent .finished at 1.0 s
            .sink() received 10.0 at 2.0 s
            .sink() received 20.0 at 2.5 s
            .sink() received the completion: finished at 3.0 s

            """,
        // Reference › measureInterval: the time since the subscription, then since the previous
        // value.
        "ref-measure-interval": """
            ——— Example of: measureInterval ———
            .sink() received an interval of 500 ms
            .sink() received an interval of 1000 ms
            .sink() received an interval of 250 ms
            .sink() received the completion: finished

            """,
        // Reference › throttle, with Apple's current timing (the book's marbles are iOS 13.3's): the
        // first value after a quiet window at once, then one per 0.5 s window, the last or the first.
        "ref-throttle": """
            ——— Example of: throttle ———
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

            """,
        // Reference › timeout: the book's delay(2) + retry(5) + timeout(5). The book says timeout
        // needs <Never> and never fails; with Apple's API a customError makes it fail instead.
        "ref-timeout": """
            ——— Example of: timeout ———
            request attempt 1 at 0.0 s
            request attempt 2 at 2.0 s
            request attempt 3 at 4.0 s
            .sink() received the completion: finished at 5.0 s
            with customError:
            request attempt 1 at 5.5 s
            request attempt 2 at 7.5 s
            request attempt 3 at 9.5 s
            .sink() received the completion: failure(exampleFailure) at 10.5 s

            """,
        // Reference › encode (the book's `print(stringRepresentation)` of an Optional).
        "ref-encode": """
            ——— Example of: encode ———
            .sink() data received 14 bytes
            Optional("{\\"valid\\":true}")

            """,
        // Reference › decode: postman-echo's `{"valid":true}` (in-process), then a body that does
        // not match the type.
        "ref-decode": """
            ——— Example of: decode ———
            .sink() received PostmanEchoTimeStampCheckResponse(valid: true)
            .sink() received the completion: finished
            decoding data that does not match:
            .sink() received a failure: DecodingError

            """,
        // Reference › share: the work runs once for both subscribers; one that subscribes after the
        // data only gets the completion.
        "ref-share": """
            ——— Example of: share ———
            expensive work on one value
            subscriber 1 received ONE VALUE
            subscriber 2 received ONE VALUE
            a subscriber after the data has been sent:
            subscriber 3 received the completion: finished

            """,
        // Reference › multicast, the subject and closure forms: no data until connect().
        "ref-multicast": """
            ——— Example of: multicast ———
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

            """,
        // Reference › breakpoint, breakpointOnError: closures returning false pass everything on.
        "ref-breakpoint": """
            ——— Example of: breakpoint ———
            .sink() received one
            .sink() received two
            .sink() received the completion: finished

            """,
        // Reference › handleEvents driving an activity indicator; Apple calls receiveSubscription
        // before receiveRequest.
        "ref-handle-events": """
            ——— Example of: handleEvents ———
            activityIndicator.startAnimating()
            receiveRequest: unlimited
            receiveOutput: data
            .sink() received data
            cancelling
            activityIndicator.stopAnimating()

            """,
        // Reference › print on a @Published pipeline with the book's tryMap; `print(_:to:)` writes
        // into the example's output. The `@Published` subscription prints as `PublishedSubject`, as
        // with Apple's current releases (the book, from an earlier release, shows `CurrentValueSubject`).
        "ref-print": """
            ——— Example of: print ———
            username pipeline: receive subscription: (PublishedSubject)
            username pipeline: request unlimited
            username pipeline: receive value: ()
            .sink() received mappedValue
            username pipeline: receive value: (heckj)
            .sink() received mappedValue
            username pipeline: receive value: (boom)
            username pipeline: receive cancel
            .sink() received the completion: failure(selfDestruct)

            """,
        // Reference › receive, subscribe: the publisher is subscribed on the background scheduler
        // after assign returns; the label is written on the receiving one.
        "ref-receive-subscribe": """
            ——— Example of: subscribe(on:) and receive(on:) ———
            assign(to:on:) returned
            networkDataPublisher subscribed
            label.text = "403 bytes"

            """,
        // Reference › eraseToAnyPublisher: the nested type before, AnyPublisher after.
        "ref-erase-to-any-publisher": """
            ——— Example of: eraseToAnyPublisher ———
            before: Filter<Map<PassthroughSubject<String, Never>, Int>>
            after: AnyPublisher<Int, Never>
            .sink() received 10
            .sink() received 30
            .sink() received the completion: finished

            """,
        // Reference › AnySubscriber, built from closures (asking for two values) and wrapping a sink.
        "ref-any-subscriber": """
            ——— Example of: AnySubscriber ———
            from closures:
            received a subscription, requesting 2
            received one
            received two
            wrapping a sink:
            sink received one
            sink received two
            sink received three
            sink received the completion: finished

            """,
        // Reference › Subjects: CurrentValueSubject gives its value to a new subscriber;
        // PassthroughSubject keeps nothing.
        "ref-subjects": """
            ——— Example of: CurrentValueSubject and PassthroughSubject ———
            currentValueSubject subscriber received initial value
            currentValueSubject subscriber received second value
            passthroughSubject subscriber received second value

            """,
        // Reference › assign, with `map { image -> UIImage? in image }` to match the optional key
        // path.
        "ref-assign": """
            ——— Example of: assign ———
            imageView.image set to: photo.png
            imageView.image set to: avatar.png

            """,
        // Reference › sink: both forms with Just(5); `let _ =` cancels at once, so a later value is
        // never received; nothing after cancel().
        "ref-sink": """
            ——— Example of: sink ———
            the simple form:
            .sink() received 5
            the two-closure form:
            .sink() received 5
            .sink() received the completion finished
            let _ = on a publisher that sends later:
            cancel():
            .sink() received before cancel

            """,
        // Reference › AnyCancellable: releasing one, or emptying the set, cancels the subscriber.
        "ref-any-cancellable": """
            ——— Example of: AnyCancellable ———
            received  one
            stored subscriber received  one
            mySubscriber = nil
            stored subscriber received  two
            cancellableSet.removeAll()
            (nothing more received)

            """,
    ]
}

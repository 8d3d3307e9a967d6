import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// "Using Combine": the networking and error-handling patterns. Requests go to
// `FixtureURLProtocol` (in-process); where the pattern mixes the network with time (retry with
// delay, timeout) they go to `ScheduledFixtureSession` on the example's scheduler.

extension UsingCombineTests {
    /// matching the data structure returned from https://postman-echo.com/time/valid (the
    /// reference chapter's encode entry encodes it too)
    struct PostmanEchoTimeStampCheckResponse: Codable, Hashable {
        let valid: Bool
    }

    /// matching the data structure returned from ip.jsontest.com
    struct IPInfo: Codable {
        var ip: String
    }

    /// The error the normalising pattern's `mapError` turns into `parserError`.
    struct TestExampleError: Error {}

    /// The normalised error of `fetch(url:)`.
    enum APIError: Error, LocalizedError {
        case unknown, apiError(reason: String), parserError(reason: String), networkError(from: URLError)

        var errorDescription: String? {
            switch self {
            case .unknown:
                return "Unknown error"
            case .apiError(let reason), .parserError(let reason):
                return reason
            case .networkError(let from):
                return from.localizedDescription
            }
        }
    }

    /// The book's `fetch(url:)`: HTTP statuses and transport errors normalised into ``APIError``.
    static func fetch(url: URL, session: URLSession = FixtureURLProtocol.session) -> AnyPublisher<Data, APIError> {
        let request = URLRequest(url: url)

        return URLSession.DataTaskPublisher(request: request, session: session)
            .tryMap { data, response in
                guard let httpResponse = response as? HTTPURLResponse else {
                    throw APIError.unknown
                }
                if (httpResponse.statusCode == 401) {
                    throw APIError.apiError(reason: "Unauthorized");
                }
                if (httpResponse.statusCode == 403) {
                    throw APIError.apiError(reason: "Resource forbidden");
                }
                if (httpResponse.statusCode == 404) {
                    throw APIError.apiError(reason: "Resource not found");
                }
                if (405..<500 ~= httpResponse.statusCode) {
                    throw APIError.apiError(reason: "client error");
                }
                if (500..<600 ~= httpResponse.statusCode) {
                    throw APIError.apiError(reason: "server error");
                }
                return data
            }
            .mapError { error in
                // if it's our kind of error already, we can return it directly
                if let error = error as? APIError {
                    return error
                }
                // if it is a TestExampleError, convert it into our new error type
                if error is TestExampleError {
                    return APIError.parserError(reason: "Our example error")
                }
                // if it is a URLError, we can convert it into our more general error kind
                if let urlerror = error as? URLError {
                    return APIError.networkError(from: urlerror)
                }
                // if all else fails, return the unknown error condition
                return APIError.unknown
            }
            .eraseToAnyPublisher()
    }

    /// The WWDC 2019 adaptive loader. Linux has neither `allowsConstrainedNetworkAccess` nor
    /// `URLError.networkUnavailableReason`, so the fixture's regular URL fails the way a
    /// constrained request does (`.notConnectedToInternet`) and that code is what is checked.
    static func adaptiveLoader(regularURL: URL, lowDataURL: URL, session: URLSession = FixtureURLProtocol.session) -> AnyPublisher<Data, Error> {
        let request = URLRequest(url: regularURL)
        // request.allowsConstrainedNetworkAccess = false  (Apple platforms only)
        return session.dataTaskPublisher(for: request)
            .tryCatch { error -> URLSession.DataTaskPublisher in
                guard error.code == .notConnectedToInternet else {  // networkUnavailableReason == .constrained
                    throw error
                }
                return session.dataTaskPublisher(for: lowDataURL)
            }
            .tryMap { data, response -> Data in
                guard let httpResponse = response as? HTTPURLResponse,
                      httpResponse.statusCode == 200 else {
                    throw TestFailureCondition.invalidServerResponse
                }
                return data
            }
            .eraseToAnyPublisher()
    }
}

/// Runs `steps` one after another (each calls its argument when its output is complete), then
/// `finish`: the network examples make several requests, and their answers arrive on the URL
/// session's queue, so one at a time keeps the output in the book's order.
func runOneAfterAnother(_ steps: [(@escaping () -> Void) -> Void], then finish: @escaping () -> Void) {
    guard let first = steps.first else { return finish() }
    first { runOneAfterAnother(Array(steps.dropFirst()), then: finish) }
}

extension Catalogue {
    static var usingCombineNetworkingPatterns: [Example] { [
        Example(
            "fetch-decode",
            title: "dataTaskPublisher and decode",
            source: "Using Combine, pattern: making a network request with dataTaskPublisher",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            typealias PostmanEchoTimeStampCheckResponse = UsingCombineTests.PostmanEchoTimeStampCheckResponse
            let myURL = URL(string: "https://postman-echo.com/time/valid?timestamp=2016-10-10")
            // checks the validity of a timestamp - this one returns {"valid":true}

            let remoteDataPublisher = FixtureURLProtocol.session.dataTaskPublisher(for: myURL!)
                // the dataTaskPublisher output combination is (data: Data, response: URLResponse)
                .map { $0.data }
                .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())

            let cancellableSink = remoteDataPublisher
                .sink(receiveCompletion: { completion in
                        io.print(".sink() received the completion", String(describing: completion))
                        switch completion {
                            case .finished:
                                break
                            case .failure(let anError):
                                io.print("received error: ", anError)
                        }
                        io.finish()
                }, receiveValue: { someValue in
                    io.print(".sink() received \(someValue)")
                })
            io.whenFinished { cancellableSink.cancel() }
        },

        Example(
            "strict-status",
            title: "stricter request processing with dataTaskPublisher",
            source: "Using Combine, pattern: stricter request processing with dataTaskPublisher",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            typealias PostmanEchoTimeStampCheckResponse = UsingCombineTests.PostmanEchoTimeStampCheckResponse
            typealias TestFailureCondition = UsingCombineTests.TestFailureCondition

            func request(_ url: URL, done: @escaping () -> Void) {
                io.print("GET \(url.absoluteString)")
                let remoteDataPublisher = FixtureURLProtocol.session.dataTaskPublisher(for: url)
                    .tryMap { data, response -> Data in
                        guard let httpResponse = response as? HTTPURLResponse,
                            httpResponse.statusCode == 200 else {
                                throw TestFailureCondition.invalidServerResponse
                        }
                        return data
                    }
                    .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())

                remoteDataPublisher
                    .sink(receiveCompletion: { completion in
                            io.print(".sink() received the completion", String(describing: completion))
                            switch completion {
                                case .finished:
                                    break
                                case .failure(let anError):
                                    io.print("received error: ", anError)
                            }
                            done()
                    }, receiveValue: { someValue in
                        io.print(".sink() received \(someValue)")
                    })
                    .store(in: &io.subscriptions)
            }

            runOneAfterAnother([
                { request(URL(string: "https://postman-echo.com/time/valid?timestamp=2016-10-10")!, done: $0) },
                { request(URL(string: "https://postman-echo.com/status/500")!, done: $0) },
            ], then: io.finish)
        },

        Example(
            "api-error",
            title: "normalizing errors from a dataTaskPublisher",
            source: "Using Combine, pattern: normalizing errors from a dataTaskPublisher",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            let urls = [
                "https://postman-echo.com/status/401",
                "https://postman-echo.com/status/403",
                "https://postman-echo.com/status/404",
                "https://postman-echo.com/status/418",
                "https://postman-echo.com/status/503",
                "https://postman-echo.com/time/valid?timestamp=2016-10-10",
                "https://unreachable.example.com/",
            ]
            runOneAfterAnother(urls.map { address in { done in
                UsingCombineTests.fetch(url: URL(string: address)!)
                    .sink(receiveCompletion: { completion in
                        if case .failure(let error) = completion {
                            io.print("\(address): \(error.localizedDescription)")
                        }
                        done()
                    }, receiveValue: { data in
                        io.print("\(address): \(data.count) bytes")
                    })
                    .store(in: &io.subscriptions)
            } }, then: io.finish)
        },

        Example(
            "catch-one-shot",
            title: "catch in a one-shot pipeline",
            source: "Using Combine, pattern: using catch to handle errors in a one-shot pipeline",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            typealias IPInfo = UsingCombineTests.IPInfo

            func lookUp(_ myURL: URL?, done: @escaping () -> Void) {
                io.print("GET \(myURL!.absoluteString)")
                let remoteDataPublisher = FixtureURLProtocol.session.dataTaskPublisher(for: myURL!)
                    // the dataTaskPublisher output combination is (data: Data, response: URLResponse)
                    .map({ (inputTuple) -> Data in
                        return inputTuple.data
                    })
                    .decode(type: IPInfo.self, decoder: JSONDecoder())
                    .catch { err in
                        return Just(IPInfo(ip: "8.8.8.8"))  // the book's `Publishers.Just` is a pre-release spelling
                    }
                    .eraseToAnyPublisher()

                remoteDataPublisher
                    .sink(receiveCompletion: { completion in
                        io.print(".sink() received the completion", String(describing: completion))
                        done()
                    }, receiveValue: { someValue in
                        io.print(".sink() received \(someValue)")
                    })
                    .store(in: &io.subscriptions)
            }

            runOneAfterAnother([
                { lookUp(URL(string: "http://ip.jsontest.com"), done: $0) },
                // a page that is not the JSON the decoder expects: catch answers the default
                { lookUp(URL(string: "http://ip.jsontest.com/missing"), done: $0) },
            ], then: io.finish)
        },

        Example(
            "retry-delay",
            title: "retrying in the event of a temporary failure",
            source: "Using Combine, pattern: retrying in the event of a temporary failure",
            book: .notPrinted,
            duration: 9,
            body: RetryWithDelayDemo()
        ),

        Example(
            "retry-timeout",
            title: "retry and timeout",
            source: "Using Combine, pattern: retrying in the event of a temporary failure (with timeout)",
            book: .notPrinted,
            duration: 5,
            body: RetryTimeoutDemo()
        ),

        Example(
            "flatmap-catch",
            title: "flatMap and catch",
            source: "Using Combine, pattern: using flatMap with catch to handle errors",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            typealias PostmanEchoTimeStampCheckResponse = UsingCombineTests.PostmanEchoTimeStampCheckResponse
            typealias TestFailureCondition = UsingCombineTests.TestFailureCondition
            // The book starts from `Just(self.testURL!)`; a subject of URLs shows what the pattern
            // is for: after a failed request the pipeline still answers the next URL.
            let urls = PassthroughSubject<URL, Never>()
            var pending = [
                "https://postman-echo.com/status/500",
                "https://postman-echo.com/time/valid?timestamp=2016-10-10",
            ]

            let remoteDataPublisher = urls
                .flatMap { url in
                    FixtureURLProtocol.session.dataTaskPublisher(for: url)
                    .tryMap { data, response -> Data in
                        guard let httpResponse = response as? HTTPURLResponse,
                            httpResponse.statusCode == 200 else {
                                throw TestFailureCondition.invalidServerResponse
                        }
                        return data
                    }
                    .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())
                    .catch {_ in
                        return Just(PostmanEchoTimeStampCheckResponse(valid: false))
                    }
                }
                .eraseToAnyPublisher()

            func sendNext() {
                guard !pending.isEmpty else { return urls.send(completion: .finished) }
                let next = pending.removeFirst()
                io.print("send \(next)")
                urls.send(URL(string: next)!)
            }

            remoteDataPublisher
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion", String(describing: completion))
                    io.finish()
                }, receiveValue: { someValue in
                    io.print(".sink() received \(someValue)")
                    sendNext()
                })
                .store(in: &io.subscriptions)

            io.print("send https://postman-echo.com/time/valid?timestamp=2016-10-10")
            urls.send(URL(string: "https://postman-echo.com/time/valid?timestamp=2016-10-10")!)
        },

        Example(
            "fallback-url",
            title: "requesting data from an alternate URL when the network is constrained",
            source: "Using Combine, pattern: requesting data from an alternate URL when the network is constrained",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            func load(regular: String, done: @escaping () -> Void) {
                io.print("adaptiveLoader(regularURL: \(regular))")
                UsingCombineTests.adaptiveLoader(
                    regularURL: URL(string: regular)!,
                    lowDataURL: URL(string: "https://media.example.com/low-data")!
                )
                .sink(receiveCompletion: { completion in
                    switch completion {
                    case .finished: io.print("finished")
                    case .failure(let error as URLError): io.print("failed: URLError \(error.code.rawValue)")
                    case .failure(let error): io.print("failed: \(error)")
                    }
                    done()
                }, receiveValue: { data in
                    io.print("received \(data.count) bytes")
                })
                .store(in: &io.subscriptions)
            }

            runOneAfterAnother([
                // constrained: tryCatch asks the low-data URL instead
                { load(regular: "https://media.example.com/regular", done: $0) },
                // any other error is thrown on
                { load(regular: "https://unreachable.example.com/regular", done: $0) },
            ], then: io.finish)
        },
    ] }
}

/// The retry pattern against a flaky route that drops the connection twice: each attempt is
/// held by `delay` (the book picks a random 1–4 s; here 2 s) before `retry` sees its failure and
/// subscribes again, so the third request, four seconds after the first, succeeds.
struct RetryWithDelayDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        typealias PostmanEchoTimeStampCheckResponse = UsingCombineTests.PostmanEchoTimeStampCheckResponse
        typealias TestFailureCondition = UsingCombineTests.TestFailureCondition
        let io = context.io
        let backgroundQueue = context.scheduler
        let urlSession = ScheduledFixtureSession(scheduler: backgroundQueue, latency: .milliseconds(100))
        let url = URL(string: "https://postman-echo.com/flaky/2/\(FlakyRoutes.newRun())")!
        let start = io.now()
        var requests = 0

        let remoteDataPublisher = urlSession.dataTaskPublisher(for: url)
            // only for the log: one line per request the retry makes
            .handleEvents(receiveSubscription: { _ in
                requests += 1
                io.print("request #\(requests) at \(elapsedSeconds(since: start, io: io)) s")
            }, receiveCompletion: { completion in
                if case .failure(let error) = completion {
                    io.print("request #\(requests) failed: URLError \(error.code.rawValue)")
                }
            })
            .drawn("dataTaskPublisher", on: io) { "\($0.data.count) bytes" }
            .delay(for: .seconds(2), scheduler: backgroundQueue)
            .retry(3)
            .tryMap { data, response -> Data in
                guard let httpResponse = response as? HTTPURLResponse,
                    httpResponse.statusCode == 200 else {
                        throw TestFailureCondition.invalidServerResponse
                }
                return data
            }
            .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())
            .subscribe(on: backgroundQueue)
            .eraseToAnyPublisher()

        remoteDataPublisher
            .drawn("output", on: io, isOutput: true)
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion \(completion) at \(elapsedSeconds(since: start, io: io)) s")
                io.finish()
            }, receiveValue: { someValue in
                io.print(".sink() received \(someValue)")
            })
            .store(in: &io.subscriptions)
    }
}

/// The timeout variant: `delay(2)`, `retry(5)`, then `timeout(5)` against a server that takes ten
/// seconds. After five seconds without a value, timeout finishes the pipeline (normally: no
/// custom error was given), and the slow request is cancelled.
struct RetryTimeoutDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let backgroundQueue = context.scheduler
        let urlSession = ScheduledFixtureSession(scheduler: backgroundQueue, latency: .milliseconds(100))
        let start = io.now()

        urlSession.dataTaskPublisher(for: URL(string: "https://postman-echo.com/delay/10")!)
            .handleEvents(receiveSubscription: { _ in
                io.print("request started at \(elapsedSeconds(since: start, io: io)) s")
            }, receiveCancel: {
                io.print("request cancelled at \(elapsedSeconds(since: start, io: io)) s")
            })
            .drawn("dataTaskPublisher", on: io) { "\($0.data.count) bytes" }
            .delay(for: .seconds(2), scheduler: backgroundQueue)
            .retry(5)
            .timeout(.seconds(5), scheduler: backgroundQueue)
            .drawn("output", on: io, isOutput: true)
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion \(completion) at \(elapsedSeconds(since: start, io: io)) s")
                io.finish()
            }, receiveValue: { data, _ in
                io.print(".sink() received \(data.count) bytes")
            })
            .store(in: &io.subscriptions)
    }
}

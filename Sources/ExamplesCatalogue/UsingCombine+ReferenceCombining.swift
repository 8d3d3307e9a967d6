import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// "Using Combine", reference: mixing publishers, error handling, adapting publisher types,
// encoding and decoding, multiple subscribers, debugging and type erasure. The network entries
// (retry, decode) run against `ReferenceServicesProtocol` in place of the real services.

// The reference chapter's model types are the patterns' (same names, same JSON).
private typealias IPInfo = UsingCombineTests.IPInfo
private typealias PostmanEchoTimeStampCheckResponse = UsingCombineTests.PostmanEchoTimeStampCheckResponse

/// The error type the mapError entry converts into (the book's `ChangingErrorTests.APIError`).
enum ReferenceAPIError: Error, CustomStringConvertible {
    case networkError(from: URLError)
    case unknown

    var description: String {
        switch self {
        case .networkError(let error): return "networkError(code: \(error.code.rawValue))"
        case .unknown: return "unknown"
        }
    }
}

/// The book's `GithubAPI` in the switchToLatest entry: a function returning a publisher of users.
enum ReferenceGithubAPI {
    static func retrieveGithubUser(username: String) -> AnyPublisher<[String], Never> {
        guard username.count >= 3 else {
            return Just([]).eraseToAnyPublisher()
        }
        return Just(["\(username) (GitHub user)"]).eraseToAnyPublisher()
    }
}

extension Catalogue {
    static var referenceCombining: [Example] { [
        // MARK: Mixing elements from multiple publishers

        Example(
            "ref-combine-latest",
            title: "combineLatest",
            source: "Using Combine, reference: combineLatest",
            book: .notPrinted
        ) { io in
            let names = PassthroughSubject<String, Never>()
            let ages = PassthroughSubject<Int, Never>()
            io.referenceSink(Publishers.CombineLatest(names, ages))
            names.send("Ann")
            io.print("(nothing until both have sent a value)")
            ages.send(30)
            names.send("Bob")
            io.print("names finishes; ages keeps going")
            names.send(completion: .finished)
            ages.send(31)
            ages.send(completion: .finished)
        },

        Example("ref-merge", title: "merge", source: "Using Combine, reference: merge, MergeMany", book: .notPrinted) { io in
            let first = PassthroughSubject<String, Never>()
            let second = PassthroughSubject<String, Never>()
            io.referenceSink(first.merge(with: second))
            first.send("first: one")
            second.send("second: one")
            io.print("first finishes; merge keeps forwarding second")
            first.send(completion: .finished)
            second.send("second: two")
            second.send(completion: .finished)

            io.print("Publishers.MergeMany:")
            io.referenceSink(
                Publishers.MergeMany(["a"].publisher, ["b", "c"].publisher, ["d"].publisher)
            )
        },

        Example("ref-zip", title: "zip", source: "Using Combine, reference: zip", book: .notPrinted) { io in
            let step2_1 = PassthroughSubject<String, Never>()
            let step2_2 = PassthroughSubject<String, Never>()
            let step2_3 = PassthroughSubject<String, Never>()
            io.referenceSink(Publishers.Zip3(step2_1, step2_2, step2_3))
            step2_1.send("2.1 done")
            step2_3.send("2.3 done")
            io.print("(waiting for 2.2)")
            step2_2.send("2.2 done")
            io.print("step 2.1 finishes")
            step2_1.send(completion: .finished)
        },

        // MARK: Error handling

        Example("ref-try-catch", title: "tryCatch", source: "Using Combine, reference: tryCatch", book: .notPrinted) { io in
            for recoverable in [true, false] {
                io.print(recoverable ? "a recoverable error:" : "an error the handler rethrows:")
                let upstream = PassthroughSubject<String, ReferenceError>()
                io.referenceSink(
                    upstream
                        .tryCatch { error -> Just<String> in
                            guard recoverable else { throw error }
                            return Just("fallback value")
                        }
                )
                upstream.send("oneValue")
                upstream.send(completion: .failure(.invalidServerResponse))
            }
        },

        Example(
            "ref-assert-no-failure",
            title: "assertNoFailure",
            source: "Using Combine, reference: assertNoFailure",
            book: .notPrinted
        ) { io in
            // A failure here would stop the program, so only the good path runs.
            let upstream = PassthroughSubject<String, ReferenceError>()
            upstream
                .assertNoFailure("What could possibly go wrong?")
                .sink { io.print(".sink() received \($0)") }  // Failure is Never now
                .store(in: &io.subscriptions)
            upstream.send("oneValue")
            upstream.send("twoValue")
            upstream.send(completion: .finished)
        },

        Example(
            "ref-retry",
            title: "retry",
            source: "Using Combine, reference: retry",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            let run = UUID().uuidString
            func remoteDataPublisher(_ behaviour: String) -> AnyPublisher<IPInfo, Never> {
                var attempt = 0
                let myURL = URL(string: "http://ip.jsontest.com/?\(behaviour)&run=\(run)")
                return ReferenceServicesProtocol.session.dataTaskPublisher(for: myURL!)
                    .handleEvents(receiveSubscription: { _ in
                        attempt += 1
                        io.print("request attempt \(attempt)")
                    }, receiveCompletion: { completion in
                        if case .failure(let error) = completion {
                            io.print("attempt \(attempt) failed, URLError code \(error.code.rawValue)")
                        }
                    })
                    // the dataTaskPublisher output combination is
                    // (data: Data, response: URLResponse)
                    .retry(3)
                    // if the URLSession returns a .failure completion,
                    // retry at most 3 times to get a successful response
                    .map({ (inputTuple) -> Data in
                        return inputTuple.data
                    })
                    .decode(type: IPInfo.self, decoder: JSONDecoder())
                    .catch { err in
                        return Just(IPInfo(ip: "8.8.8.8"))
                    }
                    .eraseToAnyPublisher()
            }

            io.print("a flaky connection:")
            remoteDataPublisher("flaky")
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion:", String(describing: completion))
                    io.print("a response that does not decode:")
                    remoteDataPublisher("garbage")
                        .sink(receiveCompletion: { completion in
                            io.print(".sink() received the completion:", String(describing: completion))
                            io.finish()
                        }, receiveValue: { value in
                            io.print(".sink() received \(value)")
                        })
                        .store(in: &io.subscriptions)
                }, receiveValue: { value in
                    io.print(".sink() received \(value)")
                })
                .store(in: &io.subscriptions)
        },

        Example("ref-map-error", title: "mapError", source: "Using Combine, reference: mapError", book: .notPrinted) { io in
            let failures: [Error] = [
                ReferenceAPIError.unknown,
                URLError(.notConnectedToInternet),
                ReferenceError.exampleFailure,
            ]
            for failure in failures {
                io.referenceSink(
                    Fail<String, Error>(error: failure)
                        .mapError { error -> ReferenceAPIError in
                            // if it's our kind of error already, we can return it directly
                            if let error = error as? ReferenceAPIError {
                                return error
                            }
                            // if it is a URLError, we can convert it into our more general error kind
                            if let urlerror = error as? URLError {
                                return ReferenceAPIError.networkError(from: urlerror)
                            }
                            // if all else fails, return the unknown error condition
                            return ReferenceAPIError.unknown
                        }
                )
            }
        },

        // MARK: Adapting publisher types

        Example(
            "ref-switch-to-latest-api",
            title: "switchToLatest with an API",
            source: "Using Combine, reference: switchToLatest",
            book: .notPrinted
        ) { io in
            let username = PassthroughSubject<String, Never>()
            io.referenceSink(
                username
                    .map { username -> AnyPublisher<[String], Never> in
                        return ReferenceGithubAPI.retrieveGithubUser(username: username)
                    }
                    // ^^ type returned in the pipeline is a Publisher, so we use
                    // switchToLatest to flatten the values out of that
                    // pipeline to return down the chain, rather than returning a
                    // publisher down the pipeline.
                    .switchToLatest()
            )
            for name in ["he", "heck", "heckj"] {
                username.send(name)
            }
        },

        Example(
            "ref-erase-to-any-publisher",
            title: "eraseToAnyPublisher",
            source: "Using Combine, reference: eraseToAnyPublisher",
            book: .notPrinted
        ) { io in
            let upstream = PassthroughSubject<String, Never>()
            let pipeline = upstream
                .map { Int($0) ?? 0 }
                .filter { $0 > 0 }
            io.print("before:", type(of: pipeline))
            let erased = pipeline
                .eraseToAnyPublisher()
            io.print("after:", type(of: erased))
            io.referenceSink(erased)
            for value in ["10", "two", "30"] {
                upstream.send(value)
            }
            upstream.send(completion: .finished)
        },

        // MARK: Encoding and decoding

        Example("ref-encode", title: "encode", source: "Using Combine, reference: encode", book: .notPrinted) { io in
            let dataProvider = PassthroughSubject<PostmanEchoTimeStampCheckResponse, Never>()
            dataProvider
                .encode(encoder: JSONEncoder())
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion:", String(describing: completion))
                }, receiveValue: { data in
                    io.print(".sink() data received \(data)")
                    let stringRepresentation = String(data: data, encoding: .utf8)
                    io.print(stringRepresentation as Any)
                })
                .store(in: &io.subscriptions)
            dataProvider.send(PostmanEchoTimeStampCheckResponse(valid: true))
        },

        Example(
            "ref-decode",
            title: "decode",
            source: "Using Combine, reference: decode",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            let testUrlString = "https://postman-echo.com/time/valid?timestamp=2016-10-10"
            // checks the validity of a timestamp - this one should return {"valid":true}
            let remoteDataPublisher = ReferenceServicesProtocol.session
                .dataTaskPublisher(for: URL(string: testUrlString)!)
                // the dataTaskPublisher output combination is (data: Data, response: URLResponse)
                .map { $0.data }
                .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())
            remoteDataPublisher
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion:", String(describing: completion))
                    io.print("decoding data that does not match:")
                    Just(Data(#"{"valid": "yes"}"#.utf8))
                        .decode(type: PostmanEchoTimeStampCheckResponse.self, decoder: JSONDecoder())
                        .sink(receiveCompletion: { completion in
                            if case .failure(let error) = completion {
                                io.print(".sink() received a failure:", error is DecodingError ? "DecodingError" : "\(error)")
                            }
                            io.finish()
                        }, receiveValue: { value in
                            io.print(".sink() received \(value)")
                        })
                        .store(in: &io.subscriptions)
                }, receiveValue: { value in
                    io.print(".sink() received \(value)")
                })
                .store(in: &io.subscriptions)
        },

        // MARK: Working with multiple subscribers

        Example("ref-share", title: "share", source: "Using Combine, reference: share", book: .notPrinted) { io in
            let somepublisher = PassthroughSubject<String, Never>()
            let expensivePublisher = somepublisher
                .map { value -> String in
                    io.print("expensive work on \(value)")
                    return value.uppercased()
                }
                .share()
            for name in ["subscriber 1", "subscriber 2"] {
                expensivePublisher
                    .sink { io.print("\(name) received \($0)") }
                    .store(in: &io.subscriptions)
            }
            somepublisher.send("one value")
            somepublisher.send(completion: .finished)
            io.print("a subscriber after the data has been sent:")
            expensivePublisher
                .sink(receiveCompletion: { io.print("subscriber 3 received the completion: \($0)") },
                      receiveValue: { io.print("subscriber 3 received \($0)") })
                .store(in: &io.subscriptions)
        },

        Example("ref-multicast", title: "multicast", source: "Using Combine, reference: multicast", book: .notPrinted) { io in
            let somepublisher = ["one", "two"].publisher
                .setFailureType(to: Error.self)
                .handleEvents(receiveSubscription: { _ in io.print("upstream subscribed") })
            io.print("multicast(subject:):")
            let pipelineFork = PassthroughSubject<String, Error>()
            let multicastPublisher = somepublisher.multicast(subject: pipelineFork)
            for name in ["subscriber 1", "subscriber 2"] {
                io.referenceSink(multicastPublisher.map { "\(name): \($0)" })
            }
            io.print("connect()")
            multicastPublisher.connect().store(in: &io.subscriptions)

            io.print("multicast { subject }:")
            let closurePublisher = somepublisher
                .multicast {
                    PassthroughSubject<String, Error>()
                }
            io.referenceSink(closurePublisher.map { "subscriber 3: \($0)" })
            io.print("(no data until connect)")
            closurePublisher.connect().store(in: &io.subscriptions)
        },

        // MARK: Debugging

        Example(
            "ref-breakpoint",
            title: "breakpoint",
            source: "Using Combine, reference: breakpoint, breakpointOnError",
            book: .notPrinted
        ) { io in
            io.referenceSink(
                ["one", "two"].publisher
                    .breakpoint(receiveSubscription: { subscription in
                        return false // return true to throw SIGTRAP and invoke the debugger
                    }, receiveOutput: { value in
                        return false // return true to throw SIGTRAP and invoke the debugger
                    }, receiveCompletion: { completion in
                        return false // return true to throw SIGTRAP and invoke the debugger
                    })
                    .setFailureType(to: ReferenceError.self)
                    .breakpointOnError()
            )
        },

        Example(
            "ref-handle-events",
            title: "handleEvents",
            source: "Using Combine, reference: handleEvents",
            book: .notPrinted
        ) { io in
            let activityIndicator = ReferenceActivityIndicator(io: io)
            let upstream = PassthroughSubject<String, Never>()
            let cancellable = upstream
                .handleEvents(receiveSubscription: { _ in
                    activityIndicator.startAnimating()
                }, receiveOutput: { value in
                    io.print("receiveOutput: \(value)")
                }, receiveCompletion: { _ in
                    activityIndicator.stopAnimating()
                }, receiveCancel: {
                    activityIndicator.stopAnimating()
                }, receiveRequest: { demand in
                    io.print("receiveRequest: \(demand)")
                })
                .sink { io.print(".sink() received \($0)") }
            upstream.send("data")
            io.print("cancelling")
            cancellable.cancel()
        },

        Example("ref-print", title: "print", source: "Using Combine, reference: print", book: .notPrinted(note: BookNote.publishedSubject)) { io in
            let foo = ReferenceUserModel()
            let stream = ExampleStream(io)
            foo.$username
                .print("username pipeline", to: stream)
                .tryMap({ myValue -> String in
                    if myValue == "boom" {
                        throw ReferenceError.selfDestruct
                    }
                    return "mappedValue"
                })
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion:", String(describing: completion))
                }, receiveValue: { value in
                    io.print(".sink() received \(value)")
                })
                .store(in: &io.subscriptions)
            foo.username = "heckj"
            foo.username = "boom"
            foo.username = "ignored"
        },

        // MARK: Type erasure

        Example(
            "ref-any-subscriber",
            title: "AnySubscriber",
            source: "Using Combine, reference: AnySubscriber",
            book: .notPrinted
        ) { io in
            io.print("from closures:")
            let fromClosures = AnySubscriber<String, Never>(
                receiveSubscription: { subscription in
                    io.print("received a subscription, requesting 2")
                    subscription.request(.max(2))
                },
                receiveValue: { value in
                    io.print("received \(value)")
                    return .none
                },
                receiveCompletion: { completion in
                    io.print("received the completion: \(completion)")
                }
            )
            ["one", "two", "three"].publisher.subscribe(fromClosures)

            io.print("wrapping a sink:")
            let sink = Subscribers.Sink<String, Never>(
                receiveCompletion: { io.print("sink received the completion: \($0)") },
                receiveValue: { io.print("sink received \($0)") }
            )
            let wrapped = AnySubscriber(sink)
            ["one", "two", "three"].publisher.subscribe(wrapped)
        },
    ] }
}

/// The activity indicator the handleEvents entry drives.
final class ReferenceActivityIndicator {
    private let io: ExampleIO
    init(io: ExampleIO) { self.io = io }
    func startAnimating() { io.print("activityIndicator.startAnimating()") }
    func stopAnimating() { io.print("activityIndicator.stopAnimating()") }
}

import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// "Using Combine", reference: Publishers (Future, Empty, Fail, Sequence, Record, Deferred,
// MakeConnectable, ObservableObject, @Published, NotificationCenter, Timer, dataTaskPublisher,
// Result). Where the book shows a fragment, it is completed with the smallest input that makes
// the behaviour it describes visible, printed in the book's words.

/// A stand-in for the callback APIs the book wraps in `Future` (Contacts' `requestAccess`, the
/// test suite's `asyncAPICall(sabotage:)`): it answers at once through its completion handler
/// and says when it is called.
struct ReferenceAccessAPI {
    let io: ExampleIO

    func requestAccess(sabotage: Bool = false, completion: (Bool, Error?) -> Void) {
        io.print("requestAccess called")
        completion(!sabotage, sabotage ? ReferenceError.exampleFailure : nil)
    }
}

/// The model of the ObservableObject and @Published entries.
final class ReferenceUserModel: ObservableObject {
    @Published var username: String = ""
    /// Not @Published: changing it announces nothing.
    var nickname: String = ""
}

/// The label the book's `assign` writes into.
final class ReferenceLabel {
    var text: String? {
        didSet { io?.print("label.text = \"\(text ?? "nil")\"") }
    }
    private let io: ExampleIO?

    init(io: ExampleIO? = nil) { self.io = io }
}

extension Notification.Name {
    /// The reference entry's own notification name.
    fileprivate static let yourNotification = Notification.Name("your-notification")
}

extension Catalogue {
    static var referencePublishers: [Example] { [
        Example("ref-future", title: "Future", source: "Using Combine, reference: Future", book: .notPrinted) { io in
            let api = ReferenceAccessAPI(io: io)
            io.print("creating the Future")
            let futureAsyncPublisher = Future<Bool, Error> { promise in
                api.requestAccess { grantedAccess, err in
                    // err is an optional
                    if let err = err {
                        return promise(.failure(err))
                    }
                    return promise(.success(grantedAccess))
                }
            }
            io.print("subscribing")
            futureAsyncPublisher
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion:", String(describing: completion))
                }, receiveValue: { value in
                    io.print(".sink() received \(value)")
                })
                .store(in: &io.subscriptions)
        },

        Example(
            "ref-future-retry",
            title: "Future and retry",
            source: "Using Combine, reference: Future (FB7455914)",
            book: .notPrinted
        ) { io in
            var attempt = 0
            func asyncAPICall(completion: (Bool, Error?) -> Void) {
                attempt += 1
                io.print("asyncAPICall attempt \(attempt)")
                // fails twice, then succeeds
                completion(attempt >= 3, attempt < 3 ? ReferenceError.exampleFailure : nil)
            }

            io.print("Future with retry(2):")
            Future<Bool, Error> { promise in
                asyncAPICall { grantedAccess, err in
                    if let err = err {
                        return promise(.failure(err))
                    }
                    return promise(.success(grantedAccess))
                }
            }
            .retry(2)
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion:", String(describing: completion))
            }, receiveValue: { value in
                io.print(".sink() received \(value)")
            })
            .store(in: &io.subscriptions)

            attempt = 0
            io.print("Deferred { Future } with retry(2):")
            let deferredPublisher = Deferred {
                return Future<Bool, Error> { promise in
                    asyncAPICall { grantedAccess, err in
                        if let err = err {
                            return promise(.failure(err))
                        }
                        return promise(.success(grantedAccess))
                    }
                }
            }.eraseToAnyPublisher()
            deferredPublisher
                .retry(2)
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion:", String(describing: completion))
                }, receiveValue: { value in
                    io.print(".sink() received \(value)")
                })
                .store(in: &io.subscriptions)
        },

        Example("ref-empty", title: "Empty", source: "Using Combine, reference: Empty", book: .notPrinted) { io in
            let myEmptyPublisher = Empty<String, Never>()
            myEmptyPublisher
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion:", String(describing: completion))
                }, receiveValue: { value in
                    io.print(".sink() received \(value)")
                })
                .store(in: &io.subscriptions)
        },

        Example("ref-fail", title: "Fail", source: "Using Combine, reference: Fail", book: .notPrinted) { io in
            // Initializing Fail by specifying the types
            let typed = Fail<String, Error>(error: ReferenceError.exampleFailure)
            // Initializing Fail by providing types as parameters
            let inferred = Fail(outputType: String.self, failure: ReferenceError.exampleFailure)
            io.referenceSink(typed)
            io.referenceSink(inferred)
        },

        Example(
            "ref-sequence",
            title: "Publishers.Sequence",
            source: "Using Combine, reference: Publishers.Sequence",
            book: .notPrinted
        ) { io in
            let initialSequence = ["one", "two", "red", "blue"]
            _ = initialSequence.publisher
                .sink {
                    io.print($0)
                }
        },

        Example("ref-record", title: "Record", source: "Using Combine, reference: Record", book: .notPrinted) { io in
            // creates a recording
            let recordedPublisher = Record<String, Never> { example in
                // example : type is Record<String, Never>.Recording
                example.receive("one")
                example.receive("two")
                example.receive("three")
                example.receive(completion: .finished)
            }

            // played back to each subscriber
            for _ in 1...2 {
                recordedPublisher.sink(receiveCompletion: { err in
                    io.print(".sink() received the completion: ", String(describing: err))
                }, receiveValue: { value in
                    io.print(".sink() received value: ", value)
                })
                .store(in: &io.subscriptions)
            }
            io.print("recording.output:", recordedPublisher.recording.output)
            io.print("recording.completion:", recordedPublisher.recording.completion)
        },

        Example("ref-deferred", title: "Deferred", source: "Using Combine, reference: Deferred", book: .notPrinted) { io in
            let api = ReferenceAccessAPI(io: io)
            io.print("creating the Deferred")
            let deferredPublisher = Deferred {
                return Future<Bool, Error> { promise in
                    api.requestAccess { grantedAccess, err in
                        if let err = err {
                            return promise(.failure(err))
                        }
                        return promise(.success(grantedAccess))
                    }
                }
            }.eraseToAnyPublisher()
            for subscriber in ["first", "second"] {
                io.print("subscribing the \(subscriber) subscriber")
                deferredPublisher
                    .sink(receiveCompletion: { completion in
                        io.print(".sink() received the completion:", String(describing: completion))
                    }, receiveValue: { value in
                        io.print(".sink() received \(value)")
                    })
                    .store(in: &io.subscriptions)
            }
        },

        Example(
            "ref-make-connectable",
            title: "MakeConnectable",
            source: "Using Combine, reference: MakeConnectable",
            book: .notPrinted
        ) { io in
            let publisher = Just("woot")
                .makeConnectable()

            publisher.sink { value in
                io.print("Value received in sink: ", value)
            }
            .store(in: &io.subscriptions)

            io.print("subscribed; calling connect()")
            publisher
                .connect()
                .store(in: &io.subscriptions)

            io.print("with autoconnect():")
            let autoconnected = Just("woot")
                .makeConnectable()
                .autoconnect()

            autoconnected.sink { value in
                io.print("Value received in sink: ", value)
            }
            .store(in: &io.subscriptions)
        },

        Example(
            "ref-observable-object",
            title: "ObservableObject",
            source: "Using Combine, reference: ObservableObject",
            book: .notPrinted
        ) { io in
            let model = ReferenceUserModel()
            model.objectWillChange
                .sink { value in
                    io.print("objectWillChange sent: \(value), username is still '\(model.username)'")
                }
                .store(in: &io.subscriptions)

            io.print("setting username (@Published)")
            model.username = "heckj"
            io.print("setting nickname (not @Published)")
            model.nickname = "heck"
            io.print("username is now '\(model.username)'")
        },

        Example("ref-published", title: "@Published", source: "Using Combine, reference: @Published", book: .notPrinted) { io in
            let model = ReferenceUserModel()
            let myLabel = ReferenceLabel(io: io)

            model.$username
                .sink { someString in
                    io.print("value of username updated to: ", someString)
                }
                .store(in: &io.subscriptions)

            model.$username
                .map { Optional($0) }
                .assign(to: \.text, on: myLabel)
                .store(in: &io.subscriptions)

            model.username = "heckj"
        },

        Example(
            "ref-published-error-sink",
            title: "@Published with an erroring sink",
            source: "Using Combine, reference: @Published (testPublishedSinkWithError)",
            book: .notPrinted(
                note: "The book says a @Published property stops publishing once a pipeline on it "
                    + "fails; with Apple's Combine only the failed subscription ends, and the other "
                    + "pipeline keeps receiving, as here."
            )
        ) { io in
            let model = ReferenceUserModel()

            model.$username
                .tryMap { myValue -> String in
                    if myValue == "boom" {
                        throw ReferenceError.selfDestruct
                    }
                    return "mappedValue"
                }
                .sink(receiveCompletion: { completion in
                    io.print("erroring pipeline: completion", String(describing: completion))
                }, receiveValue: { value in
                    io.print("erroring pipeline: received \(value)")
                })
                .store(in: &io.subscriptions)

            model.$username
                .sink { value in
                    io.print("other pipeline: received '\(value)'")
                }
                .store(in: &io.subscriptions)

            for name in ["first", "boom", "after the error"] {
                io.print("username = \"\(name)\"")
                model.username = name
            }
        },

        Example(
            "ref-notification-center",
            title: "NotificationCenter",
            source: "Using Combine, reference: NotificationCenter",
            book: .notPrinted
        ) { io in
            let center = NotificationCenter()  // the book's NotificationCenter.default
            center.publisher(for: .yourNotification, object: nil)
                .sink {
                    io.print("received \($0.name.rawValue), object: \(String(describing: $0.object)), userInfo: \(String(describing: $0.userInfo))")
                }
                .store(in: &io.subscriptions)

            center.post(Notification(name: .yourNotification))
            center.post(Notification(name: .yourNotification, object: nil, userInfo: ["foo": "bar"]))
            center.post(Notification(name: Notification.Name("another-notification")))
        },

        Example(
            "ref-timer",
            title: "Timer",
            source: "Using Combine, reference: Timer",
            book: .notPrinted,
            duration: 6,
            body: ReferenceTimerDemo()
        ),

        Example(
            "ref-data-task-publisher",
            title: "URLSession.dataTaskPublisher",
            source: "Using Combine, reference: URLSession.dataTaskPublisher",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            let regularURL = URL(string: "https://www.raywenderlich.com/")!
            let session = FixtureURLProtocol.session  // the book's URLSession.shared
            let request = URLRequest(url: regularURL)
            Publishers.Zip(
                session.dataTaskPublisher(for: regularURL),
                session.dataTaskPublisher(for: request)
            )
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion:", String(describing: completion))
                io.finish()
            }, receiveValue: { byURL, byRequest in
                for (form, output) in [("URL", byURL), ("URLRequest", byRequest)] {
                    let status = (output.response as? HTTPURLResponse)?.statusCode ?? 0
                    io.print("for a \(form): data \(output.data.count) bytes, status \(status)")
                }
            })
            .store(in: &io.subscriptions)
        },

        Example("ref-result", title: "Result", source: "Using Combine, reference: Result", book: .notPrinted) { io in
            let results: [Result<Int, ReferenceError>] = [.success(5), .failure(.exampleFailure)]
            for someResult in results {
                someResult.publisher
                    .sink(receiveCompletion: { completion in
                        io.print(".sink() received the completion:", String(describing: completion))
                    }, receiveValue: { value in
                        io.print(".sink() received \(value)")
                    })
                    .store(in: &io.subscriptions)
            }
        },
    ] }
}

/// The Timer entry on the example's scheduler: `context.timer(every:)` stands in for
/// `Timer.publish(every: 1.0, on: RunLoop.main, in: .common)`, which needs a running run loop.
/// First the `autoconnect()` form (three ticks, then cancelled); then the connectable form, which
/// ticks only once `connect()` is called, at 3.5 s.
struct ReferenceTimerDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let start = io.now()
        let cancellable = context.timer(every: .seconds(1))
            .drawn("autoconnected timer", on: io, isOutput: true) { _ in "t" }
            .sink { receivedTimeStamp in
                io.print("passed through: ", receivedTimeStamp)
            }
        context.referenceAt(3.2) {
            cancellable.cancel()
            io.print("cancelled the autoconnected timer at \(context.referenceElapsed(since: start))")
        }

        let timerPublisher = context.timer(every: .seconds(1)).makeConnectable()
        var connection: Cancellable?
        let cancellableSink = timerPublisher
            .drawn("connectable timer", on: io, isOutput: true) { _ in "t" }
            .sink { receivedTimeStamp in
                io.print("connectable timer passed through: ", receivedTimeStamp)
            }
        context.referenceAt(3.5) {
            io.print("connect() at \(context.referenceElapsed(since: start))")
            connection = timerPublisher.connect()
        }
        context.referenceAt(6) {
            connection?.cancel()
            cancellableSink.cancel()
            io.finish()
        }
    }
}

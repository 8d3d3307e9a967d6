import Combine
import Foundation

// "Using Combine": core concepts, the subscriber patterns (sink, assign), wrapping callbacks in
// Future, sequencing with Zip3, and assertNoFailure.

/// Types named after the book's own test target, `UsingCombineTests`, so that errors print with
/// a path like the book's (`…UsingCombineTests.RetryPublisherTests.TestFailureCondition…`).
enum UsingCombineTests {
    /// The error most of the book's patterns throw.
    enum TestFailureCondition: Error {
        case invalidServerResponse
    }

    /// The pre-resolved failing Future's error.
    enum ExampleFailure: Error {
        case oneCase
    }

    /// The retry print demo's test case.
    enum RetryPublisherTests {
        enum TestFailureCondition: Error {
            case invalidServerResponse
        }
    }
}

/// The type of `value` spelled as the book spells it: with the `Publishers.` namespace, without
/// module names (`String(describing:)` drops the namespace, `String(reflecting:)` adds modules).
func bookTypeName<T>(of value: T) -> String {
    String(reflecting: type(of: value))
        .replacingOccurrences(of: "Combine.", with: "")
        .replacingOccurrences(of: "Swift.", with: "")
}

/// Elapsed whole seconds since `start` on the example's clock, for logs that show timing (the
/// runner's virtual clock, from the command line as in the tests).
func elapsedSeconds(since start: Date, io: ExampleIO) -> Int {
    Int(io.now().timeIntervalSince(start).rounded())
}

extension Catalogue {
    static var usingCombineCoreConcepts: [Example] { [
        Example("first-pipeline", title: "a simple pipeline", source: "Using Combine, core concepts: publishers and subscribers", book: .notPrinted) { io in
            // The book writes `let _ =`, which is fine here: Just delivers during `sink`.
            let _ = Just(5)
                .map { value -> String in
                    // do something with the incoming value here
                    // and return a string
                    return "a string"
                }
                .sink { receivedValue in
                    // sink is the subscriber and terminates the pipeline
                    io.print("The end result was \(receivedValue)")
                }
        },

        Example("type-changing-map", title: "a type-changing map", source: "Using Combine, core concepts: describing pipelines with marble diagrams", book: .notPrinted) { io in
            let _ = Just(5)
                .map { value -> String in
                    switch value {
                    case _ where value < 1:
                        return "none"
                    case _ where value == 1:
                        return "one"
                    case _ where value == 2:
                        return "couple"
                    case _ where value == 3:
                        return "few"
                    case _ where value > 8:
                        return "many"
                    default:
                        return "some"
                    }
                }
                .sink { receivedValue in
                    io.print("The end result was \(receivedValue)")
                }
        },

        Example("type-erasure", title: "types in publishers and subscribers", source: "Using Combine, developing with Combine: type erasure", book: .notPrinted) { io in
            let x = PassthroughSubject<String, Never>()
                .flatMap { name in
                    return Future<String, Error> { promise in
                        promise(.success(""))
                        }.catch { _ in
                            Just("No user found")
                        }.map { result in
                            return "\(result) foo"
                    }
            }
            io.print("without erasure:", bookTypeName(of: x))

            let y = PassthroughSubject<String, Never>()
                .flatMap { name in
                    return Future<String, Error> { promise in
                        promise(.success(""))
                        }.catch { _ in
                            Just("No user found")
                        }.map { result in
                            return "\(result) foo"
                    }
            }.eraseToAnyPublisher()
            io.print("with eraseToAnyPublisher():", bookTypeName(of: y))
        },

        Example("sink-cancel", title: "sink", source: "Using Combine, pattern: creating a subscriber with sink", book: .notPrinted) { io in
            let publishingSource = PassthroughSubject<String, Error>()

            io.print("the simple sink:")
            let simplePipeline = publishingSource.sink(receiveCompletion: { _ in }, receiveValue: { someValue in
                // do what you want with the resulting value passed down
                // be aware that depending on the publisher, this closure
                // may be invoked multiple times.
                io.print(".sink() received \(someValue)")
            })
            publishingSource.send("one")
            simplePipeline.cancel()

            io.print("the sink with completion and data:")
            let cancellablePipeline = publishingSource.sink(receiveCompletion: { completion in
                switch completion {
                case .finished:
                    // no associated data, but you can react to knowing the
                    // request has been completed
                    io.print(".sink() received the completion: finished")
                case .failure(let anError):
                    // do what you want with the error details, presenting,
                    // logging, or hiding as appropriate
                    io.print("received the error: ", anError)
                }
            }, receiveValue: { someValue in
                io.print(".sink() received \(someValue)")
            })
            publishingSource.send("two")
            publishingSource.send("three")

            cancellablePipeline.cancel()
            io.print("cancelled; sending four and a completion")
            publishingSource.send("four")
            publishingSource.send(completion: .finished)
        },

        Example(
            "assign-cancel",
            title: "assign",
            source: "Using Combine, pattern: creating a subscriber with assign",
            book: .notPrinted,
            duration: 0,
            body: AssignPatternDemo()
        ),

        Example(
            "assert-invariant",
            title: "assertNoFailure",
            source: "Using Combine, pattern: verify no failure with assertNoFailure",
            book: .notPrinted
        ) { io in
            // The invariant: every entry typed into the counter field is a number (the field only
            // accepts digits), so the parse below never throws. assertNoFailure states that, and
            // turns the failure type into Never so assign can be used.
            struct NotANumber: Error {}
            final class CounterLabel {
                let io: ExampleIO
                init(io: ExampleIO) { self.io = io }
                var count = 0 { didSet { io.print("counter label shows \(count)") } }
            }
            let label = CounterLabel(io: io)
            let entries = PassthroughSubject<String, Never>()

            entries
                .tryMap { entry -> Int in
                    guard let number = Int(entry) else { throw NotANumber() }
                    return number
                }
                .assertNoFailure("the counter field only accepts digits")
                .assign(to: \.count, on: label)
                .store(in: &io.subscriptions)

            entries.send("1")
            entries.send("12")
            entries.send("123")
        },
    ] }

    static var usingCombineFuturePatterns: [Example] { [
        Example(
            "future-wrap",
            title: "wrapping an asynchronous call with Future",
            source: "Using Combine, pattern: wrapping an asynchronous call with a Future",
            book: .notPrinted,
            duration: 3,
            body: FutureWrapDemo()
        ),

        Example(
            "future-resolved",
            title: "pre-resolved Futures",
            source: "Using Combine, pattern: wrapping an asynchronous call with a Future",
            book: .notPrinted
        ) { io in
            let resolvedSuccessAsPublisher = Future<Bool, Error> { promise in
                promise(.success(true))
            }.eraseToAnyPublisher()

            let resolvedFailureAsPublisher = Future<Bool, Error> { promise in
                promise(.failure(UsingCombineTests.ExampleFailure.oneCase))
            }.eraseToAnyPublisher()

            for publisher in [resolvedSuccessAsPublisher, resolvedFailureAsPublisher] {
                publisher
                    .sink(receiveCompletion: { completion in
                        io.print(".sink() received the completion:", String(describing: completion))
                    }, receiveValue: { value in
                        io.print(".sink() received \(value)")
                    })
                    .store(in: &io.subscriptions)
            }
        },

        Example(
            "future-retry",
            title: "Future and retry",
            source: "Using Combine, pattern: wrapping an asynchronous call with a Future (why Deferred)",
            book: .notPrinted
        ) { io in
            // A Future runs its closure once, when it is created; `retry` subscribes again but
            // the Future only replays its stored failure. Wrapped in Deferred, every
            // subscription creates a new Future, so every retry really tries again.
            var attempts = 0
            func attempt(_ promise: (Result<String, Error>) -> Void) {
                attempts += 1
                io.print("attempt \(attempts)")
                if attempts < 3 {
                    promise(.failure(UsingCombineTests.TestFailureCondition.invalidServerResponse))
                } else {
                    promise(.success("succeeded on attempt \(attempts)"))
                }
            }
            let report: (String) -> (Subscribers.Completion<Error>) -> Void = { name in
                { io.print("\(name) completion: \($0)") }
            }

            io.print("Future { … }.retry(2):")
            Future<String, Error> { promise in attempt(promise) }
                .retry(2)
                .sink(receiveCompletion: report("Future"), receiveValue: { io.print("Future value: \($0)") })
                .store(in: &io.subscriptions)

            attempts = 0
            io.print("Deferred { Future { … } }.retry(2):")
            Deferred { Future<String, Error> { promise in attempt(promise) } }
                .retry(2)
                .sink(receiveCompletion: report("Deferred"), receiveValue: { io.print("Deferred value: \($0)") })
                .store(in: &io.subscriptions)
        },

        Example(
            "sequencing",
            title: "sequencing asynchronous operations",
            source: "Using Combine, pattern: sequencing operations with Combine",
            book: .notPrinted,
            duration: 9,
            body: SequencingDemo()
        ),
    ] }
}

// MARK: - assign

/// The book's `yourButton`: a control whose `isEnabled` the pipeline sets; it prints each change
/// the way the screen would show it.
final class ExampleButton {
    let name: String
    let io: ExampleIO
    var isEnabled = false {
        didSet { io.print("\(name).isEnabled = \(isEnabled)") }
    }

    init(_ name: String, io: ExampleIO) {
        self.name = name
        self.io = io
    }
}

/// `publishingSource.receive(on: RunLoop.main).assign(to: \.isEnabled, on: yourButton)`, then
/// `cancel()`: the value arrives on the main run loop's next turn, and nothing arrives after the
/// cancel.
struct AssignPatternDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        let yourButton = ExampleButton("yourButton", io: io)
        let publishingSource = PassthroughSubject<Bool, Never>()

        let cancellablePipeline = publishingSource
            .drawn("publishingSource", on: io)
            .receive(on: scheduler)  // the book's RunLoop.main
            .drawn("isEnabled", on: io, isOutput: true)
            .assign(to: \.isEnabled, on: yourButton)

        io.print("send(true)")
        publishingSource.send(true)
        io.print("right after send: isEnabled == \(yourButton.isEnabled)")
        scheduler.schedule {
            io.print("send(false)")
            publishingSource.send(false)
            scheduler.schedule {
                cancellablePipeline.cancel()
                io.print("cancelled; send(true)")
                publishingSource.send(true)
                scheduler.schedule {
                    io.print("after the cancel: isEnabled == \(yourButton.isEnabled)")
                    io.finish()
                }
            }
        }
    }
}

// MARK: - Future

/// Stands in for `CNContactStore` (Contacts is Apple-only): `requestAccess` answers through a
/// completion handler one second later, as the permission prompt would.
final class FakeContactStore<S: Scheduler> {
    enum EntityType { case contacts }

    let io: ExampleIO
    let scheduler: S

    init(io: ExampleIO, scheduler: S) {
        self.io = io
        self.scheduler = scheduler
    }

    func requestAccess(for entityType: EntityType, completionHandler: @escaping (Bool, Error?) -> Void) {
        io.print("requestAccess(for: .contacts) called")
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            completionHandler(true, nil)
        }
    }
}

/// The Contacts Future, next to the same Future inside Deferred: the Future asks for access as
/// soon as it is created, the Deferred one only when it is subscribed to.
struct FutureWrapDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        let store = FakeContactStore(io: io, scheduler: scheduler)
        let start = io.now()

        func request(_ promise: @escaping (Result<Bool, Error>) -> Void) {
            store.requestAccess(for: .contacts) { grantedAccess, err in
                // err is an optional
                if let err = err {
                    return promise(.failure(err))
                }
                return promise(.success(grantedAccess))
            }
        }

        io.print("creating the Future")
        let futureAsyncPublisher = Future<Bool, Error> { promise in
            request(promise)
        }.eraseToAnyPublisher()

        io.print("creating the Deferred Future")
        let deferredAsyncPublisher = Deferred {
            Future<Bool, Error> { promise in
                request(promise)
            }
        }.eraseToAnyPublisher()

        var finished = 0
        func subscribe(_ name: String, to publisher: AnyPublisher<Bool, Error>) {
            publisher
                .drawn(name, on: io, isOutput: true)
                .sink(receiveCompletion: { completion in
                    io.print("\(name): completion \(completion) at \(elapsedSeconds(since: start, io: io)) s")
                    finished += 1
                    if finished == 2 { io.finish() }
                }, receiveValue: { grantedAccess in
                    io.print("\(name): access granted: \(grantedAccess)")
                })
                .store(in: &io.subscriptions)
        }

        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) {
            io.print("subscribing to both at \(elapsedSeconds(since: start, io: io)) s")
            subscribe("Future", to: futureAsyncPublisher)
            subscribe("Deferred", to: deferredAsyncPublisher)
        }
    }
}

// MARK: - Sequencing

/// `AsyncCoordinatorViewController` without UIKit: the six step buttons and the activity
/// indicator are replaced by a log of their changes. The random 1–4 s the book's fake API sleeps
/// is a fixed duration per step here, so the log is the same every run.
final class AsyncCoordinator<S: Scheduler> {
    let io: ExampleIO
    let scheduler: S
    let start: Date
    var cancellable: AnyCancellable?
    var coordinatedPipeline: AnyPublisher<Bool, Error>?
    var isAnimating = false {
        didSet { if isAnimating != oldValue { io.print("activity indicator \(isAnimating ? "started" : "stopped")") } }
    }

    /// How long each step's fake API call takes, in seconds.
    static var durations: [String: Int] { ["1": 1, "2.1": 3, "2.2": 1, "2.3": 2, "3": 2, "4": 1] }

    init(io: ExampleIO, scheduler: S) {
        self.io = io
        self.scheduler = scheduler
        start = io.now()
    }

    func runItAll() {
        if self.cancellable != nil {
            io.print("Cancelling existing run")
            cancellable?.cancel()
            self.isAnimating = false
        }
        io.print("resetting all the steps")
        self.resetAllSteps()
        // driving it by attaching it to .sink
        self.isAnimating = true
        io.print("attaching a new sink to start things going")
        self.cancellable = coordinatedPipeline?
            .drawn("coordinatedPipeline", on: io, isOutput: true)
            .print(to: ExampleStream(io))
            .sink(receiveCompletion: { completion in
                self.io.print(".sink() received the completion: ", String(describing: completion))
                self.isAnimating = false
                self.io.finish()
            }, receiveValue: { value in
                self.io.print(".sink() received value: ", value)
            })
    }

    // this emulates an async API call with a completion callback
    // it does nothing other than wait and ultimately return with a boolean value
    func randomAsyncAPI(step: String, completion completionBlock: @escaping ((Bool, Error?) -> Void)) {
        let seconds = Self.durations[step] ?? 1
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(seconds))) {
            completionBlock(true, nil)
        }
    }

    /// Creates and returns pipeline that uses a Future to wrap randomAsyncAPI
    /// and then marks the step as done before returning a boolean True.
    func createFuturePublisher(step: String) -> AnyPublisher<Bool, Error> {
        return Future<Bool, Error> { promise in
            self.randomAsyncAPI(step: step) { (result, err) in
                if let err = err {
                    promise(.failure(err))
                } else {
                    promise(.success(result))
                }
            }
        }
        .receive(on: scheduler)  // the book's RunLoop.main
        .map { inValue -> Bool in
            // intentionally side effecting here to show progress of pipeline
            self.markStepDone(step: step)
            return true
        }
        .drawn("step \(step)", on: io)
        .eraseToAnyPublisher()
    }

    func markStepDone(step: String) {
        let seconds = io.now().timeIntervalSince(start)
        io.print("step \(step) done at \(String(format: "%.1f", seconds)) s")
    }

    func resetAllSteps() {
        self.isAnimating = false
    }

    func viewDidLoad() {
        coordinatedPipeline = createFuturePublisher(step: "1")
            .flatMap { flatMapInValue -> AnyPublisher<Bool, Error> in
                let step2_1 = self.createFuturePublisher(step: "2.1")
                let step2_2 = self.createFuturePublisher(step: "2.2")
                let step2_3 = self.createFuturePublisher(step: "2.3")
                return Publishers.Zip3(step2_1, step2_2, step2_3)
                    .map { _ -> Bool in
                        return true
                    }
                    .eraseToAnyPublisher()
            }
            .flatMap { _ in
                return self.createFuturePublisher(step: "3")
            }
            .flatMap { _ in
                return self.createFuturePublisher(step: "4")
            }
            .eraseToAnyPublisher()
    }
}

/// Starts the sequence, then presses "start" again two and a half seconds in (while step 2 runs): the first
/// run is cancelled and a new one starts. Step 1's Future was created once, in `viewDidLoad`, so
/// the second run gets its stored result at once; the step 2 Futures are made anew inside
/// flatMap and run again.
struct SequencingDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let coordinator = AsyncCoordinator(io: context.io, scheduler: context.scheduler)
        coordinator.viewDidLoad()
        coordinator.runItAll()
        let scheduler = context.scheduler
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(2500))) {
            context.io.print("start pressed again at 2.5 s")
            coordinator.runItAll()
        }
        context.io.whenFinished { coordinator.cancellable = nil }
    }
}

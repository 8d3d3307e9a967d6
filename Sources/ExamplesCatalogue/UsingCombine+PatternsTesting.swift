import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// "Using Combine": the testing and debugging patterns. The book's tests are XCTest cases; here
// each runs as an example that prints what its assertions check (the same tests, as XCTest, are
// in the ExamplesTests target). XCTest's expectation is a small stand-in that reports when it is
// fulfilled; EntwineTest's virtual-time scheduler is the example's scheduler, which the tests
// drive on virtual time (CombineTesting's `TestScheduler` among them).

/// Stands in for `XCTestExpectation` in the examples: reports its fulfilment and ends the example.
final class ExampleExpectation {
    let description: String
    let io: ExampleIO

    init(description: String, io: ExampleIO) {
        self.description = description
        self.io = io
    }

    func fulfill() {
        io.print("expectation fulfilled: \(description)")
        io.finish()
    }
}

/// Prints the outcome of one of the book's assertions.
func reportAssertion(_ condition: Bool, _ text: String, io: ExampleIO) {
    io.print("\(condition ? "passed" : "FAILED"): \(text)")
}

/// `testKVOPublisher` without KVO (swift-corelibs-foundation has none): the observed object
/// publishes its `intValue` with `@Published`, and the scheduled send is the same.
final class KVOAbleObject {
    @Published var intValue: Int = 0
}

struct ScheduledSendsDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let q = context.scheduler  // DispatchQueue(label: self.debugDescription)
        let expectation = ExampleExpectation(description: "testKVOPublisher", io: io)
        let foo = KVOAbleObject()

        // The book writes `let _ =`, which cancels at once; the test only passed because it
        // asserted nothing about the values. The subscription is kept here.
        foo.$intValue
            .drawn("foo.$intValue", on: io)
            .print(to: ExampleStream(io))
            .sink { someValue in
                io.print("value of intValue updated to: >>\(someValue)<<")
            }
            .store(in: &io.subscriptions)

        q.schedule(after: q.now.advanced(by: .milliseconds(500))) {
            io.print("Updating to foo.intValue on background queue")
            foo.intValue = 5
            expectation.fulfill()
        }
    }
}

/// EntwineTest's README example: nothing happens until the virtual-time scheduler runs.
struct VirtualTimeDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        var didSink = false
        let cancellable = Just(1)
            .drawn("Just(1)", on: io)
            .delay(for: .seconds(1), scheduler: scheduler)
            .drawn("output", on: io, isOutput: true)
            .sink { _ in
                didSink = true
                io.print("sink received the delayed value: didSink == \(didSink)")
                io.finish()
            }
        io.print("after subscribing: didSink == \(didSink)")
        io.print("running the scheduler (EntwineTest's `scheduler.resume()`)")
        io.whenFinished { cancellable.cancel() }
    }
}

/// EntwineTest's `testMap`: a publisher that sends "a", "b", "c" 100, 200 and 300 ticks after it
/// is subscribed to, mapped to upper case, subscribed at 200; the recording shows each event at
/// its virtual time. One tick is 10 ms here.
struct TestableMapDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let testScheduler = context.scheduler
        let start = io.now()
        func ticks() -> Int { Int((io.now().timeIntervalSince(start) * 100).rounded()) }

        // creates a publisher that will schedule its elements relatively
        // at the point of subscription
        let testablePublisher = Deferred { () -> PassthroughSubject<String, Never> in
            let subject = PassthroughSubject<String, Never>()
            for (offset, input) in [(100, "a"), (200, "b"), (300, "c")] {
                testScheduler.schedule(after: testScheduler.now.advanced(by: .milliseconds(offset * 10))) {
                    subject.send(input)
                }
            }
            return subject
        }

        // a publisher that maps strings to uppercase
        let subjectUnderTest = testablePublisher.drawn("testablePublisher", on: io).map { $0.uppercased() }

        var recordedOutput: [String] = []
        var cancellable: AnyCancellable?
        testScheduler.schedule(after: testScheduler.now.advanced(by: .milliseconds(2000))) {
            cancellable = subjectUnderTest
                .drawn("output", on: io, isOutput: true)
                .handleEvents(receiveSubscription: { _ in recordedOutput.append("(\(ticks()), .subscription)") })
                .sink { recordedOutput.append("(\(ticks()), .input(\"\($0)\"))") }
        }
        testScheduler.schedule(after: testScheduler.now.advanced(by: .milliseconds(9000))) {
            cancellable?.cancel()
            io.print("results.recordedOutput:")
            recordedOutput.forEach { io.print("    \($0)") }
            io.finish()
        }
    }
}

extension Catalogue {
    static var usingCombineTestingPatterns: [Example] { [
        Example(
            "test-expectation",
            title: "testing a publisher with XCTestExpectation",
            source: "Using Combine, pattern: testing a publisher with XCTestExpectation",
            book: .notPrinted,
            timing: .asynchronous
        ) { io in
            let testURL = URL(string: "https://postman-echo.com/time/valid?timestamp=2016-10-10")
            // setup
            let expectation = ExampleExpectation(description: "Download from \(String(describing: testURL))", io: io)
            let remoteDataPublisher = FixtureURLProtocol.session.dataTaskPublisher(for: testURL!)
                // validate
                .sink(receiveCompletion: { fini in
                    io.print(".sink() received the completion", String(describing: fini))
                    switch fini {
                    case .finished: expectation.fulfill()
                    case .failure: reportAssertion(false, "XCTFail()", io: io); io.finish()
                    }
                }, receiveValue: { (data, response) in
                    guard let httpResponse = response as? HTTPURLResponse else {
                        reportAssertion(false, "Unable to parse response an HTTPURLResponse", io: io)
                        return
                    }
                    reportAssertion(!data.isEmpty, "XCTAssertNotNil(data)", io: io)
                    reportAssertion(httpResponse.statusCode == 200, "XCTAssertEqual(httpResponse.statusCode, 200)", io: io)
                })

            // (the book then waits: `wait(for: [expectation], timeout: 5.0)`; the example ends
            // when the expectation is fulfilled)
            io.whenFinished { remoteDataPublisher.cancel() }
        },

        Example(
            "test-subject-sink",
            title: "testing a subscriber with a PassthroughSubject",
            source: "Using Combine, pattern: testing a subscriber with a PassthroughSubject",
            book: .notPrinted
        ) { io in
            // setup - preconditions
            let expectedValues = ["firstStringValue", "secondStringValue"]
            enum TestFailureCondition: Error {
                case anErrorExample
            }
            var countValuesReceived = 0
            var countCompletionsReceived = 0

            // setup
            let simplePublisher = PassthroughSubject<String, Error>()

            let cancellable = simplePublisher
                .sink(receiveCompletion: { completion in
                    countCompletionsReceived += 1
                    switch completion {
                    case .finished:
                        io.print(".sink() received the completion:", String(describing: completion))
                        reportAssertion(false, "We should never receive the completion, the error should happen first", io: io)
                    case .failure(let anError):
                        io.print("received the error: ", anError)
                        reportAssertion(anError.localizedDescription == TestFailureCondition.anErrorExample.localizedDescription,
                              "the error is anErrorExample", io: io)
                    }
                }, receiveValue: { someValue in
                    reportAssertion(expectedValues.contains(someValue), "expectedValues contains \(someValue)", io: io)
                    countValuesReceived += 1
                    io.print(".sink() received \(someValue)")
                })

            func counts() {
                io.print("values received: \(countValuesReceived), completions received: \(countCompletionsReceived)")
            }

            // validate
            counts()

            simplePublisher.send("firstStringValue")
            counts()

            simplePublisher.send("secondStringValue")
            counts()

            simplePublisher.send(completion: Subscribers.Completion.failure(TestFailureCondition.anErrorExample))
            counts()

            // this data will never be seen by anything in the pipeline above because
            // we have already sent a completion
            simplePublisher.send(completion: Subscribers.Completion.finished)
            counts()
            cancellable.cancel()
        },

        Example(
            "test-scheduled-sends",
            title: "testing a subscriber with scheduled sends",
            source: "Using Combine, pattern: testing a subscriber with scheduled sends from PassthroughSubject",
            book: .notPrinted,
            duration: 0.5,
            body: ScheduledSendsDemo()
        ),

        Example(
            "test-virtual-time",
            title: "a virtual-time scheduler",
            source: "Using Combine, pattern: using EntwineTest to create a testable publisher and subscriber (TestScheduler)",
            book: .notPrinted,
            duration: 1,
            body: VirtualTimeDemo()
        ),

        Example(
            "test-testable-map",
            title: "a testable publisher and subscriber",
            source: "Using Combine, pattern: using EntwineTest to create a testable publisher and subscriber (testMap)",
            book: .notPrinted,
            duration: 9,
            body: TestableMapDemo()
        ),

        Example("print-retry", title: "print around retry", source: "Using Combine, pattern: debugging pipelines with the print operator", book: .differs(
            "Apple's Combine today subscribes (2)> before the first attempt and logs the demand "
                + "requests, where the book's log (iOS 13) shows (2)>'s subscription after the errors "
                + "and no requests; there is no final receive cancel, since the sink has let go of its "
                + "subscription when it completed; and the error prints with this package's module, "
                + "ExamplesCatalogue, in front of the book's path."
        )) { io in
            typealias TestFailureCondition = UsingCombineTests.RetryPublisherTests.TestFailureCondition
            // The book writes `let _ =`; the subscription is kept so the log is the whole run.
            Fail(outputType: String.self, failure: TestFailureCondition.invalidServerResponse)
                .print("(1)>", to: ExampleStream(io))
                .retry(3)
                .print("(2)>", to: ExampleStream(io))
                .sink(receiveCompletion: { fini in
                    io.print(" ** .sink() received the completion:", String(describing: fini))
                }, receiveValue: { stringValue in
                    io.print(" ** .sink() received \(stringValue)")
                })
                .store(in: &io.subscriptions)
        },

        Example("handle-events", title: "handleEvents", source: "Using Combine, pattern: debugging pipelines with the handleEvents operator", book: .notPrinted(
            note: "The book's callouts say receiveRequest is called first and receiveSubscription "
                + "second; Apple's Combine calls receiveSubscription first, as here."
        )) { io in
            let publisher = PassthroughSubject<String, Never>()
            func pipeline(_ name: String) -> AnyCancellable {
                io.print("subscribing \(name)")
                return publisher
                    .handleEvents(receiveSubscription: { aValue in
                        io.print("receiveSubscription event called with \(String(describing: aValue))")
                    }, receiveOutput: { aValue in
                        io.print("receiveOutput was invoked with \(String(describing: aValue))")
                    }, receiveCompletion: { aValue in
                        io.print("receiveCompletion event called with \(String(describing: aValue))")
                    }, receiveCancel: {
                        io.print("receiveCancel event invoked")
                    }, receiveRequest: { aValue in
                        io.print("receiveRequest event called with \(String(describing: aValue))")
                    })
                    .sink { _ in }
            }

            let cancelled = pipeline("a pipeline that is cancelled")
            publisher.send("first")
            cancelled.cancel()

            let finished = pipeline("a pipeline that finishes")
            publisher.send("second")
            publisher.send(completion: .finished)
            finished.cancel()
        },

        Example(
            "breakpoint-predicates",
            title: "breakpoint",
            source: "Using Combine, pattern: debugging pipelines with the debugger",
            book: .notPrinted
        ) { io in
            // Each closure decides whether to raise SIGTRAP (stopping in the debugger, or ending
            // the process when none is attached). These never return true, so the values pass.
            (1...3).publisher
                .breakpoint(receiveSubscription: { subscription in
                    return false // return true to throw SIGTRAP and invoke the debugger
                }, receiveOutput: { value in
                    return value > 10 // only a value above 10 would stop here
                }, receiveCompletion: { completion in
                    return false // return true to throw SIGTRAP and invoke the debugger
                })
                .breakpointOnError()
                .sink(receiveCompletion: { io.print("completion: \($0)") },
                      receiveValue: { io.print("value: \($0)") })
                .store(in: &io.subscriptions)
        },
    ] }
}

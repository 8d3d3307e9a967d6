import Combine
import CombineTesting
@testable import ExamplesCatalogue
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The testing patterns of "Using Combine" as the book writes them, in XCTest: an expectation
/// around a data task (served by the in-process fixture), a PassthroughSubject driving a sink,
/// and the EntwineTest examples on CombineTesting's `TestScheduler` (virtual time, no waiting).
final class UsingCombinePatternsXCTests: XCTestCase {
    let testURL = URL(string: "https://postman-echo.com/time/valid?timestamp=2016-10-10")

    /// Pattern "testing a publisher with XCTestExpectation".
    func testDataTaskPublisher() {
        // setup
        let expectation = XCTestExpectation(description: "Download from \(String(describing: testURL))")
        let remoteDataPublisher = FixtureURLProtocol.session.dataTaskPublisher(for: self.testURL!)
            // validate
            .sink(receiveCompletion: { fini in
                switch fini {
                case .finished: expectation.fulfill()
                case .failure: XCTFail()
                }
            }, receiveValue: { (data, response) in
                guard let httpResponse = response as? HTTPURLResponse else {
                    XCTFail("Unable to parse response an HTTPURLResponse")
                    return
                }
                XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"valid":true}"#)
                XCTAssertEqual(httpResponse.statusCode, 200)
            })

        XCTAssertNotNil(remoteDataPublisher)
        wait(for: [expectation], timeout: 5.0)
    }

    /// The same, against the fixture's 404 route: the data task does not fail on an HTTP error
    /// status, it delivers the response (the point of the book's stricter-handling pattern).
    func testDataTaskPublisherDeliversAnErrorStatusAsAValue() {
        let expectation = XCTestExpectation(description: "404 arrives as a response")
        var statusCodes: [Int] = []
        let cancellable = FixtureURLProtocol.session
            .dataTaskPublisher(for: URL(string: "https://postman-echo.com/status/404")!)
            .sink(receiveCompletion: { fini in
                if case .finished = fini { expectation.fulfill() } else { XCTFail() }
            }, receiveValue: { _, response in
                statusCodes.append((response as? HTTPURLResponse)?.statusCode ?? 0)
            })
        wait(for: [expectation], timeout: 5.0)
        XCTAssertEqual(statusCodes, [404])
        cancellable.cancel()
    }

    /// Pattern "testing a subscriber with a PassthroughSubject".
    func testSinkReceiveDataThenError() {
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
                    XCTFail("We should never receive the completion, the error should happen first")
                case .failure(let anError):
                    XCTAssertEqual(anError.localizedDescription,
                                   TestFailureCondition.anErrorExample.localizedDescription)
                }
            }, receiveValue: { someValue in
                XCTAssertTrue(expectedValues.contains(someValue))
                countValuesReceived += 1
            })

        // validate
        XCTAssertEqual(countValuesReceived, 0)
        XCTAssertEqual(countCompletionsReceived, 0)

        simplePublisher.send("firstStringValue")
        XCTAssertEqual(countValuesReceived, 1)
        XCTAssertEqual(countCompletionsReceived, 0)

        simplePublisher.send("secondStringValue")
        XCTAssertEqual(countValuesReceived, 2)
        XCTAssertEqual(countCompletionsReceived, 0)

        simplePublisher.send(completion: Subscribers.Completion.failure(TestFailureCondition.anErrorExample))
        XCTAssertEqual(countValuesReceived, 2)
        XCTAssertEqual(countCompletionsReceived, 1)

        // this data will never be seen by anything in the pipeline above because
        // we have already sent a completion
        simplePublisher.send(completion: Subscribers.Completion.finished)
        XCTAssertEqual(countValuesReceived, 2)
        XCTAssertEqual(countCompletionsReceived, 1)
        cancellable.cancel()
    }

    /// Pattern "testing a subscriber with scheduled sends", on virtual time instead of
    /// `asyncAfter` (and @Published instead of KVO): the test takes no time.
    func testScheduledSend() {
        let scheduler = TestScheduler()
        let foo = KVOAbleObject()
        var received: [Int] = []
        let cancellable = foo.$intValue.sink { received.append($0) }

        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(500))) {
            foo.intValue = 5
        }
        scheduler.advance(by: .milliseconds(499))
        XCTAssertEqual(received, [0])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(received, [0, 5])
        cancellable.cancel()
    }

    /// Pattern "using EntwineTest's virtual-time scheduler", with CombineTesting's TestScheduler
    /// (`run()` where EntwineTest says `resume()`).
    func testExampleUsingVirtualTimeScheduler() {
        let scheduler = TestScheduler()
        var didSink = false
        let cancellable = Just(1)
            .delay(for: .seconds(1), scheduler: scheduler)
            .sink { _ in
                didSink = true
            }

        XCTAssertNotNil(cancellable)
        XCTAssertFalse(didSink)
        // where a real scheduler would have triggered when .sink() was invoked
        // the virtual time scheduler requires run() to commence and runs to
        // completion.
        scheduler.run()
        XCTAssertTrue(didSink)
    }

    /// Pattern "using EntwineTest to create a testable publisher and subscriber" (`testMap`), with
    /// CombineTesting: a cold publisher playing "a", "b", "c" at 100, 200 and 300 ticks after
    /// its subscription, subscribed at 200 and cancelled at 900.
    func testMap() throws {
        let testScheduler = TestScheduler()

        // creates a publisher that will schedule its elements relatively
        // at the point of subscription
        let testablePublisher = try testScheduler.coldPublisher("-abc", frameDuration: 100)

        // a publisher that maps strings to uppercase
        let subjectUnderTest = testablePublisher.map { $0.uppercased() }

        let results = RecordingSubscriber<String, Never>(scheduler: testScheduler)
        testScheduler.schedule(after: 200) { subjectUnderTest.subscribe(results) }
        results.cancel(at: 900)
        testScheduler.advance(to: 1000)

        XCTAssertEqual(results.timedEvents.map { $0.time.ticks }, [200, 300, 400, 500])
        XCTAssertEqual(results.events, [
            .subscription,
            // subscribed at 200
            .value("A"),
            // received uppercased input @ 100 + subscription time
            .value("B"),
            // received uppercased input @ 200 + subscription time
            .value("C"),
            // received uppercased input @ 300 + subscription time
        ])
    }
}

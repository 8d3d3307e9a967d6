import Combine
import CombineTesting
import CombineTestingXCTest
import XCTest

/// The XCTest helpers, exercised from XCTest (the passing path; XCTest on Linux cannot expect a
/// failure, and the failure text is `MarbleDiagram.mismatch`, tested in `MarbleDiagramTests`).
final class XCTAssertMarblesTests: XCTestCase {
    func testMarblesMatchIgnoringTrailingDashes() throws {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(try scheduler.coldPublisher("-a--b|"))
        scheduler.advance(by: 10)
        XCTAssertMarbles(recorder.marbles(), "-a--b|----")
    }

    func testRecordedEventsMatch() throws {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(try scheduler.coldPublisher("-a|"))
        scheduler.advance(by: 2)
        XCTAssertRecordedEvents(recorder, [.init(time: 0, .subscription), .init(time: 1, .value("a")), .init(time: 2, .finished)])
    }
}

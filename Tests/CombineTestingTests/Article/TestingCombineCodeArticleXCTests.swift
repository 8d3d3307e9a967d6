import Combine
import CombineTesting
import CombineTestingXCTest
import XCTest

/// The XCTest example of the "Testing Combine code" article.
final class DebounceArticleXCTests: XCTestCase {
    func testDebounce() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("-a--b-----")
        let recorder = scheduler.record(input.debounce(for: 2, scheduler: scheduler))
        scheduler.advance(by: 10)
        XCTAssertMarbles(recorder.marbles(), "---a--b---")
    }
}

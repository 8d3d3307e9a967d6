import Combine
import Foundation
import XCTest

// The book's `test_timerPublish`, in a file of its own: it checks the dates of the first three
// ticks, and swift-corelibs-foundation's `Timer(timeInterval:repeats:block:)` schedules its first
// fire at once, unlike Apple's. The library's `Timer` publisher gives its timer an explicit first
// fire date one interval after connecting, so the book's [0.5, 1, 1.5] holds here too.

extension CombineOperatorsTests {
    @MainActor
    func test_timerPublish() {
        // Given
        func normalized(_ ti: TimeInterval) -> TimeInterval {
            return Double(round(ti * 10) / 10)
        }

        let now = Date().timeIntervalSinceReferenceDate
        let expectation = self.expectation(description: #function)
        let expected = [0.5, 1, 1.5]
        var results = [TimeInterval]()

        let publisher = Timer
            .publish(every: 0.5, on: .main, in: .common)
            .autoconnect()
            .prefix(3)

        // When
        publisher
            .sink(
                receiveCompletion: { _ in expectation.fulfill() },
                receiveValue: {
                    results.append(
                        normalized($0.timeIntervalSinceReferenceDate - now)
                    )
                }
            )
            .store(in: &subscriptions)

        // Then
        waitForExpectations(timeout: 2, handler: nil)

        XCTAssert(
            results == expected,
            "Results expected to be \(expected) but were \(results)"
        )
    }
}

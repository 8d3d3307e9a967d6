import Combine
import Foundation
import XCTest

// The book's `test_timerPublish`, in a file of its own: on Linux the library's `Timer` publisher
// currently fires its first tick as soon as it connects (swift-corelibs-foundation's
// `Timer(timeInterval:repeats:block:)` schedules the first fire now, unlike Apple's), so this test
// gets [0.0, 0.5, 1.0] instead of [0.5, 1, 1.5]. It waits in Pending/ until that is fixed.

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

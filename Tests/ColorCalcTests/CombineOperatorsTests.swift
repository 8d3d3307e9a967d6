@testable import ColorCalc
@testable import ExamplesCatalogue  // the book's shareReplay operator (chapter 18)
import Combine
import Foundation
import XCTest

/// The testing chapter's operator tests (Kodeco ch. 19, `CombineOperatorsTests.swift`), as the
/// book writes them. Where the book asserts only inside `sink` (so a missing value would pass),
/// an extra check that a value arrived is added.
final class CombineOperatorsTests: XCTestCase {
    var subscriptions = Set<AnyCancellable>()

    override func tearDown() {
        subscriptions = []
    }

    func test_collect() {
        // Given
        let values = [0, 1, 2]
        let publisher = values.publisher
        var received = false

        // When
        publisher
            .collect()
            .sink(receiveValue: {
                received = true
                // Then
                XCTAssert(
                    $0 == values,
                    "Result was expected to be \(values) but was \($0)"
                )
            })
            .store(in: &subscriptions)

        XCTAssertTrue(received, "collect() emitted nothing")
    }

    func test_flatMapWithMax2Publishers() {
        // Given
        let intSubject1 = PassthroughSubject<Int, Never>()
        let intSubject2 = PassthroughSubject<Int, Never>()
        let intSubject3 = PassthroughSubject<Int, Never>()

        let publisher = CurrentValueSubject<PassthroughSubject<Int, Never>, Never>(intSubject1)

        let expected = [1, 2, 4]
        var results = [Int]()

        publisher
            .flatMap(maxPublishers: .max(2)) { $0 }
            .sink(receiveValue: {
                results.append($0)
            })
            .store(in: &subscriptions)

        // When
        intSubject1.send(1)

        publisher.send(intSubject2)
        intSubject2.send(2)

        publisher.send(intSubject3)
        intSubject3.send(3)
        intSubject2.send(4)

        publisher.send(completion: .finished)

        // Then
        XCTAssert(
            results == expected,
            "Results expected to be \(expected) but were \(results)"
        )
    }

    func test_shareReplay() {
        // Given
        let subject = PassthroughSubject<Int, Never>()
        let publisher = subject.shareReplay(capacity: 2)
        let expected = [0, 1, 2, 1, 2, 3, 3]
        var results = [Int]()

        // When
        publisher
            .sink(receiveValue: { results.append($0) })
            .store(in: &subscriptions)

        subject.send(0)
        subject.send(1)
        subject.send(2)

        publisher
            .sink(receiveValue: { results.append($0) })
            .store(in: &subscriptions)

        subject.send(3)

        XCTAssert(
            results == expected,
            "Results expected to be \(expected) but were \(results)"
        )
    }
}

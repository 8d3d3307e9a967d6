import ColorCalc
import Combine
import XCTest

/// The testing chapter's view-model tests (Kodeco ch. 19, `ColorCalcTests.swift`), ported as the
/// book writes them: XCTest, Given-When-Then, synchronous collection through `sink`.
final class ColorCalcTests: XCTestCase {
    var viewModel: CalculatorViewModel!
    var subscriptions = Set<AnyCancellable>()

    override func setUp() {
        viewModel = CalculatorViewModel()
    }

    override func tearDown() {
        subscriptions = []
    }

    // Issue 1
    func test_correctNameReceived() {
        // Given
        let expected = "rwGreen 66%"
        var result = ""

        viewModel.$name
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        // When
        viewModel.hexText = "006636AA"

        // Then
        XCTAssert(
            result == expected,
            "Name expected to be \(expected) but was \(result)"
        )
    }

    // Issue 2
    func test_processBackspaceDeletesLastCharacter() {
        // Given
        let expected = "#0080F"
        var result = ""

        viewModel.$hexText
            .dropFirst()
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        // When
        viewModel.process(CalculatorViewModel.Constant.backspace)

        // Then
        XCTAssert(
            result == expected,
            "Hex was expected to be \(expected) but was \(result)"
        )
    }

    // Issue 3, first attempt (a regression guard)
    func test_correctColorReceived() {
        // Given
        let expected = Color(hex: ColorName.rwGreen.rawValue)!
        var result: Color = .clear

        viewModel.$color
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        // When
        viewModel.hexText = ColorName.rwGreen.rawValue

        // Then
        XCTAssert(
            result == expected,
            "Color expected to be \(expected) but was \(result)"
        )
    }

    // Issue 3
    func test_processBackspaceReceivesCorrectColor() {
        // Given
        let expected = Color.white
        var result = Color.clear

        viewModel.$color
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        // When
        viewModel.process(CalculatorViewModel.Constant.backspace)

        // Then
        XCTAssert(
            result == expected,
            "Hex was expected to be \(expected) but was \(result)"
        )
    }

    // Bad input
    func test_whiteColorReceivedForBadData() {
        // Given
        let expected = Color.white
        var result = Color.clear

        viewModel.$color
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        // When
        viewModel.hexText = "abc"

        // Then
        XCTAssert(
            result == expected,
            "Color expected to be \(expected) but was \(result)"
        )
    }

    // Challenge 1 / issue 4
    func test_processClearSetsHexToHashtag() {
        // Given
        let expected = "#"
        var result = ""

        viewModel.$hexText
            .dropFirst()
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        // When
        viewModel.process(CalculatorViewModel.Constant.clear)

        // Then
        XCTAssert(
            result == expected,
            "Hex was expected to be \(expected) but was \"\(result)\""
        )
    }

    // Challenge 2 / issue 5
    func test_correctRGBOTextReceived() {
        // Given
        let expected = "0, 102, 54, 170"
        var result = ""

        viewModel.$rgboText
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        // When
        viewModel.hexText = "#006636AA"

        // Then
        XCTAssert(
            result == expected,
            "RGBO text expected to be \(expected) but was \(result)"
        )
    }
}

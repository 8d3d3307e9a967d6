import ColorCalc
import Combine
import XCTest

/// The book's tests run against the chapter's starting code: each one fails there exactly as the
/// book shows (its failure message is what the value is compared with), which is how the chapter
/// finds the five bugs that `CalculatorViewModel` has fixed.
final class StarterBugsTests: XCTestCase {
    var viewModel: StarterCalculatorViewModel!
    var subscriptions = Set<AnyCancellable>()

    override func setUp() {
        viewModel = StarterCalculatorViewModel()
    }

    override func tearDown() {
        subscriptions = []
    }

    // "Name expected to be rwGreen 66% but was Optional(ColorCalc.ColorName.rwGreen)66%."
    func test_issue1_nameShowsAnOptional() {
        var result = ""
        viewModel.$name
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        viewModel.hexText = "006636AA"

        XCTAssertEqual(result, "Optional(ColorCalc.ColorName.rwGreen)66%")
    }

    // "Hex was expected to be #0080F but was #0080"
    func test_issue2_backspaceDeletesTwoCharacters() {
        var result = ""
        viewModel.$hexText
            .dropFirst()
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        viewModel.process(CalculatorViewModel.Constant.backspace)

        XCTAssertEqual(result, "#0080")
    }

    // "Hex was expected to be white but was red."
    func test_issue3_backspaceTurnsRed() {
        var result = Color.clear
        viewModel.$color
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        viewModel.process(CalculatorViewModel.Constant.backspace)

        XCTAssertEqual("\(result)", "red")
    }

    // "Hex was expected to be # but was """
    func test_issue4_clearDoesNothing() {
        var result = ""
        viewModel.$hexText
            .dropFirst()
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        viewModel.process(CalculatorViewModel.Constant.clear)

        XCTAssertEqual(result, "")
    }

    // QA: "entering 006636 shows RGBO 0, 62, 32, 155"
    func test_issue5_rgboScaledBy155() {
        var result = ""
        viewModel.$rgboText
            .sink(receiveValue: { result = $0 })
            .store(in: &subscriptions)

        viewModel.hexText = "006636"

        XCTAssertEqual(result, "0, 62, 32, 155")
    }
}

import ColorCalc
import XCTest

/// The colour value type standing in for SwiftUI's `Color` (not part of the book's suite).
final class ColorTests: XCTestCase {
    func test_hexParsing() {
        XCTAssertEqual(Color(hex: "#FFFFFF"), .white)
        XCTAssertEqual(Color(hex: "ff0000ff"), .red)
        XCTAssertNil(Color(hex: "abc"))
        XCTAssertNil(Color(hex: "#0080F"))
        XCTAssertEqual(Color.opacityString(forHex: "006636AA"), "66%")
        XCTAssertEqual(Color.opacityString(forHex: "#006636"), "100%")
    }

    func test_names() {
        XCTAssertEqual(ColorName(hex: "#006636AA"), .rwGreen)
        XCTAssertEqual(ColorName(hex: "0080FF"), .aqua)
        XCTAssertNil(ColorName(hex: "#123456"))
        XCTAssertEqual("\(Color.white)", "white")
        XCTAssertEqual("\(Color.red)", "red")
    }
}

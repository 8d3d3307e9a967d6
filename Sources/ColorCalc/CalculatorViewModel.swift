import Combine
import Foundation

/// The colour calculator's view model from the testing chapter (Kodeco ch. 19, "ColorCalc").
///
/// The user types hex digits; the model publishes the colour, its name and its RGBO text. This is
/// the fixed version: the five QA issues the chapter hunts down with its tests are corrected, each
/// marked with the bug it had.
public final class CalculatorViewModel: ObservableObject {
    /// The two special keys of the keypad.
    public enum Constant {
        /// The ⊗ key: clears the hex display to `#`.
        public static let clear = "⊗"
        /// The ← key: deletes the last character.
        public static let backspace = "←"
    }

    /// What the hex display shows, starting with `#`.
    @Published public var hexText = "#0080FF"
    /// The colour for `hexText`; white when it is not a colour.
    @Published public private(set) var color: Color = Color(hex: "0080FF")!
    /// `"r, g, b, o"` in 0...255 for `hexText`.
    @Published public private(set) var rgboText = "0, 128, 255, 255"
    /// The colour's name and opacity (`"rwGreen 66%"`), or dashes.
    @Published public private(set) var name = "aqua 100%"

    /// The keypad, row by row.
    public let contents = [
        ["A", "B", "C", Constant.clear],
        ["7", "8", "9", "D"],
        ["4", "5", "6", "E"],
        ["1", "2", "3", "F"],
        [Constant.backspace, "0"],
    ]

    /// A model showing the default colour (aqua).
    public init() {
        configure()
    }

    /// Handles one key press.
    public func process(_ input: String) {
        switch input {
        case Constant.clear:
            // Issue 4: this case was a bare `break`, so ⊗ did nothing.
            hexText = "#"
        case Constant.backspace:
            // Issue 2: this was `hexText.removeLast(2)`, deleting two characters.
            if hexText.count > 1 {
                hexText.removeLast()
            }
        case _ where hexText.count < 9:
            hexText.append(input)
        default:
            break
        }
    }

    private func configure() {
        let hexTextShared = $hexText.share()

        // Issue 1: the name was built with `String(describing: name)` on an optional, printing
        // `Optional(ColorCalc.ColorName.rwGreen)66%`.
        hexTextShared
            .map {
                if let name = ColorName(hex: $0) {
                    return "\(name) \(Color.opacityString(forHex: $0))"
                } else {
                    return "------------"
                }
            }
            .assign(to: &$name)

        let colorValuesShared = hexTextShared
            .map { Color.redGreenBlueOpacity(forHex: $0) }
            .share()

        // Issue 3: the fallback colour was `.red`.
        colorValuesShared
            .map { $0 != nil ? Color(values: $0!) : .white }
            .assign(to: &$color)

        // Issue 5: the components were scaled by 155 instead of 255.
        colorValuesShared
            .map { values -> String in
                if let values = values {
                    return [values.0, values.1, values.2, values.3]
                        .map { String(describing: Int($0 * 255)) }
                        .joined(separator: ", ")
                } else {
                    return "---, ---, ---, ---"
                }
            }
            .assign(to: &$rgboText)
    }
}

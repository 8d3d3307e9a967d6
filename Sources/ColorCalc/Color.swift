import Foundation

/// A colour as the calculator shows it: red, green, blue and opacity, each in `0...1`.
///
/// The book's app uses SwiftUI's `Color`, which Linux does not have; this value type has the
/// members the view model and its tests use (`init(hex:)`, `init(values:)`, `.white`, `.red`,
/// `.clear`, equality), and prints named colours by name as SwiftUI does (`white`, `red`), so the
/// tests' failure messages read like the book's.
public struct Color: Equatable, Sendable, CustomStringConvertible {
    /// The four components, in `0...1`.
    public var red, green, blue, opacity: Double

    /// A colour from its components.
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity
    }

    /// A colour from the `(red, green, blue, opacity)` tuple the view model computes.
    public init(values: (Double, Double, Double, Double)) {
        self.init(red: values.0, green: values.1, blue: values.2, opacity: values.3)
    }

    /// A colour from `RRGGBB` or `RRGGBBAA` hex digits, with or without a leading `#`;
    /// `nil` for anything else.
    public init?(hex: String) {
        guard let values = Color.redGreenBlueOpacity(forHex: hex) else { return nil }
        self.init(values: values)
    }

    /// Opaque white: what the calculator shows for input that is not a colour.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Opaque red (the colour the buggy version showed after a backspace).
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Fully transparent black; the tests' "nothing received yet" value.
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)

    /// Splits a hex string into `(red, green, blue, opacity)` in `0...1`; `nil` unless it is
    /// 6 or 8 hex digits after an optional `#`.
    public static func redGreenBlueOpacity(forHex hex: String) -> (Double, Double, Double, Double)? {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6 || digits.count == 8,
              let value = UInt64(digits, radix: 16)
        else { return nil }
        let bytes = digits.count == 8
            ? [(value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF]
            : [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF, 0xFF]
        let components = bytes.map { Double($0) / 255 }
        return (components[0], components[1], components[2], components[3])
    }

    /// The opacity of a hex colour as a whole percentage (`"66%"` for `AA`); `"100%"` when the
    /// hex has no alpha, `""` when it is not a colour.
    public static func opacityString(forHex hex: String) -> String {
        guard let values = redGreenBlueOpacity(forHex: hex) else { return "" }
        return "\(Int(values.3 * 100))%"
    }

    /// `white`, `red` and `clear` print by name; other colours as `#RRGGBBAA`.
    public var description: String {
        switch self {
        case .white: return "white"
        case .red: return "red"
        case .clear: return "clear"
        default:
            let bytes = [red, green, blue, opacity].map { Int(($0 * 255).rounded()) }
            return "#" + bytes.map { String(format: "%02X", $0) }.joined()
        }
    }
}

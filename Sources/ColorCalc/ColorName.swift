/// The named colours the calculator recognises, keyed by their `RRGGBB` hex (lower case).
public enum ColorName: String, CaseIterable, Sendable {
    case aqua = "0080ff"
    case black = "000000"
    case blue = "0000ff"
    case cyan = "00ffff"
    case gray = "808080"
    case green = "00ff00"
    case magenta = "ff00ff"
    case orange = "ff8000"
    case purple = "800080"
    case red = "ff0000"
    case rwGreen = "006636"
    case white = "ffffff"
    case yellow = "ffff00"

    /// The named colour whose hex matches the first six digits of `hex` (a leading `#` and an
    /// alpha pair are ignored); `nil` when there is none.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6 || digits.count == 8 else { return nil }
        self.init(rawValue: String(digits.prefix(6)).lowercased())
    }
}

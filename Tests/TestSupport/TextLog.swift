/// A thread-safe `TextOutputStream` for `print(_:to:)` and the `print` operator: keeps every
/// `write` as it came, so a test can check both the lines and how they were written.
public final class TextLog: TextOutputStream, Sendable {
    private let storage = Locked<[String]>([])

    public init() {}

    public func write(_ string: String) { storage.append(string) }

    /// Writes `line` and a line break, as `print(line, to:)` would.
    public func add(_ line: String) { write(line + "\n") }

    /// Every `write`, in order.
    public var writes: [String] { storage.current }

    /// The complete lines written so far (empty lines included, without their line breaks); text
    /// after the last line break is not a line yet.
    public var lines: [String] {
        writes.joined().split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

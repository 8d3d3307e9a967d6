#if canImport(Testing)
import Combine
import Testing

/// Checks that `actual` draws the same diagram as `expected`, and when it does not, records a
/// Swift Testing issue that shows the two diagrams one above the other with a caret under the
/// first difference (see ``MarbleDiagram/mismatch(expected:actual:)``).
///
/// `#expect(recorder.marbles() == "---a--b")` also works, since ``MarbleDiagram`` is
/// `Equatable`; this function only improves the failure message:
///
/// ```swift
/// expectMarbles(recorder.marbles(), "---a--b---")
/// ```
///
/// - Returns: whether the diagrams are equal, so a test can stop early.
@discardableResult
public func expectMarbles(
    _ actual: MarbleDiagram,
    _ expected: MarbleDiagram,
    _ comment: String? = nil,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) -> Bool {
    guard let mismatch = MarbleDiagram.mismatch(expected: expected, actual: actual) else { return true }
    let text = comment.map { "\($0)\n\(mismatch)" } ?? mismatch
    Issue.record(
        Comment(rawValue: text),
        sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
    return false
}
#endif

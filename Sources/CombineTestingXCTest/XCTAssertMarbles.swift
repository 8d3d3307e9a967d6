import Combine
import CombineTesting
import XCTest

/// Fails the current XCTest test when `actual` and `expected` draw different diagrams, with a
/// message showing the two one above the other and a caret under the first difference.
///
/// The XCTest counterpart of `expectMarbles(_:_:)`:
///
/// ```swift
/// XCTAssertMarbles(recorder.marbles(), "---a--b---")
/// ```
public func XCTAssertMarbles(
    _ actual: @autoclosure () throws -> MarbleDiagram,
    _ expected: @autoclosure () throws -> MarbleDiagram,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    do {
        let actual = try actual()
        let expected = try expected()
        guard let mismatch = MarbleDiagram.mismatch(expected: expected, actual: actual) else { return }
        let note = message()
        XCTFail(note.isEmpty ? mismatch : "\(note)\n\(mismatch)", file: file, line: line)
    } catch {
        XCTFail("XCTAssertMarbles threw \(error)", file: file, line: line)
    }
}

/// Fails the current XCTest test when the recorder's timed events differ from `expected`,
/// listing both sides one event per line (`t=3 value(1)`), which is easier to scan than
/// `XCTAssertEqual`'s single-line dump of two arrays.
public func XCTAssertRecordedEvents<Value: Equatable, Failure: Error & Equatable>(
    _ recorder: RecordingSubscriber<Value, Failure>,
    _ expected: [Recorded<RecordedEvent<Value, Failure>>],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let actual = recorder.timedEvents
    guard actual != expected else { return }
    let list = { (events: [Recorded<RecordedEvent<Value, Failure>>]) in
        events.map { "  \($0.time) \($0.element)" }.joined(separator: "\n")
    }
    let note = message()
    XCTFail(
        (note.isEmpty ? "" : "\(note)\n") + "Recorded events differ.\nexpected:\n\(list(expected))\nactual:\n\(list(actual))",
        file: file,
        line: line
    )
}

import Combine
import CombineTesting
import Foundation

/// Marble diagrams of an operator's inputs and its output, recorded on virtual time and drawn
/// one above the other so that a column is the same instant in every row.
///
/// Each row is a ``MarbleDiagram`` drawn by CombineTesting from a recording; this type only
/// lines them up. A frame that holds several events in one row (a group such as `(c|)`) is
/// widened with spaces in the other rows, which marble diagrams ignore, so every row still
/// reads as a valid diagram. Values whose description is a single character are drawn as that
/// character; any other value gets a capital letter, explained in a legend under the rows.
///
/// ```text
/// debounce(for: .milliseconds(300)): one frame = 100 ms
///   input   -a-b-c-------d-e-----|
///   output  --------c----------e-|
/// ```
public struct MarbleChart: CustomStringConvertible {
    /// One labelled diagram.
    public struct Row: Equatable {
        /// What the row shows (`input`, `output`, `chars`…).
        public let label: String
        /// The row's events, one character per frame.
        public let diagram: MarbleDiagram
    }

    /// The operator call the chart illustrates.
    public let title: String
    /// How much virtual time one character stands for.
    public let frameDuration: TestScheduler.SchedulerTimeType.Stride
    /// The rows, in the order they were added.
    public private(set) var rows: [Row] = []
    /// The letters standing for values too long to draw, with the value each stands for.
    public private(set) var legend: [(symbol: Character, value: String)] = []

    /// What one frame stands for, when it is not a length of time (a chart counted in steps).
    let frameDescription: String?

    /// An empty chart for `title` with frames of `frameDuration`; `frameDescription`, if given,
    /// replaces "one frame = 100 ms" in the title line.
    public init(
        title: String,
        frameDuration: TestScheduler.SchedulerTimeType.Stride,
        frameDescription: String? = nil
    ) {
        self.title = title
        self.frameDuration = frameDuration
        self.frameDescription = frameDescription
    }

    /// Adds a row drawn from `recording` (frames counted from the recording's start).
    public mutating func add<Value, Failure: Error>(_ label: String, _ recording: Recording<Value, Failure>) {
        var legend = self.legend
        let diagram = recording.marbles(frameDuration: frameDuration) { value in
            Self.symbol(for: String(describing: value), legend: &legend)
        }
        self.legend = legend
        rows.append(Row(label: label, diagram: diagram))
    }

    /// Adds a row drawn from what `recorder` has recorded so far.
    public mutating func add<Value, Failure: Error>(_ label: String, _ recorder: RecordingSubscriber<Value, Failure>) {
        add(label, recorder.recording)
    }

    /// The characters marble diagrams reserve for themselves.
    private static let reserved: Set<Character> = ["-", "|", "#", "(", ")", "^", " ", "?"]

    private static func symbol(for text: String, legend: inout [(symbol: Character, value: String)]) -> Character {
        if text.count == 1, let character = text.first, !reserved.contains(character) { return character }
        if let known = legend.first(where: { $0.value == text }) { return known.symbol }
        let used = Set(legend.map(\.symbol))
        let symbol = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".first { !used.contains($0) } ?? "?"
        legend.append((symbol, text))
        return symbol
    }

    /// A diagram's text cut into frames: a group `(…)` is one frame, any other character is one.
    static func frames(of diagram: MarbleDiagram) -> [String] {
        var frames: [String] = []
        var group: String?
        for character in diagram.text {
            if var open = group {
                open.append(character)
                if character == ")" {
                    frames.append(open)
                    group = nil
                } else {
                    group = open
                }
            } else if character == "(" {
                group = "("
            } else {
                frames.append(String(character))
            }
        }
        return frames
    }

    /// The rows' diagrams padded so that each frame starts in the same column in every row
    /// (the labels not included).
    public var alignedDiagrams: [String] {
        let framed = rows.map { Self.frames(of: $0.diagram) }
        let count = framed.map(\.count).max() ?? 0
        let widths = (0..<count).map { index in
            framed.map { index < $0.count ? $0[index].count : 1 }.max() ?? 1
        }
        return framed.map { frames in
            var line = ""
            for (index, frame) in frames.enumerated() {
                line += frame.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// `1 s`, `100 ms`, `250 µs`: the frame duration in the largest whole unit.
    var frameDurationText: String {
        let ticks = frameDuration.ticks
        for (size, unit) in [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs")] where ticks % size == 0 {
            return "\(ticks / size) \(unit)"
        }
        return "\(ticks) ns"
    }

    /// The chart as text: the title and frame duration, the aligned rows, then the legend.
    public var description: String {
        let labelWidth = rows.map(\.label.count).max() ?? 0
        var lines = ["\(title): " + (frameDescription ?? "one frame = \(frameDurationText)")]
        for (row, diagram) in zip(rows, alignedDiagrams) {
            lines.append("  " + row.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + diagram)
        }
        for entry in legend {
            lines.append("  \(entry.symbol) = \(entry.value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

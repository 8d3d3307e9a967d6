import Combine

/// A marble diagram: a picture of a stream over time, one character per frame.
///
/// The alphabet:
///
/// | Character | Meaning |
/// |-----------|---------|
/// | `-` | a frame in which nothing happens |
/// | any letter, digit or other symbol | a value, looked up in the diagram's value dictionary (or, for `String` streams, the character itself) |
/// | `\|` | the stream finishes |
/// | `#` | the stream fails with the diagram's error |
/// | `(` … `)` | a group: everything inside happens in the same frame, in the order written; the whole group, parentheses included, takes **one** frame |
/// | `^` | the subscription point of a hot diagram: this character is frame 0, those before it are negative frames |
/// | space | ignored; use it to line diagrams up |
///
/// By default a frame lasts one tick of ``TestScheduler``, so in `"-a--b-"` the value `a` happens
/// at tick 1 and `b` at tick 4. Every parsing and rendering function takes a `frameDuration`
/// when the code under test is written in real units (`frameDuration: .milliseconds(100)`).
///
/// Because a group takes one frame however many characters it spans, the characters after a
/// group sit further right than their frame number: `"(ab)-c"` puts `c` at frame 2. Keep groups
/// for the few frames that need them, typically a value together with completion: `"--(c|)"`.
///
/// As a value, a diagram is the normalised text: spaces are removed, and trailing `-` are
/// dropped (they only say "and then nothing happened", which depends on how long the test
/// looked). So `recorder.marbles() == "---a--b---"` holds when the recording ends with `b` at
/// frame 6, whatever the test's final clock reads.
public struct MarbleDiagram: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The normalised diagram: no spaces, no trailing `-`.
    public let text: String

    /// Normalises `diagram` (drops spaces and trailing `-`).
    public init(_ diagram: String) {
        var characters = diagram.filter { !$0.isWhitespace }
        while characters.last == "-" { characters.removeLast() }
        text = characters
    }

    /// Lets tests write expected diagrams as string literals.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The normalised text, so `#expect` failures show the two diagrams.
    public var description: String { text }

    /// A failure message showing `expected` and `actual` one above the other, left-aligned, with
    /// a caret under the first column where they differ; `nil` when they are equal.
    ///
    /// ```text
    /// Marble diagrams differ at column 7:
    /// expected: ---a--b
    ///   actual: ---a---b
    ///                  ^
    /// ```
    public static func mismatch(expected: MarbleDiagram, actual: MarbleDiagram) -> String? {
        if expected == actual { return nil }
        let lhs = Array(expected.text)
        let rhs = Array(actual.text)
        var column = 0
        while column < lhs.count, column < rhs.count, lhs[column] == rhs[column] { column += 1 }
        let display = { (text: String) in text.isEmpty ? "(nothing)" : text }
        return """
            Marble diagrams differ at column \(column + 1):
            expected: \(display(expected.text))
              actual: \(display(actual.text))
                      \(String(repeating: " ", count: column))^
            """
    }
}

/// Why a marble diagram could not be read: what is wrong and where, with the diagram and a
/// caret under the offending character in ``description``.
public struct MarbleDiagramError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The diagram as given.
    public var diagram: String
    /// The zero-based character offset of the problem in ``diagram``.
    public var offset: Int
    /// What is wrong, in words.
    public var reason: String

    /// Describes a problem at `offset` in `diagram`.
    public init(diagram: String, offset: Int, reason: String) {
        self.diagram = diagram
        self.offset = offset
        self.reason = reason
    }

    /// The reason, the diagram, and a caret under the offending character.
    public var description: String {
        """
        Invalid marble diagram: \(reason)
          \(diagram)
          \(String(repeating: " ", count: offset))^
        """
    }
}

/// The events of a parsed diagram, with frame numbers, before they are placed on a clock.
struct MarbleScript<Value, Failure: Error> {
    /// Frame numbers are relative to the subscription point (`^`), or to the first character.
    var events: [(frame: Int, event: RecordedEvent<Value, Failure>)]

    /// Reads `diagram`.
    /// - Parameters:
    ///   - allowsSubscriptionMarker: `false` for cold diagrams, where `^` makes no sense.
    ///   - value: the value a character stands for, or `nil` if it stands for none.
    ///   - failure: what `#` stands for; `nil` makes `#` an error (streams that cannot fail).
    init(
        _ diagram: String,
        allowsSubscriptionMarker: Bool,
        value: (Character) -> Value?,
        failure: Failure?
    ) throws(MarbleDiagramError) {
        func problem(_ offset: Int, _ reason: String) -> MarbleDiagramError {
            MarbleDiagramError(diagram: diagram, offset: offset, reason: reason)
        }
        var events: [(frame: Int, event: RecordedEvent<Value, Failure>)] = []
        var frame = 0
        var origin: Int?
        var groupStart: Int?
        var groupIsEmpty = true
        var terminated = false

        for (offset, character) in diagram.enumerated() {
            if character.isWhitespace { continue }
            switch character {
            case "-":
                if groupStart != nil { throw problem(offset, "'-' inside a group; a group is a single frame") }
                frame += 1
            case "(":
                if groupStart != nil { throw problem(offset, "groups cannot be nested") }
                groupStart = offset
                groupIsEmpty = true
            case ")":
                guard groupStart != nil else { throw problem(offset, "')' without a matching '('") }
                if groupIsEmpty { throw problem(offset, "empty group '()'") }
                groupStart = nil
                frame += 1
            case "^":
                guard allowsSubscriptionMarker else {
                    throw problem(offset, "'^' (subscription point) is only meaningful in hot diagrams")
                }
                if groupStart != nil { throw problem(offset, "'^' cannot be inside a group") }
                if origin != nil { throw problem(offset, "more than one '^'") }
                origin = frame
                frame += 1
            default:
                if terminated {
                    throw problem(offset, "'\(character)' after the stream has already completed")
                }
                let event: RecordedEvent<Value, Failure>
                switch character {
                case "|":
                    event = .completion(.finished)
                    terminated = true
                case "#":
                    guard let failure else {
                        throw problem(offset, "'#' (failure) needs an error; pass one with `error:`")
                    }
                    event = .completion(.failure(failure))
                    terminated = true
                default:
                    guard let mapped = value(character) else {
                        throw problem(offset, "'\(character)' is not in the value dictionary")
                    }
                    event = .value(mapped)
                }
                events.append((frame, event))
                if groupStart != nil {
                    groupIsEmpty = false
                } else {
                    frame += 1
                }
            }
        }
        if let groupStart { throw problem(groupStart, "'(' is never closed") }
        let shift = origin ?? 0
        self.events = events.map { (frame: $0.frame - shift, event: $0.event) }
    }

    /// The events placed on the clock: frame `n` happens at `start + n × frameDuration`.
    func timed(
        from start: TestScheduler.SchedulerTimeType,
        frameDuration: TestScheduler.SchedulerTimeType.Stride
    ) -> [Recorded<RecordedEvent<Value, Failure>>] {
        events.map { Recorded(time: start.advanced(by: frameDuration * .ticks($0.frame)), $0.event) }
    }
}

extension MarbleDiagram {
    /// Draws `events` as a diagram: frame `n` covers `[start + n × frameDuration, start + (n+1) × frameDuration)`.
    ///
    /// Subscription events are not drawn (the diagram of a recording starts at the recorder's
    /// creation); events before `start` are left out. Several events in one frame are drawn as a
    /// group; a value `symbol` cannot draw (it returns `nil`) is drawn as `?`; any failure as `#`.
    public init<Value, Failure: Error>(
        events: [Recorded<RecordedEvent<Value, Failure>>],
        start: TestScheduler.SchedulerTimeType = 0,
        frameDuration: TestScheduler.SchedulerTimeType.Stride = 1,
        symbol: (Value) -> Character?
    ) {
        precondition(frameDuration > 0, "MarbleDiagram: frameDuration must be positive")
        var frames: [Int: [Character]] = [:]
        var lastFrame = -1
        for recorded in events {
            let offset = start.distance(to: recorded.time).ticks
            if offset < 0 { continue }
            let frame = offset / frameDuration.ticks
            let character: Character
            switch recorded.element {
            case .subscription: continue
            case .value(let value): character = symbol(value) ?? "?"
            case .completion(.finished): character = "|"
            case .completion(.failure): character = "#"
            }
            frames[frame, default: []].append(character)
            lastFrame = max(lastFrame, frame)
        }
        var text = ""
        if lastFrame >= 0 {
            for frame in 0...lastFrame {
                switch frames[frame] {
                case nil: text.append("-")
                case let characters? where characters.count == 1: text.append(characters[0])
                case let characters?: text.append("(" + String(characters) + ")")
                }
            }
        }
        self.init(text)
    }
}

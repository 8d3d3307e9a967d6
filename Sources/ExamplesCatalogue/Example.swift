import Combine
import Foundation

/// One example from the source books, reproduced so that it prints what the book prints.
///
/// An example is data plus a body. The body never writes to standard output itself: it prints
/// through the ``ExampleIO`` it is handed, so the command-line runner can forward the text to the
/// terminal while the tests capture it and compare it with the book.
///
/// Every example says how its output stands to the book's (``book``): the same lines, knowingly
/// different (and then it prints a note saying what differs and why), or not printed in the book
/// at all. The catalogue's tests hold the book's text and check the claim.
public struct Example {
    /// How an example's output stands to the text its book prints.
    public enum BookOutput: Sendable, Equatable {
        /// The book prints this example's output, and the example prints the same lines (after
        /// the header, which only Kodeco's playgrounds print themselves).
        case same
        /// The book prints this example's output and the example's knowingly differs; the text
        /// says what differs and why (Apple's behaviour today, Linux, virtual time…), and the
        /// example prints it as a note after its output.
        case differs(String)
        /// The book shows the code, or describes what it does, but prints no output for it: the
        /// example prints what that code prints. A note, when there is one, says where the book's
        /// prose says otherwise, and is printed after the output.
        case notPrinted(note: String?)

        /// No output in the book, and nothing to note.
        public static var notPrinted: Self { .notPrinted(note: nil) }

        /// The note the example prints after its output, if any.
        public var note: String? {
            switch self {
            case .same: return nil
            case .differs(let note): return note
            case .notPrinted(let note): return note
            }
        }
    }

    /// How an example relates to time, which decides how a runner waits for it.
    public enum Timing: Sendable, Equatable {
        /// Everything happens before the body returns.
        case immediate
        /// The example waits on its scheduler; on virtual time it ends as soon as the scheduler
        /// is run to completion. `duration` is roughly how long it takes on real time.
        case scheduled(duration: TimeInterval)
        /// The example waits for real asynchronous work (a URL session, a queue) and calls
        /// ``ExampleIO/finish()`` when it is done.
        case asynchronous
    }

    /// Short command-line name, e.g. `never-sink`.
    public let slug: String
    /// The title the book prints after `——— Example of:`.
    public let title: String
    /// Where the example comes from (book, chapter), for the listing.
    public let source: String
    /// How the example relates to time.
    public let timing: Timing
    /// The operators (and other API names) the example is about, e.g. `["debounce"]`, so that
    /// `examples list debounce` finds it even when its title does not say so.
    public let operators: [String]
    /// How the example's output stands to the book's.
    public let book: BookOutput
    /// Whether a run of the example draws a marble chart of its own inputs and output
    /// (`examples NAME --marbles`): every example on a scheduler does, and a few others.
    public let drawsMarbles: Bool

    private let body: Body

    private enum Body {
        case plain((ExampleIO) -> Void)
        case scheduled(any ScheduledExampleBody)
    }

    /// The one place the stored properties are set; the public initialisers differ only in how
    /// they spell the timing and the body.
    private init(
        _ slug: String, _ title: String, _ source: String, _ book: BookOutput, _ timing: Timing,
        _ operators: [String], _ drawsMarbles: Bool, _ body: Body
    ) {
        self.slug = slug
        self.title = title
        self.source = source
        self.book = book
        self.timing = timing
        self.operators = operators
        self.drawsMarbles = drawsMarbles
        self.body = body
    }

    /// An example that does not need a scheduler. With `drawsMarbles`, it marks streams for its
    /// marble chart (counted in events, as it has no clock) or draws a chart of its own.
    public init(
        _ slug: String,
        title: String,
        source: String,
        book: BookOutput,
        timing: Timing = .immediate,
        operators: [String] = [],
        drawsMarbles: Bool = false,
        body: @escaping (ExampleIO) -> Void
    ) {
        self.init(slug, title, source, book, timing, operators, drawsMarbles, .plain(body))
    }

    /// An example whose timing comes from an injected scheduler (real time when run from the
    /// command line, virtual time in the tests).
    public init(
        _ slug: String,
        title: String,
        source: String,
        book: BookOutput,
        duration: TimeInterval,
        operators: [String] = [],
        body: some ScheduledExampleBody
    ) {
        self.init(slug, title, source, book, .scheduled(duration: duration), operators, true, .scheduled(body))
    }

    /// An example that waits for real asynchronous work (a URL session, a queue) *and* uses a
    /// scheduler for its delays: the delays run on the runner's virtual clock, the real work on
    /// real time, and the body calls ``ExampleIO/finish()`` when it is done.
    public init(
        _ slug: String,
        title: String,
        source: String,
        book: BookOutput,
        asynchronousBody body: some ScheduledExampleBody,
        operators: [String] = []
    ) {
        self.init(slug, title, source, book, .asynchronous, operators, true, .scheduled(body))
    }

    /// Whether `word` names this example's topic: a case-insensitive substring of its slug,
    /// title, source or one of its ``operators``. `debounce` matches every example that uses
    /// `debounce`; `kodeco ch. 11` matches the chapter's examples.
    public func matches(_ word: String) -> Bool {
        let needle = word.lowercased()
        guard !needle.isEmpty else { return false }
        return ([slug, title, source] + operators).contains { $0.lowercased().contains(needle) }
    }

    /// The header line the books print before an example's output.
    public var header: String { "——— Example of: \(title) ———" }

    /// Whether the example runs on a scheduler (its timers, delays and debounces), which is what
    /// makes it time-based: such an example marks its inputs and output for `--marbles`.
    public var usesScheduler: Bool {
        if case .scheduled = body { return true }
        return false
    }

    /// The note printed after the example's output (``BookOutput/note``), wrapped to 100
    /// columns, each line after the first indented under the text; `nil` when there is none.
    public var noteText: String? {
        guard let note = book.note else { return nil }
        var lines: [String] = []
        var line = "Note:"
        for word in note.split(separator: " ") {
            if line.count + 1 + word.count > 100, line.count > 6 {
                lines.append(line)
                line = "     "
            }
            line += " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the example: prints the header, then the body's output, into `io`.
    ///
    /// Immediate examples are finished when this returns; the others finish later, when their
    /// body calls ``ExampleIO/finish()`` (watch ``ExampleIO/isFinished``).
    public func run<S: Scheduler>(io: ExampleIO, scheduler: S) {
        io.print(header)
        switch body {
        case .plain(let body):
            body(io)
        case .scheduled(let body):
            body.run(ExampleContext(io: io, scheduler: scheduler))
        }
        if timing == .immediate { io.finish() }
    }
}

/// The body of an example that needs a scheduler. It is generic over the scheduler; the
/// `examples` command and the tests both run it on CombineTesting's `TestScheduler` (virtual
/// time), and the same code runs on a real queue or run loop.
///
/// Write strides with their unit (`.seconds(1)`, `.milliseconds(500)`), never as bare literals:
/// a literal `1` is one second for `DispatchQueue` and `RunLoop` but one nanosecond tick for
/// `TestScheduler`.
public protocol ScheduledExampleBody {
    /// Runs the example on `context.scheduler`; calls `context.io.finish()` when the book's
    /// output is complete.
    func run<S: Scheduler>(_ context: ExampleContext<S>)
}

/// What a scheduled example gets: where to print, and the scheduler standing in for the book's
/// run loop or dispatch queue.
public struct ExampleContext<S: Scheduler> {
    /// Where the example prints and keeps its subscriptions.
    public let io: ExampleIO
    /// The scheduler the example uses for every delay and timer.
    public let scheduler: S

    /// Bundles an output and a scheduler.
    public init(io: ExampleIO, scheduler: S) {
        self.io = io
        self.scheduler = scheduler
    }
}

import Combine
import Foundation

/// The output sink and the little state an example needs while it runs.
///
/// Examples print through ``print(_:separator:terminator:)`` (same shape as `Swift.print`), keep
/// their subscriptions in ``subscriptions`` (the books' playground-global
/// `var subscriptions = Set<AnyCancellable>()`), and read the time through ``now`` so the tests
/// can substitute a virtual clock.
public final class ExampleIO: @unchecked Sendable {
    // @unchecked: an example may print from a queue (receive(on:), a URL session); writes and the
    // finished flag are serialised by `lock`. Subscriptions are only touched by the example's
    // own serial flow.

    /// Receives every piece of text an example writes, in order.
    private let sink: (String) -> Void
    private let lock = NSLock()
    /// The clock the example reads (`Date()` on real time).
    public let now: () -> Date
    /// Subscriptions the example keeps alive until ``finish()`` or until the IO is released.
    public var subscriptions = Set<AnyCancellable>()
    /// Set once the example has printed all it will print.
    public var isFinished: Bool { lock.withLock { finished } }
    private var finished = false
    private var onFinish: [() -> Void] = []
    /// Whether the last text written ended a line (or nothing was written yet).
    private var atLineStart = true
    /// The inputs and output the example marks for its marble chart.
    public let marbles: MarbleRecorder

    /// Creates an IO that hands every write to `write`. `virtualTime`, when given, reads the
    /// example's virtual clock in nanoseconds since it started, for its marble chart; without
    /// it the chart counts events instead.
    public init(
        now: @escaping () -> Date = Date.init,
        virtualTime: (() -> Int)? = nil,
        write: @escaping (String) -> Void
    ) {
        self.sink = write
        self.now = now
        self.marbles = MarbleRecorder(clock: virtualTime)
    }

    /// Whether the text written so far ends with a newline (true before anything is written).
    public var isAtLineStart: Bool { lock.withLock { atLineStart } }

    /// Prints like `Swift.print`: the items' descriptions joined by `separator`, then
    /// `terminator`.
    public func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        write(items.map { String(describing: $0) }.joined(separator: separator) + terminator)
    }

    /// Writes raw text, as a `TextOutputStream` does.
    public func write(_ string: String) {
        lock.withLock {
            guard !string.isEmpty else { return }
            sink(string)
            atLineStart = string.hasSuffix("\n")
        }
    }

    /// Marks the example as done and releases its subscriptions.
    public func finish() {
        let actions: [() -> Void]? = lock.withLock {
            guard !finished else { return nil }
            finished = true
            defer { onFinish = [] }
            return onFinish
        }
        guard let actions else { return }
        subscriptions.removeAll()
        actions.forEach { $0() }
    }

    /// Runs `action` when the example finishes (immediately if it already has).
    public func whenFinished(_ action: @escaping () -> Void) {
        let runNow = lock.withLock {
            if finished { return true }
            onFinish.append(action)
            return false
        }
        if runNow { action() }
    }
}

/// A `TextOutputStream` that writes into an ``ExampleIO``, for the books' `print(_:to:)` calls.
public struct ExampleStream: TextOutputStream {
    let io: ExampleIO

    /// Wraps `io` as a stream.
    public init(_ io: ExampleIO) { self.io = io }

    /// Forwards `string` to the example's output.
    public mutating func write(_ string: String) { io.write(string) }
}

/// Collects everything an example prints, for tests and for `examples --check`.
public final class CapturedOutput {
    /// All text written so far.
    public private(set) var text = ""

    /// Creates an empty capture.
    public init() {}

    /// Appends `string`.
    public func append(_ string: String) { text += string }
}

import Combine
import CombineTesting
import Foundation

/// What an example records for `examples NAME --marbles`: the streams it marks with
/// `drawn(_:on:isOutput:)`, event by event, at the virtual time each event
/// happened, drawn afterwards as a ``MarbleChart`` of that very run.
///
/// An example on the runner's virtual clock records real times. An immediate example (no clock)
/// records steps instead: each event of an input moves one frame on, and the output's events land
/// in the frame of the input event that caused them, so a chart still shows what came from what.
public final class MarbleRecorder: @unchecked Sendable {
    // @unchecked: every mutable property is only touched under `lock`; an example may send from
    // a queue.

    /// One event of a row, as drawn.
    enum Event {
        case value(String)
        case finished
        case failure(String)
    }

    private struct Row {
        let label: String
        let isOutput: Bool
        var events: [(ticks: Int, event: Event)] = []
    }

    private let lock = NSLock()
    /// The virtual time since the example started, in nanoseconds; `nil` to count steps.
    private let clock: (() -> Int)?
    private var rows: [Row] = []
    private var step = -1
    /// A chart an example drew on a scheduler of its own (the marble demos).
    private var finishedChart: MarbleChart?

    /// A recorder reading `clock` (virtual nanoseconds since the example started), or counting
    /// steps when there is none.
    init(clock: (() -> Int)?) {
        self.clock = clock
    }

    /// Whether anything was marked for drawing.
    public var isEmpty: Bool { lock.withLock { rows.isEmpty && finishedChart == nil } }

    /// Adds a row, in the order rows are declared (an existing label is kept where it is).
    func addRow(_ label: String, isOutput: Bool) {
        lock.withLock {
            if !rows.contains(where: { $0.label == label }) {
                rows.append(Row(label: label, isOutput: isOutput))
            }
        }
    }

    /// Records `event` on the row `label`, now.
    func record(_ label: String, _ event: Event) {
        let now = clock?()
        lock.withLock {
            guard let index = rows.firstIndex(where: { $0.label == label }) else { return }
            let ticks: Int
            if let now {
                ticks = now
            } else {
                if !rows[index].isOutput { step += 1 }
                ticks = max(step, 0)
            }
            rows[index].events.append((ticks, event))
        }
    }

    /// Records `value` on the row `label` (added if new), now: for what happens outside any
    /// publisher, such as a scheduled action firing.
    func draw(_ label: String, value: String, isOutput: Bool = false) {
        addRow(label, isOutput: isOutput)
        record(label, .value(value))
    }

    /// Uses `chart`, drawn by the example itself on a scheduler of its own, as the example's chart.
    func use(_ chart: MarbleChart) {
        lock.withLock { finishedChart = chart }
    }

    /// The frame durations tried, longest first: the longest that every event time is a multiple
    /// of is used, so each event is drawn exactly where it happened.
    static let frameDurations: [Int] = [
        10_000_000_000, 5_000_000_000, 2_000_000_000, 1_000_000_000, 500_000_000, 250_000_000,
        200_000_000, 100_000_000, 50_000_000, 25_000_000, 20_000_000, 10_000_000, 5_000_000, 1_000_000,
    ]

    /// The widest chart drawn with exact frames; past it, frames are rounded down.
    static let maximumFrames = 120

    /// The chart of what was recorded, titled `title`; `nil` when nothing was marked.
    public func chart(title: String) -> MarbleChart? {
        let (rows, finishedChart, counted) = lock.withLock { (self.rows, self.finishedChart, clock == nil) }
        if let finishedChart { return finishedChart }
        guard !rows.isEmpty else { return nil }
        let times = rows.flatMap { $0.events.map(\.ticks) }
        let frame: Int
        if counted {
            frame = 1
        } else {
            let last = times.max() ?? 0
            // Everything at once (a scheduler that only hops): any frame draws the same.
            let fits = Self.frameDurations.filter { last / $0 < Self.maximumFrames }
            frame = last == 0
                ? 100_000_000
                : fits.first { duration in times.allSatisfy { $0 % duration == 0 } } ?? fits.last ?? 1_000_000
        }
        var chart = MarbleChart(
            title: title,
            frameDuration: .nanoseconds(frame),
            frameDescription: counted ? "one frame = one event of an input" : nil
        )
        // Inputs first, in the order they were marked, then the outputs.
        for row in rows.filter({ !$0.isOutput }) + rows.filter(\.isOutput) {
            let events = row.events.map { ticks, event -> Recorded<RecordedEvent<String, DrawnFailure>> in
                let time = TestScheduler.SchedulerTimeType(ticks: ticks)
                switch event {
                case .value(let text): return Recorded(time: time, .value(text))
                case .finished: return Recorded(time: time, .finished)
                case .failure(let text): return Recorded(time: time, .failure(DrawnFailure(description: text)))
                }
            }
            chart.add(row.label, Recording<String, DrawnFailure>(startTime: 0, events: events))
        }
        return chart
    }

    /// A failure as drawn: only its description is kept.
    struct DrawnFailure: Error, CustomStringConvertible {
        let description: String
    }
}

extension Publisher {
    /// Marks this stream as a row of the example's marble chart (`examples NAME --marbles`),
    /// labelled `label`: every value and the completion that pass here are recorded at the time
    /// they pass, each value as `describe` writes it (its description by default). Inputs are
    /// drawn in the order they are marked, then the outputs (`isOutput: true`).
    ///
    /// The mark hands the upstream's own subscription on, so a `print` operator below it logs the
    /// same `receive subscription: (…)` line as without it.
    func drawn(
        _ label: String,
        on io: ExampleIO,
        isOutput: Bool = false,
        describe: @escaping (Output) -> String = { String(describing: $0) }
    ) -> DrawnPublisher<Self> {
        io.marbles.addRow(label, isOutput: isOutput)
        return DrawnPublisher(upstream: self, label: label, recorder: io.marbles, describe: describe)
    }
}

/// The publisher behind `drawn(_:on:isOutput:describe:)`: its upstream's events, recorded on
/// their way through.
struct DrawnPublisher<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let label: String
    let recorder: MarbleRecorder
    let describe: (Output) -> String

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(Marker(downstream: subscriber, mark: self))
    }

    /// Records each event, then passes it on; the subscription goes down unwrapped.
    private final class Marker<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let downstream: Downstream
        let mark: DrawnPublisher

        init(downstream: Downstream, mark: DrawnPublisher) {
            self.downstream = downstream
            self.mark = mark
        }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Output) -> Subscribers.Demand {
            mark.recorder.record(mark.label, .value(mark.describe(input)))
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            switch completion {
            case .finished: mark.recorder.record(mark.label, .finished)
            case .failure(let error): mark.recorder.record(mark.label, .failure(String(describing: error)))
            }
            downstream.receive(completion: completion)
        }
    }
}

import Combine
import CombineTesting
import Foundation

// Small demos of the time operators the books describe (debounce, throttle, delay, timeout,
// merge, switchToLatest, collect(.byTime), a Timer), played on virtual time. Each runs as an
// example that logs every input and output event with its time, and `examples NAME --marbles`
// draws that run as aligned marble diagrams.

/// One operator demo: named inputs and the output the operator makes of them, all on one
/// ``TestScheduler``.
struct MarbleDemo {
    /// The operator call, as the chart's title.
    let title: String
    /// How much virtual time one diagram character stands for.
    let frameDuration: TestScheduler.SchedulerTimeType.Stride
    /// Builds the inputs (hot, so that logging and recording them does not change them) and the
    /// output pipeline over them.
    let make: (TestScheduler) -> (inputs: [(label: String, publisher: AnyPublisher<String, Never>)],
                                   output: AnyPublisher<String, any Error>)

    /// Plays the demo to the end on a fresh scheduler, calling `log` with each event as it
    /// happens (`+0.8s  output  c`), and returns the chart of what happened.
    func play(log: ((String) -> Void)? = nil) -> MarbleChart {
        let scheduler = TestScheduler()
        let (inputs, output) = make(scheduler)
        let labelWidth = (inputs.map(\.label) + ["output"]).map(\.count).max() ?? 0
        func logger(_ label: String) -> (String) -> Void {
            { text in
                let seconds = Double(scheduler.now.ticks) / 1e9
                log?(String(format: "+%.1fs  ", seconds) + label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + text)
            }
        }
        var subscriptions: [AnyCancellable] = []
        var recorders: [(String, RecordingSubscriber<String, Never>)] = []
        for input in inputs {
            let line = logger(input.label)
            input.publisher
                .sink(receiveCompletion: { _ in line("finished") }, receiveValue: { line($0) })
                .store(in: &subscriptions)
            recorders.append((input.label, scheduler.record(input.publisher)))
        }
        let line = logger("output")
        let outputRecorder = scheduler.record(
            output.handleEvents(
                receiveOutput: { line($0) },
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: line("finished")
                    case .failure(let error): line("failure(\(error))")
                    }
                }
            )
        )
        scheduler.advance(by: .seconds(60))
        scheduler.cancelAllScheduledActions()
        var chart = MarbleChart(title: title, frameDuration: frameDuration)
        for (label, recorder) in recorders { chart.add(label, recorder) }
        chart.add("output", outputRecorder)
        outputRecorder.cancel()
        subscriptions.removeAll()
        return chart
    }

    /// A demo over hot diagram inputs (one-character strings, or `values` where given).
    init(
        title: String,
        frameDuration: TestScheduler.SchedulerTimeType.Stride = .milliseconds(100),
        inputs: [(label: String, diagram: String)],
        values: [Character: String] = [:],
        output: @escaping ([AnyPublisher<String, Never>], TestScheduler) -> AnyPublisher<String, any Error>
    ) {
        self.title = title
        self.frameDuration = frameDuration
        make = { scheduler in
            let publishers = inputs.map { input in
                // The diagrams are literals of this file; a typo is a programming error.
                let values = values.merging(
                    input.diagram.filter { !"-|#()^ ".contains($0) }.map { ($0, String($0)) }
                ) { given, _ in given }
                return (try! scheduler.hotPublisher(input.diagram, values: values, frameDuration: frameDuration))
                    .eraseToAnyPublisher()
            }
            return (zip(inputs.map(\.label), publishers).map { ($0, $1) }, output(publishers, scheduler))
        }
    }

    /// A demo whose inputs are built by `make`.
    init(
        title: String,
        frameDuration: TestScheduler.SchedulerTimeType.Stride,
        make: @escaping (TestScheduler) -> (inputs: [(label: String, publisher: AnyPublisher<String, Never>)],
                                            output: AnyPublisher<String, any Error>)
    ) {
        self.title = title
        self.frameDuration = frameDuration
        self.make = make
    }

    /// An example that plays the demo, prints its event log and keeps the chart of that run for
    /// `--marbles`. The books print no such log: the demos are the catalogue's own.
    func example(_ slug: String, title: String, source: String, operators: [String]) -> Example {
        Example(slug, title: title, source: source, book: .notPrinted, operators: operators, drawsMarbles: true) { io in
            io.marbles.use(self.play(log: { io.print($0) }))
        }
    }
}

/// The error the `timeout` demo fails with.
struct TimedOut: Error, CustomStringConvertible {
    var description: String { "TimedOut" }
}

extension MarbleDemo {
    static var debounce: MarbleDemo { MarbleDemo(
        title: "debounce(for: .milliseconds(300), scheduler:)",
        inputs: [("input", "-a-b-c-------d-e----|")]
    ) { inputs, scheduler in
        inputs[0]
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .setFailureType(to: (any Error).self).eraseToAnyPublisher()
    } }

    static var throttle: MarbleDemo { MarbleDemo(
        title: "throttle(for: .milliseconds(400), scheduler:, latest: true)",
        inputs: [("input", "-ab-c-d----ef-----|")]
    ) { inputs, scheduler in
        inputs[0]
            .throttle(for: .milliseconds(400), scheduler: scheduler, latest: true)
            .setFailureType(to: (any Error).self).eraseToAnyPublisher()
    } }

    static var delay: MarbleDemo { MarbleDemo(
        title: "delay(for: .milliseconds(200), scheduler:)",
        inputs: [("input", "-a--b-c---|")]
    ) { inputs, scheduler in
        inputs[0]
            .delay(for: .milliseconds(200), scheduler: scheduler)
            .setFailureType(to: (any Error).self).eraseToAnyPublisher()
    } }

    static var timeout: MarbleDemo { MarbleDemo(
        title: "timeout(.milliseconds(500), scheduler:, customError:)",
        inputs: [("input", "-a--b--------c|")]
    ) { inputs, scheduler in
        inputs[0]
            .setFailureType(to: (any Error).self)
            .timeout(.milliseconds(500), scheduler: scheduler, customError: { TimedOut() })
            .eraseToAnyPublisher()
    } }

    static var merge: MarbleDemo { MarbleDemo(
        title: "merge(with:)",
        inputs: [("first", "-a---c---e-|"), ("second", "--b---d----|")]
    ) { inputs, _ in
        inputs[0].merge(with: inputs[1])
            .setFailureType(to: (any Error).self).eraseToAnyPublisher()
    } }

    static var switchToLatest: MarbleDemo { MarbleDemo(
        title: "map { inners[$0] }.switchToLatest()",
        inputs: [("outer", "-0----1------|"), ("inner 0", "a-b-c-d-e-|"), ("inner 1", "-p-q-r-s-t-u|")]
    ) { inputs, _ in
        inputs[0]
            .map { index in inputs[Int(index)! + 1] }
            .switchToLatest()
            .setFailureType(to: (any Error).self).eraseToAnyPublisher()
    } }

    static var collectByTime: MarbleDemo { MarbleDemo(
        title: "collect(.byTime(scheduler, .milliseconds(500)))",
        inputs: [("input", "-a-b-c--d----e-|")]
    ) { inputs, scheduler in
        inputs[0]
            .collect(.byTime(scheduler, .milliseconds(500)))
            .map { $0.joined() }
            .setFailureType(to: (any Error).self).eraseToAnyPublisher()
    } }

    /// Kodeco ch. 11's counter, `Timer.publish(every: 1.0, …).autoconnect().scan(0) { $0 + 1 }`,
    /// with the timer on virtual time and the first three counts taken.
    static var timer: MarbleDemo { MarbleDemo(title: "timer(every: 1 s).scan(0) { counter, _ in counter + 1 }.prefix(3)",
                                  frameDuration: .milliseconds(500)) { scheduler in
        let io = ExampleIO(write: { _ in })
        let ticks = ExampleContext(io: io, scheduler: scheduler).timer(every: .seconds(1))
            .prefix(3)
            .map { _ in "t" }
            .share()
            .eraseToAnyPublisher()
        let counter = ticks
            .scan(0) { counter, _ in counter + 1 }
            .prefix(3)
            .map { String($0) }
            .setFailureType(to: (any Error).self)
            .eraseToAnyPublisher()
        return ([("timer", ticks)], counter)
    } }
}

extension Catalogue {
    /// The marble demos, in the order the operators appear in *Using Combine*'s reference.
    static let marblesOrder: [String] = [
        "marbles-merge", "marbles-switch-to-latest", "marbles-collect-by-time",
        "marbles-debounce", "marbles-delay", "marbles-throttle", "marbles-timeout", "marbles-timer",
    ]

    static var marbles: [Example] { [
        MarbleDemo.merge.example(
            "marbles-merge", title: "merge",
            source: "Using Combine, reference: merge (marble diagram)", operators: ["merge"]),
        MarbleDemo.switchToLatest.example(
            "marbles-switch-to-latest", title: "switchToLatest",
            source: "Using Combine, reference: switchToLatest (marble diagram)", operators: ["switchToLatest"]),
        MarbleDemo.collectByTime.example(
            "marbles-collect-by-time", title: "collect(.byTime)",
            source: "Using Combine, reference: collect (marble diagram)", operators: ["collect(.byTime)"]),
        MarbleDemo.debounce.example(
            "marbles-debounce", title: "debounce",
            source: "Using Combine, reference: debounce (marble diagram)", operators: ["debounce"]),
        MarbleDemo.delay.example(
            "marbles-delay", title: "delay",
            source: "Using Combine, reference: delay (marble diagram)", operators: ["delay"]),
        MarbleDemo.throttle.example(
            "marbles-throttle", title: "throttle",
            source: "Using Combine, reference: throttle (marble diagram)", operators: ["throttle"]),
        MarbleDemo.timeout.example(
            "marbles-timeout", title: "timeout",
            source: "Using Combine, reference: timeout (marble diagram)", operators: ["timeout"]),
        MarbleDemo.timer.example(
            "marbles-timer", title: "Timer counter",
            source: "Kodeco ch. 11, Timer (marble diagram)", operators: ["Timer", "scan", "prefix"]),
    ] }
}

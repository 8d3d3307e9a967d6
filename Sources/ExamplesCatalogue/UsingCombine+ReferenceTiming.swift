import Combine
import Foundation

// "Using Combine", reference: controlling timing (debounce, delay, measureInterval, throttle,
// timeout) and the scheduler operators (receive, subscribe). Every example schedules on the
// scheduler it is handed, standing in for the book's `RunLoop.main` or `DispatchQueue(label:)`:
// the runner's virtual-time scheduler, from the command line as in the tests. Each line says when
// it happened, counted from the start of the example, and `--marbles` draws the inputs and output.

extension Catalogue {
    static var referenceTiming: [Example] { [
        Example(
            "ref-debounce",
            title: "debounce",
            source: "Using Combine, reference: debounce",
            book: .notPrinted,
            duration: 3,
            body: ReferenceDebounceDemo()
        ),
        Example(
            "ref-delay",
            title: "delay",
            source: "Using Combine, reference: delay",
            book: .notPrinted,
            duration: 3,
            body: ReferenceDelayDemo()
        ),
        Example(
            "ref-measure-interval",
            title: "measureInterval",
            source: "Using Combine, reference: measureInterval",
            book: .notPrinted,
            duration: 2,
            body: ReferenceMeasureIntervalDemo()
        ),
        Example(
            "ref-throttle",
            title: "throttle",
            source: "Using Combine, reference: throttle",
            book: .notPrinted(
                note: "The book's marble diagrams follow iOS 13.3's throttle; this is Apple's timing "
                    + "today: the first value after a quiet window goes out at once, then one value per "
                    + "0.5 s window."
            ),
            duration: 6,
            body: ReferenceThrottleDemo()
        ),
        Example(
            "ref-timeout",
            title: "timeout",
            source: "Using Combine, reference: timeout",
            book: .notPrinted(
                note: "The book says timeout needs a publisher that cannot fail and never fails itself; "
                    + "Apple's timeout takes any failure type, finishes when no customError is given, "
                    + "and fails with the customError when one is, as the second run shows."
            ),
            duration: 11,
            body: ReferenceTimeoutDemo()
        ),
        Example(
            "ref-receive-subscribe",
            title: "subscribe(on:) and receive(on:)",
            source: "Using Combine, reference: receive, subscribe",
            book: .notPrinted,
            duration: 0,
            body: ReferenceReceiveSubscribeDemo()
        ),
    ] }
}

/// Someone typing: six values, in three bursts, through `debounce(for: 0.5)`. Only the last
/// value of each burst comes out, half a second after the burst ends.
struct ReferenceDebounceDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let start = io.now()
        let typing = PassthroughSubject<String, Never>()
        typing
            .drawn("typing", on: io)
            .debounce(for: .seconds(0.5), scheduler: context.scheduler)
            .drawn("output", on: io, isOutput: true)
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion: \(completion) at \(context.referenceElapsed(since: start))")
                io.finish()
            }, receiveValue: { value in
                io.print(".sink() received \(value) at \(context.referenceElapsed(since: start))")
            })
            .store(in: &io.subscriptions)

        let script = [("h", 0.1), ("he", 0.2), ("hec", 0.3), ("heck", 1.0), ("heckj", 1.6), ("heck", 1.9)]
        for (value, time) in script {
            context.referenceAt(time) {
                io.print("sent \(value) at \(context.referenceElapsed(since: start))")
                typing.send(value)
            }
        }
        context.referenceAt(3) { typing.send(completion: .finished) }
    }
}

/// `.delay(for: 2.0, scheduler:)`: every value, and the completion, two seconds late.
struct ReferenceDelayDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let start = io.now()
        let heading = PassthroughSubject<Double, Never>()
        heading
            .drawn("heading", on: io)
            .delay(for: .seconds(2.0), scheduler: context.scheduler)
            .drawn("output", on: io, isOutput: true)
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion: \(completion) at \(context.referenceElapsed(since: start))")
                io.finish()
            }, receiveValue: { value in
                io.print(".sink() received \(value) at \(context.referenceElapsed(since: start))")
            })
            .store(in: &io.subscriptions)

        for (value, time) in [(10.0, 0.0), (20.0, 0.5)] {
            context.referenceAt(time) {
                io.print("sent \(value) at \(context.referenceElapsed(since: start))")
                heading.send(value)
            }
        }
        context.referenceAt(1) {
            io.print("sent .finished at \(context.referenceElapsed(since: start))")
            heading.send(completion: .finished)
        }
    }
}

/// `measureInterval(using:)`: the value is ignored, the time since the previous event (the
/// subscription, for the first value) is published as the scheduler's stride.
struct ReferenceMeasureIntervalDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let q = context.scheduler
        let events = PassthroughSubject<String, Never>()
        events
            .drawn("events", on: io)
            .measureInterval(using: q)
            .drawn("output", on: io, isOutput: true) { "\(context.referenceMilliseconds($0)) ms" }
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion: \(completion)")
                io.finish()
            }, receiveValue: { stride in
                io.print(".sink() received an interval of \(context.referenceMilliseconds(stride)) ms")
            })
            .store(in: &io.subscriptions)

        for (value, time) in [("a", 0.5), ("b", 1.5), ("c", 1.75)] {
            context.referenceAt(time) { events.send(value) }
        }
        context.referenceAt(2) { events.send(completion: .finished) }
    }
}

/// `throttle(for: 0.5, latest:)` over the same burst twice: `latest: true` publishes the last
/// value of each window, `latest: false` the first. The first value after a quiet window goes
/// out at once.
struct ReferenceThrottleDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let start = io.now()
        let script = [("a", 0.1), ("b", 0.2), ("c", 0.3), ("d", 0.7), ("e", 0.8), ("f", 2.0)]
        for (round, latest) in [(0.0, true), (3.0, false)] {
            let upstream = PassthroughSubject<String, Never>()
            context.referenceAt(round) {
                io.print("throttle(for: 0.5, latest: \(latest)):")
                upstream
                    .drawn("upstream (latest: \(latest))", on: io)
                    .throttle(for: .seconds(0.5), scheduler: context.scheduler, latest: latest)
                    .drawn("output (latest: \(latest))", on: io, isOutput: true)
                    .sink(receiveCompletion: { completion in
                        io.print(".sink() received the completion: \(completion) at \(context.referenceElapsed(since: start))")
                        if !latest { io.finish() }
                    }, receiveValue: { value in
                        io.print(".sink() received \(value) at \(context.referenceElapsed(since: start))")
                    })
                    .store(in: &io.subscriptions)
            }
            for (value, time) in script {
                context.referenceAt(round + time) {
                    io.print("sent \(value) at \(context.referenceElapsed(since: start))")
                    upstream.send(value)
                }
            }
            context.referenceAt(round + 2.6) { upstream.send(completion: .finished) }
        }
    }
}

/// The timeout entry: a request that fails every time, each failure reported two seconds late
/// (`delay(for: 2)`), retried up to five times, with `timeout(5)` ending the wait at five
/// seconds with `.finished`. Then the same upstream with a `customError`, which fails instead.
/// The book writes the intervals as literals (`2`, `5`); what a literal means is up to each
/// scheduler's stride type, so they are spelled `.seconds(_:)` here.
struct ReferenceTimeoutDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let start = io.now()
        let backgroundQueue = context.scheduler
        var attempt = 0
        let request = Deferred { () -> Fail<String, ReferenceError> in
            attempt += 1
            io.print("request attempt \(attempt) at \(context.referenceElapsed(since: start))")
            return Fail(error: .invalidServerResponse)
        }
        let remoteDataPublisher = request
            .drawn("request", on: io)
            .delay(for: .seconds(2), scheduler: backgroundQueue)
            .retry(5)  // 5 retries, 2 seconds each ~ 10 seconds for this to fall through
        remoteDataPublisher
            .timeout(.seconds(5), scheduler: backgroundQueue)  // max time of 5 seconds before failing
            .drawn("output", on: io, isOutput: true)
            .sink(receiveCompletion: { completion in
                io.print(".sink() received the completion: \(completion) at \(context.referenceElapsed(since: start))")
                attempt = 0
                context.referenceAt(0.5) {
                    io.print("with customError:")
                    remoteDataPublisher
                        .timeout(.seconds(5), scheduler: backgroundQueue, customError: { .exampleFailure })
                        .drawn("output with customError", on: io, isOutput: true)
                        .sink(receiveCompletion: { completion in
                            io.print(".sink() received the completion: \(completion) at \(context.referenceElapsed(since: start))")
                            io.finish()
                        }, receiveValue: { io.print(".sink() received \($0)") })
                        .store(in: &io.subscriptions)
                }
            }, receiveValue: { value in
                io.print(".sink() received \(value)")
            })
            .store(in: &io.subscriptions)
    }
}

/// `subscribe(on:)` and `receive(on:)` before `assign`: the subscription, and the publisher's
/// work, happen when the background scheduler gets to them, not during the `assign` call; the
/// values reach the label through the main scheduler. Both are the example's scheduler here.
struct ReferenceReceiveSubscribeDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let backgroundQueue = context.scheduler
        let yourLabel = ReferenceLabel(io: io)
        let networkDataPublisher = Deferred { () -> Just<String?> in
            io.print("networkDataPublisher subscribed")
            return Just("403 bytes")
        }
        networkDataPublisher
            .drawn("networkDataPublisher", on: io)
            .subscribe(on: backgroundQueue)
            .receive(on: context.scheduler)
            .drawn("output", on: io, isOutput: true)
            .handleEvents(receiveCompletion: { _ in
                context.scheduler.schedule { io.finish() }
            })
            .assign(to: \.text, on: yourLabel)
            .store(in: &io.subscriptions)
        io.print("assign(to:on:) returned")
    }
}

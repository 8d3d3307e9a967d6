import Combine
import Dispatch
import Foundation

// Kodeco ch. 10's debugger operators, ch. 17's RunLoop scheduler and ch. 17's challenge 2: the
// sections of the chapters that needed a run loop of the example's own, a pacing gate for
// virtual time, or (for breakpoints) a way to show what would stop without stopping.

/// Holds the page's `var threadRecorder: ThreadRecorder? = nil` across threads.
private final class RecorderSlot: @unchecked Sendable {
    // @unchecked: written once on the run-loop thread during setup, read after it.
    var recorder: ThreadRecorder?
}

/// Kodeco ch. 17, RunLoop: the chapter's one-second counting timer, values hopped to
/// `DispatchQueue.global()` and back with `receive(on: RunLoop.current)`, a record point after
/// each; a scheduled action cancels the recorder's subscription after 4.5 seconds, so four values
/// are shown.
///
/// The setup runs on the example's run-loop thread, so `RunLoop.current` is that thread's run
/// loop, as it is the main run loop in the book. The timer and the 4.5-second cancellation run
/// on the example's scheduler (virtual time), standing in for the main run loop's clock, and each
/// tick waits for its value to be shown (``DeliveryGate``): that is what makes "four values" hold
/// on every run, where the book warns a slow machine may show three.
///
/// With `subscribeOnGlobalQueue`, the page's comprehension challenge: `subscribe(on:
/// DispatchQueue.global())` in place of the first `receive(on:)`. The timer still emits on the
/// run loop's thread, so both record points show thread 1.
struct RunLoopRecording: ScheduledExampleBody {
    var subscribeOnGlobalQueue = false

    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let mainRunLoopThread = ExampleRunLoopThread(name: "RunLoop page", stoppingWith: io)
        let gate = DeliveryGate()
        let requested = DispatchSemaphore(value: 0)
        // The book's `Timer.publish(every: 1.0, on: .main, in: .common)`: it emits on the
        // (stand-in) main run loop's thread.
        let source = context.pacedTimer(
            every: .seconds(1), gate: gate, emittingOn: mainRunLoopThread.runLoop,
            started: { requested.signal() }
        )
        .scan(0) { counter, _ in counter + 1 }
        .drawn("timer", on: io)

        let threadRecorder = RecorderSlot()

        let setupPublisher = { (recorder: ThreadRecorder) -> AnyPublisher<ThreadTrail, Never> in
            if subscribeOnGlobalQueue {
                return source
                    .subscribe(on: DispatchQueue.global())
                    .recordThread(using: recorder)
                    .receive(on: RunLoop.current)
                    .recordThread(using: recorder)
                    .handleEvents(receiveSubscription: { _ in threadRecorder.recorder = recorder })
                    .eraseToAnyPublisher()
            }
            return source
                .receive(on: DispatchQueue.global())
                .recordThread(using: recorder)
                .receive(on: RunLoop.current)
                .recordThread(using: recorder)
                .handleEvents(receiveSubscription: { _ in threadRecorder.recorder = recorder })
                .eraseToAnyPublisher()
        }

        // What the book's ThreadRecorderView does on the main thread: build the pipeline and
        // subscribe, here on the run loop's own thread.
        let recorder = ThreadRecorder(io: io, threads: ThreadNumbers(mainStandIn: mainRunLoopThread))
        mainRunLoopThread.sync {
            recorder.subscription = setupPublisher(recorder)
                .drawn("shown", on: io, isOutput: true) { "\($0.value)" }
                .sink { trail in
                    recorder.show(trail)
                    gate.signal()
                }
        }
        // With subscribe(on:), the subscription and the demand reach the timer later, from a
        // global-queue thread; the clock must not start before the timer has started.
        _ = requested.wait(timeout: .now() + 5)

        let runLoop = context.scheduler
        runLoop.schedule(
            after: runLoop.now.advanced(by: .milliseconds(4500)),
            tolerance: .milliseconds(500)
        ) {
            threadRecorder.recorder?.subscription?.cancel()
            io.finish()
        }
    }
}

/// Kodeco ch. 17, challenge 2: the DispatchQueue page with the timer firing on the serial queue
/// (`sourceQueue = serialQueue`), a second serial queue targeting the first, and a record point
/// after each `receive(on:)`; stopped after four seconds as in challenge 1.
///
/// The timer ticks on the example's scheduler (virtual time) and each tick sends on the serial
/// queue, as the book's timer scheduled on that queue does; each tick waits for its value to be
/// shown (``DeliveryGate``) so that four values are shown on every run.
struct TargetQueueRecording: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let recorder = ThreadRecorder(io: io, threads: ThreadNumbers())
        let serialQueue = DispatchQueue(label: "Serial queue")
        let secondQueue = DispatchQueue(label: "Second queue", target: serialQueue)
        let timerQueue = context.scheduler
        let gate = DeliveryGate()

        let source = PassthroughSubject<Void, Never>()

        let subscription = timerQueue.schedule(after: timerQueue.now, interval: .seconds(1)) {
            serialQueue.async { source.send() }
            gate.waitForDelivery()
        }

        source
            .scan(0) { counter, _ in counter + 1 }
            .drawn("source", on: io)
            .recordThread(using: recorder)
            .receive(on: serialQueue)
            .recordThread(using: recorder)
            .receive(on: secondQueue)
            .recordThread(using: recorder)
            .drawn("shown", on: io, isOutput: true) { "\($0.value)" }
            .sink { trail in
                recorder.show(trail)
                gate.signal()
            }
            .store(in: &io.subscriptions)

        timerQueue.schedule(after: timerQueue.now.advanced(by: .seconds(4))) {
            subscription.cancel()
            io.finish()
        }
        io.whenFinished { subscription.cancel() }
    }
}

extension Catalogue {
    static var kodecoRemaining: [Example] { [
        Example(
            "breakpoint-debugger",
            title: "breakpoint",
            source: "Kodeco ch. 10, using the debugger operators as a last resort",
            book: .notPrinted,
            operators: ["breakpoint", "breakpointOnError", "SIGTRAP"]
        ) { io in
            // The chapter's predicate: values 11 to 14 should never happen, so stop if one does.
            let unexpected = { (value: Int) -> Bool in
                return value > 10 && value < 15
            }
            // A true predicate (or any failure reaching breakpointOnError) raises SIGTRAP: the
            // debugger stops there, and a process without one ends. So the example sends only
            // values that pass, and prints the predicate's verdict beside each.
            let stoppers = (1...20).filter(unexpected).map(String.init).joined(separator: ", ")
            io.print("Would stop the debugger (SIGTRAP), so not sent: \(stoppers)")
            [5, 10, 15, 20].publisher
                .setFailureType(to: URLError.self)
                .breakpoint(receiveOutput: { value in
                    return unexpected(value)
                })
                .breakpointOnError()
                .sink(receiveCompletion: { completion in
                    io.print("Completed with \(completion); breakpointOnError stops only on a failure")
                }, receiveValue: { value in
                    io.print("Received \(value), breakpoint predicate: \(unexpected(value))")
                })
                .store(in: &io.subscriptions)
        },

        Example(
            "run-loop-scheduler",
            title: "RunLoop",
            source: "Kodeco ch. 17, RunLoop scheduler, with scheduling a cancellation on it",
            book: .notPrinted(note: BookNote.threadsByRow + " " + BookNote.runLoopStandIn),
            asynchronousBody: RunLoopRecording(),
            operators: ["RunLoop", "receive(on:)", "schedule", "DispatchQueue", "handleEvents"]
        ),

        Example(
            "run-loop-subscribe-on",
            title: "RunLoop",
            source: "Kodeco ch. 17, RunLoop scheduler: subscribe(on: DispatchQueue.global()) instead (comprehension challenge)",
            book: .notPrinted(
                note: "Thread 1 is a run loop on a thread of the example's own, standing in for the "
                    + "main run loop, which a command-line or test process does not turn."
            ),
            asynchronousBody: RunLoopRecording(subscribeOnGlobalQueue: true),
            operators: ["RunLoop", "subscribe(on:)", "receive(on:)", "schedule", "DispatchQueue"]
        ),

        Example(
            "target-queue-challenge",
            title: "DispatchQueue",
            source: "Kodeco ch. 17, challenge 2: a second serial queue targeting the first",
            book: .notPrinted(note: BookNote.threadsByRow),
            asynchronousBody: TargetQueueRecording(),
            operators: ["DispatchQueue", "receive(on:)", "target"]
        ),
    ] }
}

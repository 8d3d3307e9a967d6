import Combine
import Dispatch
import Foundation

/// A Foundation thread of the example's own whose run loop keeps turning until the example
/// finishes: the stand-in for the playground's main run loop, which a test process never runs
/// (it parks its main thread in Dispatch). Work handed to ``runLoop`` (with `receive(on:)`, a
/// timer, `schedule`) runs on ``thread``.
final class ExampleRunLoopThread: @unchecked Sendable {
    // @unchecked: `thread` and `runLoop` are set once in `init` and never change; the stop flag
    // is only touched under its lock.

    /// The thread turning the run loop.
    let thread: Thread
    /// The thread's run loop.
    let runLoop: RunLoop

    /// Starts a thread named `name` turning its run loop, and stops it once `io` finishes.
    init(name: String, stoppingWith io: ExampleIO) {
        let state = RunLoopThreadState()
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            let runLoop = RunLoop.current
            // A run loop with nothing to wait for returns from `run(mode:before:)` at once; this
            // timer gives it something, so the loop below sleeps between turns instead of spinning.
            let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
            runLoop.add(keepAlive, forMode: .default)
            state.publish(runLoop)
            started.signal()
            while !state.isStopped {
                _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
            }
            keepAlive.invalidate()
        }
        thread.name = name
        thread.start()
        started.wait()
        self.thread = thread
        self.runLoop = state.runLoop!
        io.whenFinished { state.stop() }
    }

    /// Whether the caller is running on ``thread``.
    var isCurrent: Bool { Thread.current == thread }

    /// Runs `work` on the run loop's thread and returns once it has run.
    func sync(_ work: @escaping () -> Void) {
        let done = DispatchSemaphore(value: 0)
        runLoop.schedule {
            work()
            done.signal()
        }
        done.wait()
    }
}

/// What the run-loop thread shares with its creator: its run loop once it has one, and whether
/// it should stop.
private final class RunLoopThreadState: @unchecked Sendable {
    // @unchecked: both properties are only touched under `lock`.
    private let lock = NSLock()
    private var loop: RunLoop?
    private var stopped = false

    var runLoop: RunLoop? { lock.withLock { loop } }
    var isStopped: Bool { lock.withLock { stopped } }

    func publish(_ runLoop: RunLoop) { lock.withLock { loop = runLoop } }
    func stop() { lock.withLock { stopped = true } }
}

/// Lets a virtual-time tick wait until the value it sent has come out of the pipeline's hops to
/// other threads. On real time the second between two ticks leaves each value ample time to
/// arrive; on virtual time the clock would jump to the next tick (or to the cancellation) while
/// a value is still on its way, so each tick waits for its value instead.
final class DeliveryGate: Sendable {
    private let delivered = DispatchSemaphore(value: 0)

    /// Called where the value arrives.
    func signal() { delivered.signal() }

    /// Called by the tick after sending; gives up after five seconds so that a lost value shows
    /// as a wrong output rather than a hang.
    func waitForDelivery() { _ = delivered.wait(timeout: .now() + 5) }
}

extension ExampleContext {
    /// ``timer(every:)`` whose every tick waits, through `gate`, for the value it sent to be
    /// delivered downstream before the clock may move on. With `runLoop`, each tick sends from
    /// that run loop's thread, as a `Timer` added to that run loop does.
    func pacedTimer(
        every interval: S.SchedulerTimeType.Stride,
        gate: DeliveryGate,
        emittingOn runLoop: RunLoop? = nil
    ) -> AnyPublisher<Date, Never> {
        let subject = PassthroughSubject<Date, Never>()
        let scheduler = self.scheduler
        let io = self.io
        return Deferred { () -> AnyPublisher<Date, Never> in
            let repeating = scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                interval: interval
            ) {
                let date = io.now()
                if let runLoop {
                    runLoop.schedule { subject.send(date) }
                } else {
                    subject.send(date)
                }
                gate.waitForDelivery()
            }
            return subject
                .handleEvents(receiveCancel: { repeating.cancel() })
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}

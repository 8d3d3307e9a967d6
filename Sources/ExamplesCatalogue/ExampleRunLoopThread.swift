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
    /// A repeating tick every `interval` on the example's scheduler, like ``timer(every:)``, whose
    /// every tick waits, through `gate`, for the value it sent to be delivered downstream before
    /// the clock may move on. With `runLoop`, each tick is sent from that run loop's thread, as a
    /// `Timer` added to that run loop sends. The ticks start when the first demand arrives, and
    /// `started` is then called (from whatever thread the demand came on).
    func pacedTimer(
        every interval: S.SchedulerTimeType.Stride,
        gate: DeliveryGate,
        emittingOn runLoop: RunLoop? = nil,
        started: (@Sendable () -> Void)? = nil
    ) -> AnyPublisher<Date, Never> {
        PacedTimer(scheduler: scheduler, interval: interval, io: io, gate: gate, runLoop: runLoop, started: started)
            .eraseToAnyPublisher()
    }
}

/// The publisher behind ``ExampleContext/pacedTimer(every:gate:emittingOn:started:)``. Like
/// Foundation's `Timer` publisher, it drops a tick that finds no demand.
private struct PacedTimer<S: Scheduler>: Publisher {
    typealias Output = Date
    typealias Failure = Never

    let scheduler: S
    let interval: S.SchedulerTimeType.Stride
    let io: ExampleIO
    let gate: DeliveryGate
    let runLoop: RunLoop?
    let started: (@Sendable () -> Void)?

    func receive<Downstream: Subscriber>(subscriber: Downstream) where Downstream.Input == Date, Downstream.Failure == Never {
        subscriber.receive(subscription: Ticks(downstream: subscriber, timer: self))
    }

    private final class Ticks<Downstream: Subscriber>: Subscription, @unchecked Sendable
    where Downstream.Input == Date, Downstream.Failure == Never {
        // @unchecked: the mutable state is only touched under `lock`, and never while calling
        // downstream or the scheduler.
        private let lock = NSLock()
        private var downstream: Downstream?
        private var demand = Subscribers.Demand.none
        private var isStarted = false
        private var repeating: (any Cancellable)?
        private let timer: PacedTimer

        init(downstream: Downstream, timer: PacedTimer) {
            self.downstream = downstream
            self.timer = timer
        }

        func request(_ additional: Subscribers.Demand) {
            let start: Bool = lock.withLock {
                guard downstream != nil else { return false }
                demand += additional
                defer { isStarted = true }
                return !isStarted
            }
            guard start else { return }
            let scheduler = timer.scheduler
            let repeating = scheduler.schedule(
                after: scheduler.now.advanced(by: timer.interval),
                interval: timer.interval
            ) { [weak self] in
                self?.tick()
            }
            let cancelledMeanwhile: Bool = lock.withLock {
                guard downstream != nil else { return true }
                self.repeating = repeating
                return false
            }
            if cancelledMeanwhile { repeating.cancel() }
            timer.started?()
        }

        private func tick() {
            let date = timer.io.now()
            let send = { [self] in
                let receiver: Downstream? = lock.withLock {
                    guard let downstream, demand > .none else { return nil }
                    demand -= 1
                    return downstream
                }
                guard let receiver else { return }
                let more = receiver.receive(date)
                lock.withLock { demand += more }
            }
            if let runLoop = timer.runLoop {
                runLoop.schedule(send)
            } else {
                send()
            }
            timer.gate.waitForDelivery()
        }

        func cancel() {
            let repeating: (any Cancellable)? = lock.withLock {
                downstream = nil
                defer { self.repeating = nil }
                return self.repeating
            }
            repeating?.cancel()
        }
    }
}

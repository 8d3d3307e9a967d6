import Combine
import CombineTesting
import Dispatch
import Foundation

/// Runs catalogue examples for the `examples` command and for the tests, the same way in both.
///
/// Every example gets a ``TestScheduler`` as its scheduler, so the books' timers, delays and
/// debounces run on virtual time: a run that takes six seconds in a playground prints the same
/// lines in a few microseconds, in the same order, as the clock jumps from one due action to the
/// next. The clock an example reads (``ExampleIO/now``) is that virtual clock, starting at the
/// book's first printed date, 2021-08-21 12:43:32 UTC (for an asynchronous example, plus the real
/// time elapsed since it started).
///
/// Examples whose subject is real concurrency (a URL session, an operation queue, a dispatch
/// timer) are ``Example/Timing/asynchronous``: the runner waits on real time for them to call
/// ``ExampleIO/finish()``, and still runs any virtual delays they schedule as soon as they are
/// due.
public enum ExampleRunner {
    /// The virtual clock's starting date: the first date the books' timer examples print.
    public static let virtualOrigin = Date(timeIntervalSince1970: 1_629_549_812)

    /// How far the virtual clock may run before an example that never finishes is given up
    /// (an hour of book time; the longest example needs half a minute).
    public static let virtualTimeLimit: TestScheduler.SchedulerTimeType.Stride = .seconds(3600)

    /// One run of one example: its IO, its virtual scheduler, and the steps that drive them.
    public final class Run: @unchecked Sendable {
        // @unchecked: every stored property is a constant; the scheduler and the IO are safe to
        // use from any thread, and the example is only read.
        /// The example being run.
        public let example: Example
        /// The virtual clock the example's timers run on.
        public let scheduler: TestScheduler
        /// Where the example writes.
        public let io: ExampleIO

        /// Prepares a run of `example` writing through `write`; nothing runs until ``start()``.
        public init(_ example: Example, write: @escaping (String) -> Void) {
            self.example = example
            let scheduler = TestScheduler()
            self.scheduler = scheduler
            let virtualNow = { ExampleRunner.virtualOrigin.addingTimeInterval(Double(scheduler.now.ticks) / 1e9) }
            // The marble chart of an example on a scheduler reads the virtual clock alone; an
            // immediate example's chart counts events instead.
            let virtualTime: (() -> Int)? = example.usesScheduler ? { Int(scheduler.now.ticks) } : nil
            if example.timing == .asynchronous {
                // Real work takes real time: the clock also moves with the wall clock.
                let start = Date()
                self.io = ExampleIO(
                    now: { virtualNow().addingTimeInterval(Date().timeIntervalSince(start)) },
                    virtualTime: virtualTime,
                    write: write
                )
            } else {
                self.io = ExampleIO(now: virtualNow, virtualTime: virtualTime, write: write)
            }
        }

        /// The marble chart of this run, if the example marked streams to draw (or drew its own).
        public var marbleChart: MarbleChart? {
            io.marbles.chart(title: example.title)
        }

        /// Runs the example's body (it prints its header and whatever it prints at once).
        public func start() {
            example.run(io: io, scheduler: scheduler)
        }

        /// Moves the virtual clock to the next due action and runs everything due then. Returns
        /// `false` when there was nothing to run (or the clock reached ``virtualTimeLimit``).
        @discardableResult
        public func advanceVirtualTime() -> Bool {
            guard !io.isFinished, let next = scheduler.nextActionDate,
                  TestScheduler.SchedulerTimeType(ticks: 0).distance(to: next) <= virtualTimeLimit
            else { return false }
            scheduler.advance(to: next)
            return true
        }

        /// Runs the virtual clock until the example finishes or nothing is left to run.
        public func runVirtualTime() {
            while advanceVirtualTime() {}
        }

        /// Ends the run: releases the example's subscriptions, drops any timer still armed and
        /// prints the example's note on how its output differs from the book's, if it has one.
        /// Returns whether the example had finished on its own.
        @discardableResult
        public func end() -> Bool {
            let finished = io.isFinished
            io.finish()
            scheduler.cancelAllScheduledActions()
            if let note = example.noteText {
                if !io.isAtLineStart { io.write("\n") }
                io.write(note)
            }
            return finished
        }
    }

    /// What a run of one example came to.
    public struct Outcome {
        /// Whether the example finished on its own (an asynchronous one, before the timeout).
        public let finished: Bool
        /// The marble chart of the run, if the example draws one.
        public let marbleChart: MarbleChart?
    }

    /// Runs `example` to the end and returns whether it finished, with its marble chart; its
    /// output goes to `write` as it is printed.
    ///
    /// Immediate and scheduled examples run entirely on virtual time and return at once. An
    /// asynchronous example is waited for, up to `timeout` seconds of real time; on the main
    /// thread the main run loop is kept running meanwhile (it also drains the main queue).
    @discardableResult
    public static func run(
        _ example: Example,
        timeout: TimeInterval = 30,
        write: @escaping (String) -> Void
    ) -> Outcome {
        let run = Run(example, write: write)
        run.start()
        run.runVirtualTime()
        if example.timing == .asynchronous {
            let deadline = Date().addingTimeInterval(timeout)
            while !run.io.isFinished, Date() < deadline {
                if run.advanceVirtualTime() { continue }
                if Thread.isMainThread {
                    _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002))
                } else {
                    usleep(2_000)
                }
            }
        }
        return Outcome(finished: run.end(), marbleChart: run.marbleChart)
    }

    /// The `async` form of ``run(_:timeout:write:)`` for tests: like the command, it runs the
    /// example (and its virtual time) on the main queue, so "the main thread" means the same in
    /// both; an asynchronous example is awaited with `Task.sleep` between checks.
    ///
    /// The checks run on the concurrency pool, which other tests running at the same time can
    /// keep busy for seconds; so once the time is up the virtual clock is run one last time, and
    /// an example whose last step was only waiting for its turn still finishes.
    @discardableResult
    public static func run(
        _ example: Example,
        timeout: Duration = .seconds(30),
        write: @escaping (String) -> Void
    ) async -> Outcome {
        let run = Run(example, write: write)
        DispatchQueue.main.sync {
            run.start()
            run.runVirtualTime()
        }
        if example.timing == .asynchronous {
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            while !run.io.isFinished, clock.now < deadline {
                if DispatchQueue.main.sync(execute: { run.advanceVirtualTime() }) { continue }
                try? await Task.sleep(for: .milliseconds(2))
            }
            DispatchQueue.main.sync { run.runVirtualTime() }
        }
        return Outcome(finished: run.end(), marbleChart: run.marbleChart)
    }
}

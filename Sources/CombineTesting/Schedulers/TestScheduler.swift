import Combine
import Foundation

/// A scheduler whose clock only moves when the test says so.
///
/// Time-based operators (`debounce`, `throttle`, `delay`, `timeout`, `collect(.byTime)`…) become
/// deterministic and instant to test: schedule work through this scheduler, then move its virtual
/// clock with ``advance(by:)``, ``advance(to:)`` or
/// ``run()``. Nothing runs until the clock is moved, and nothing ever sleeps.
///
/// ```swift
/// let scheduler = TestScheduler()
/// var fired: [Int] = []
/// scheduler.schedule(after: scheduler.now.advanced(by: 3)) { fired.append(scheduler.now.ticks) }
/// scheduler.advance(by: 2)   // fired == []
/// scheduler.advance(by: 1)   // fired == [3]
/// ```
///
/// ## Time
/// The clock counts ticks (see ``SchedulerTimeType``); one tick is one nanosecond, so
/// `.milliseconds(5)` and `.ticks(5)` both work as strides. The clock starts at tick 0 unless
/// you pass another start to ``init(now:)``.
///
/// ## Ordering
/// Actions run in due-time order. Actions due at the same instant run in the order they were
/// scheduled, and an action scheduled (by anyone, including a running action) for an instant
/// that has already been reached runs at the current instant after everything already due then,
/// within the same call to `advance`. The clock never moves backwards: work scheduled for a past
/// instant runs at the current one.
///
/// ``schedule(options:_:)`` does not run its action on the spot: like a queue, it enqueues the
/// action for the current instant, and the next `advance` (even `advance(by: 0)`) runs it.
///
/// ## Threads
/// Every method may be called from any thread. Actions run on the thread (and task) that moves
/// the clock, one at a time and never while the scheduler's lock is held, so an action may
/// schedule more work, cancel work or read ``now``. Moving the clock from two threads at once is
/// allowed but makes the interleaving of their actions unspecified; a test normally drives the
/// clock from one place.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    /// A test scheduler takes no per-action options.
    public typealias SchedulerOptions = Never

    let queue: VirtualTimeQueue<SchedulerTimeType>

    /// Creates a scheduler whose virtual clock reads `now` (tick 0 by default).
    public init(now: SchedulerTimeType = 0) {
        queue = VirtualTimeQueue(now: now)
    }

    /// The current virtual time; it changes only when the clock is advanced.
    public var now: SchedulerTimeType { queue.now }

    /// Zero: virtual time is exact, so tolerances are accepted and ignored.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Enqueues `action` for the current instant; it runs on the next advance of the clock.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        queue.enqueue(due: nil, interval: nil, action)
    }

    /// Enqueues `action` to run when the clock reaches `date` (or the current instant, if `date`
    /// has passed). `tolerance` is ignored: virtual time is exact.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        queue.enqueue(due: date, interval: nil, action)
    }

    /// Enqueues `action` to run at `date` and then every `interval` after the previous due time,
    /// until the returned value is cancelled (or ``cancelAllScheduledActions()`` is called).
    ///
    /// Each repetition is re-queued just before it runs, so it takes its place behind actions
    /// already due at its next instant; cancelling from inside the action stops the repetitions.
    /// - Precondition: `interval` is positive (a zero interval would repeat forever at one instant).
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        queue.enqueueRepeating(due: date, interval: interval, caller: "TestScheduler.schedule(after:interval:…)", action)
    }

    /// The number of actions waiting to run (a repeating action counts once).
    public var pendingActionCount: Int { queue.pendingCount }

    /// When the next waiting action is due, or `nil` when nothing is scheduled.
    public var nextActionDate: SchedulerTimeType? { queue.nextDue }

    /// Drops every waiting action, one-shot and repeating, without running it.
    ///
    /// One-shot actions have no `Cancellable` in the `Scheduler` API; this is the way to discard
    /// them (for example at the end of a test that leaves timers armed).
    public func cancelAllScheduledActions() {
        queue.cancelAll()
    }

    /// Moves the clock forward by `stride`, running every action due up to and including the new
    /// instant, in order, on the calling thread; then leaves the clock at `now + stride`.
    ///
    /// `advance()` (a zero stride) runs only the work due at the current instant.
    public func advance(by stride: SchedulerTimeType.Stride = 0) {
        queue.run(until: queue.now.advanced(by: stride), caller: "TestScheduler.advance(by:)")
    }

    /// Moves the clock to `instant`, running every action due up to and including it, in order.
    /// An instant in the past runs the work due now and leaves the clock where it is.
    public func advance(to instant: SchedulerTimeType) {
        queue.run(until: instant, caller: "TestScheduler.advance(to:)")
    }

    /// Runs every scheduled action, moving the clock to each action's due time, until nothing is
    /// left. Traps (with a message) after a million actions, which means a repeating action is
    /// still armed: cancel it or advance by a bounded amount instead.
    public func run() {
        queue.run(until: nil, caller: "TestScheduler.run()")
    }

    /// The `async` form of ``advance(by:)``, for async tests.
    ///
    /// It is exactly as deterministic as the synchronous form: it never suspends, it runs every
    /// due action synchronously on the calling task, in order, isolated to the caller's actor
    /// (`isolation` defaults to it), and returns when the clock has reached `now + stride`.
    /// Nothing is left to other tasks and nothing "yields and hopes". Work that *other* tasks
    /// schedule is seen only if it was scheduled before the call; to observe what an action hands
    /// to another task, await that task's result (for example the next element of
    /// `publisher.values`) rather than advancing again.
    public func advance(
        by stride: SchedulerTimeType.Stride = 0,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        queue.run(until: queue.now.advanced(by: stride), caller: "TestScheduler.advance(by:)")
    }

    /// The `async` form of ``advance(to:)``; deterministic in the same way as
    /// ``advance(by:isolation:)``: actions run synchronously on the calling task, nothing suspends.
    public func advance(
        to instant: SchedulerTimeType,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        queue.run(until: instant, caller: "TestScheduler.advance(to:)")
    }

    /// The `async` form of ``run()``; deterministic in the same way as ``advance(by:isolation:)``.
    public func run(isolation: isolated (any Actor)? = #isolation) async {
        queue.run(until: nil, caller: "TestScheduler.run()")
    }
}

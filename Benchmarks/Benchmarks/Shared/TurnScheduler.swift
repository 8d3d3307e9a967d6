// Row 9c: the scheduler Tributary's `publisher(for:on:)` reads the model on, in `TributaryBench`
// and `TributaryProfile`.

import Combine

/// A scheduler that keeps the actions it is given until `drain()` runs them, as a run loop runs
/// what was scheduled during its turn at the next one: the bridge's read after each change, with
/// no thread in between to blur the measurement.
final class TurnScheduler: Scheduler {
    typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
    typealias SchedulerOptions = ImmediateScheduler.SchedulerOptions

    /// A closure kept in a struct is stored as it is; kept in an array of closures it would be
    /// wrapped in a reabstraction thunk, an allocation per action that belongs to no scheduler.
    private struct Action {
        let run: () -> Void
    }

    private var pending: [Action] = []
    private var running: [Action] = []

    init() {
        pending.reserveCapacity(4)
        running.reserveCapacity(4)
    }

    var now: SchedulerTimeType { ImmediateScheduler.shared.now }
    var minimumTolerance: SchedulerTimeType.Stride { ImmediateScheduler.shared.minimumTolerance }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        pending.append(Action(run: action))
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        pending.append(Action(run: action))
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        pending.append(Action(run: action))
        return AnyCancellable {}
    }

    /// Runs what was scheduled, and what that schedules, until nothing is left.
    func drain() {
        while !pending.isEmpty {
            swap(&pending, &running)
            for action in running { action.run() }
            running.removeAll(keepingCapacity: true)
        }
    }
}

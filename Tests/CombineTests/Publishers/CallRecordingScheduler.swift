import Combine
import CombineTesting
import Foundation
import TestSupport

/// A virtual-time scheduler that writes down every call an operator makes on it, in the notation
/// of the edge-behaviour notes: `now`, `minTol`, `sched`, `schedAfter(t, tol)`,
/// `schedEvery(t, i, tol)`, and for the tokens of repeating actions `token#n.cancel` and
/// `token#n released`. It runs the actions on a ``TestScheduler`` that the test advances.
///
/// `minimumTolerance` is `tolerance` (7 unless told), so that the tolerance an operator passes on
/// can be told apart from a default.
final class CallRecordingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    /// The scheduler that keeps the time and runs the actions.
    let clock = TestScheduler()
    private let lock = NSLock()
    private var _calls: [String] = []
    private var tokens = 0
    private let tolerance: SchedulerTimeType.Stride

    init(tolerance: SchedulerTimeType.Stride = 7) {
        self.tolerance = tolerance
    }

    /// The calls so far, oldest first.
    var calls: [String] { lock.withLock { _calls } }

    /// Forgets the calls recorded so far.
    func clearCalls() { lock.withLock { _calls = [] } }

    fileprivate func record(_ call: String) { lock.withLock { _calls.append(call) } }

    var now: SchedulerTimeType {
        record("now")
        return clock.now
    }

    var minimumTolerance: SchedulerTimeType.Stride {
        record("minTol")
        return tolerance
    }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        record("sched")
        clock.schedule(action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        record("schedAfter(\(date.ticks), \(tolerance.ticks))")
        clock.schedule(after: date, tolerance: tolerance, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let id = lock.withLock { () -> Int in
            tokens += 1
            _calls.append("schedEvery(\(date.ticks), \(interval.ticks), \(tolerance.ticks)) -> token#\(tokens)")
            return tokens
        }
        return Token(id: id, scheduler: self, inner: clock.schedule(after: date, interval: interval, tolerance: tolerance, action))
    }

    private final class Token: Cancellable {
        let id: Int
        weak var scheduler: CallRecordingScheduler?
        let inner: any Cancellable

        init(id: Int, scheduler: CallRecordingScheduler, inner: any Cancellable) {
            self.id = id
            self.scheduler = scheduler
            self.inner = inner
        }

        func cancel() {
            scheduler?.record("token#\(id).cancel")
            inner.cancel()
        }

        deinit { scheduler?.record("token#\(id) released") }
    }
}

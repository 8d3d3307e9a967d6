import Combine
import Dispatch
import Foundation

/// Runs catalogue examples on real time, for the `examples` command.
public enum ExampleRunner {
    /// Runs `example` with its timers on the main queue, writing its output through `write`, and
    /// waits (running the main run loop, which also drains the main queue) until it finishes or
    /// `timeout` seconds pass. Returns whether it finished.
    @discardableResult
    public static func runOnRealTime(
        _ example: Example,
        timeout: TimeInterval = 30,
        write: @escaping (String) -> Void
    ) -> Bool {
        let io = ExampleIO(write: write)
        example.run(io: io, scheduler: MainQueueScheduler())
        let deadline = Date().addingTimeInterval(timeout)
        while !io.isFinished, Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        let finished = io.isFinished
        io.finish()
        return finished
    }
}

/// The main dispatch queue as a scheduler, on real (uptime) time: what the books' playgrounds
/// use for their delays and timers.
///
/// The catalogue keeps this small scheduler of its own so the `examples` command does not depend
/// on which Foundation scheduler conformances the library provides.
struct MainQueueScheduler: Scheduler {
    /// A point on the uptime clock, in nanoseconds.
    struct SchedulerTimeType: Strideable, Hashable {
        let uptimeNanoseconds: UInt64

        func distance(to other: Self) -> Stride {
            Stride(Int64(bitPattern: other.uptimeNanoseconds &- uptimeNanoseconds))
        }

        func advanced(by n: Stride) -> Self {
            Self(uptimeNanoseconds: UInt64(max(0, Int64(uptimeNanoseconds) + n.nanoseconds)))
        }

        /// A signed span of nanoseconds.
        struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable {
            var nanoseconds: Int64

            init(_ nanoseconds: Int64) { self.nanoseconds = nanoseconds }
            init(integerLiteral value: Int64) { nanoseconds = value * 1_000_000_000 }
            init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int64(exactly: source) else { return nil }
                nanoseconds = value * 1_000_000_000
            }

            var magnitude: UInt64 { nanoseconds.magnitude }

            static func seconds(_ s: Int) -> Self { Self(Int64(s) * 1_000_000_000) }
            static func seconds(_ s: Double) -> Self { Self(Int64(s * 1e9)) }
            static func milliseconds(_ ms: Int) -> Self { Self(Int64(ms) * 1_000_000) }
            static func microseconds(_ us: Int) -> Self { Self(Int64(us) * 1_000) }
            static func nanoseconds(_ ns: Int) -> Self { Self(Int64(ns)) }

            static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
            static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.nanoseconds + rhs.nanoseconds) }
            static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.nanoseconds - rhs.nanoseconds) }
            static func * (lhs: Self, rhs: Self) -> Self {
                Self(lhs.nanoseconds * rhs.nanoseconds / 1_000_000_000)
            }
            static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
            static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
            static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
        }
    }

    typealias SchedulerOptions = Never

    var now: SchedulerTimeType { SchedulerTimeType(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds) }
    var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        DispatchQueue.main.async { work.run() }
    }

    func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = UncheckedAction(action)
        DispatchQueue.main.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: date.uptimeNanoseconds)) {
            work.run()
        }
    }

    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let work = UncheckedAction(action)
        timer.schedule(
            deadline: DispatchTime(uptimeNanoseconds: date.uptimeNanoseconds),
            repeating: .nanoseconds(Int(max(interval.nanoseconds, 1)))
        )
        timer.setEventHandler { work.run() }
        timer.activate()
        return AnyCancellable { timer.cancel() }
    }

    /// An action handed to Dispatch. Combine's scheduler actions are not `@Sendable`; these run
    /// on the main queue only, serially, which is the example's single context.
    private struct UncheckedAction: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}

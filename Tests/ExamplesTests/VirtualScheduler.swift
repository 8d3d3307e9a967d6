import Combine
import Foundation

/// A virtual-time scheduler for running the catalogue's timed examples instantly and
/// deterministically: nothing happens until ``run()`` advances the clock, and actions due at the
/// same instant run in the order they were scheduled.
final class VirtualScheduler: Scheduler {
    /// Virtual time in nanoseconds since the scheduler was created.
    struct SchedulerTimeType: Strideable, Hashable {
        var nanoseconds: Int

        func distance(to other: Self) -> Stride { Stride(other.nanoseconds - nanoseconds) }
        func advanced(by n: Stride) -> Self { Self(nanoseconds: nanoseconds + n.nanoseconds) }

        /// A span of virtual time.
        struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable
        {
            var nanoseconds: Int

            init(_ nanoseconds: Int) { self.nanoseconds = nanoseconds }
            init(integerLiteral value: Int) { nanoseconds = value * 1_000_000_000 }
            init(floatLiteral value: Double) { nanoseconds = Int(value * 1e9) }
            init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                nanoseconds = value * 1_000_000_000
            }

            var magnitude: Int { nanoseconds.magnitude > Int.max ? .max : abs(nanoseconds) }

            static func seconds(_ s: Int) -> Self { Self(s * 1_000_000_000) }
            static func seconds(_ s: Double) -> Self { Self(Int(s * 1e9)) }
            static func milliseconds(_ ms: Int) -> Self { Self(ms * 1_000_000) }
            static func microseconds(_ us: Int) -> Self { Self(us * 1_000) }
            static func nanoseconds(_ ns: Int) -> Self { Self(ns) }

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

    private struct Item {
        let id: Int
        let due: SchedulerTimeType
        let action: () -> Void
    }

    private var queue: [Item] = []
    private var nextID = 0
    private(set) var now = SchedulerTimeType(nanoseconds: 0)
    var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// The wall-clock date the virtual clock starts at.
    let origin: Date

    init(origin: Date = Date(timeIntervalSince1970: 1_629_549_812)) {  // 2021-08-21 12:43:32 UTC
        self.origin = origin
    }

    /// The virtual "now" as a date, for the examples that print or log times.
    var date: Date { origin.addingTimeInterval(Double(now.nanoseconds) / 1e9) }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(at: now, action)
    }

    func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        enqueue(at: max(date, now), action)
    }

    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let token = RepeatToken()
        func fire(at due: SchedulerTimeType) {
            enqueue(at: due) {
                guard !token.cancelled else { return }
                action()
                guard !token.cancelled else { return }
                fire(at: due.advanced(by: max(interval, .nanoseconds(1))))
            }
        }
        fire(at: max(date, now))
        return AnyCancellable { token.cancelled = true }
    }

    /// Runs every due action in time order, advancing the clock, until nothing is left or the
    /// clock would pass `limit` (repeating timers never run out on their own).
    func run(until limit: SchedulerTimeType.Stride = .seconds(3600)) {
        let end = SchedulerTimeType(nanoseconds: 0).advanced(by: limit)
        while let index = nextIndex(), queue[index].due <= end {
            let item = queue.remove(at: index)
            now = max(now, item.due)
            item.action()
        }
    }

    private func nextIndex() -> Int? {
        queue.indices.min { (queue[$0].due, queue[$0].id) < (queue[$1].due, queue[$1].id) }
    }

    private func enqueue(at due: SchedulerTimeType, _ action: @escaping () -> Void) {
        queue.append(Item(id: nextID, due: due, action: action))
        nextID += 1
    }

    private final class RepeatToken {
        var cancelled = false
    }
}

extension VirtualScheduler.SchedulerTimeType: Comparable {
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}

import Combine
import Foundation
import TributaryLocks

/// The clock and work queue shared by ``TestScheduler`` and ``VirtualTimeScheduler``.
///
/// Entries are kept sorted by due time, and a new entry is inserted after every entry due at the
/// same instant (a re-armed repeating action counts as new), so actions due at the same instant
/// run in the order they were scheduled, including actions scheduled by running actions.
/// Due times in the past are raised to `now` when enqueued, so late work queues behind the work
/// that was already due now instead of jumping ahead of it.
///
/// The lock guards only the clock and the queue: every action runs after the lock is released,
/// so an action may schedule, cancel or read `now` freely.
final class VirtualTimeQueue<Time: Strideable>: @unchecked Sendable {
    struct Entry {
        let id: UInt64
        var due: Time
        let interval: Time.Stride?
        let action: () -> Void
    }

    private let lock = LockedState()
    private var _now: Time
    private var entries: [Entry] = []
    private var nextID: UInt64 = 0

    init(now: Time) {
        _now = now
    }

    var now: Time {
        lock.lock()
        defer { lock.unlock() }
        return _now
    }

    var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    var nextDue: Time? {
        lock.lock()
        defer { lock.unlock() }
        return entries.first?.due
    }

    /// Enqueues `action` no earlier than `due` and returns the entry's identity for `cancel(_:)`.
    @discardableResult
    func enqueue(due: Time?, interval: Time.Stride?, _ action: @escaping () -> Void) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let id = nextID
        nextID += 1
        var effectiveDue = _now
        if let due, due > _now { effectiveDue = due }
        insert(Entry(id: id, due: effectiveDue, interval: interval, action: action))
        return id
    }

    /// Enqueues `action` for `due` and then every `interval` after the previous due time, and
    /// returns the token that stops the repetitions: the body of both virtual-time schedulers'
    /// `schedule(after:interval:tolerance:options:_:)`, whose name `caller` gives in the trap.
    /// - Precondition: `interval` is positive (a zero interval would repeat forever at one instant).
    func enqueueRepeating(
        due: Time, interval: Time.Stride, caller: String, _ action: @escaping () -> Void
    ) -> any Cancellable {
        precondition(interval > .zero, "\(caller): interval must be positive, got \(interval)")
        return VirtualTimeCancellable(queue: self, id: enqueue(due: due, interval: interval, action))
    }

    func cancel(_ id: UInt64) {
        // The entry's closure is released after unlocking: it may hold objects whose `deinit`
        // calls back into this queue.
        let removed: [Entry] = lock.withLock {
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return [] }
            return [entries.remove(at: index)]
        }
        _ = removed
    }

    func cancelAll() {
        let removed: [Entry] = lock.withLock {
            defer { entries.removeAll() }
            return entries
        }
        _ = removed
    }

    /// Runs every entry due at or before `target` in order, then moves the clock to `target`
    /// (never backwards). With `target == nil` runs until the queue is empty, moving the clock to
    /// each entry's due time; traps after `limit` actions, which only an endless repeating
    /// action reaches.
    func run(until target: Time?, limit: Int = 1_000_000, caller: StaticString) {
        var executed = 0
        while true {
            let action: (() -> Void)? = lock.withLock {
                guard let first = entries.first, target.map({ first.due <= $0 }) ?? true else {
                    if let target, target > _now { _now = target }
                    return nil
                }
                entries.removeFirst()
                if first.due > _now { _now = first.due }
                if let interval = first.interval {
                    var next = first
                    next.due = first.due.advanced(by: interval)
                    if next.due < _now { next.due = _now }
                    insert(next)
                }
                return first.action
            }
            guard let action else { return }
            executed += 1
            if executed > limit {
                preconditionFailure(
                    "\(caller) ran more than \(limit) actions; a repeating action is probably still scheduled. "
                        + "Cancel it, or advance by a bounded amount with advance(by:) or advance(to:)."
                )
            }
            action()
        }
    }

    /// Binary insertion after every entry that is due no later than `entry` (stable FIFO).
    private func insert(_ entry: Entry) {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].due <= entry.due {
                low = mid + 1
            } else {
                high = mid
            }
        }
        entries.insert(entry, at: low)
    }
}

/// The `Cancellable` returned for repeating actions: cancelling removes the action's next run.
///
/// It holds the queue weakly so a forgotten token never keeps a scheduler alive.
final class VirtualTimeCancellable<Time: Strideable>: Cancellable, @unchecked Sendable {
    private weak var queue: VirtualTimeQueue<Time>?
    private let id: UInt64

    init(queue: VirtualTimeQueue<Time>, id: UInt64) {
        self.queue = queue
        self.id = id
    }

    func cancel() {
        queue?.cancel(id)
    }
}

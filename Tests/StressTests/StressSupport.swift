import Combine
import Foundation
import TestSupport
import Testing

/// How many rounds a stress test runs: `base` scaled by the `STRESS_ROUNDS` environment variable
/// (a factor, e.g. `STRESS_ROUNDS=10` for a long soak, `0.1` for a quick look). Under the thread
/// sanitizer the suite is run with a smaller factor by `Scripts/test`.
enum Stress {
    static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["STRESS_ROUNDS"], let value = Double(text), value > 0 else {
            return 1
        }
        return value
    }()

    static func rounds(_ base: Int) -> Int { max(1, Int((Double(base) * factor).rounded())) }

    /// A generous per-round deadline: a round that has not finished by then is a deadlock.
    static let deadline: DispatchTimeInterval = .seconds(20)

    /// Runs `bodies` at the same time on real threads and waits for all of them; records an issue
    /// (and returns false) if they do not all finish before the deadline.
    @discardableResult
    static func concurrently(_ bodies: [@Sendable () -> Void], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for body in bodies {
            group.enter()
            let thread = Thread {
                start.wait()
                body()
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in bodies { start.signal() }
        if group.wait(timeout: .now() + deadline) == .timedOut {
            Issue.record("deadlock: a round did not finish within the deadline", sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    /// Waits until `condition` holds (polling), recording a deadlock if it never does.
    @discardableResult
    static func eventually(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(20)
        while !condition() {
            if Date() > end {
                Issue.record("deadlock: \(what) did not happen within the deadline", sourceLocation: sourceLocation)
                return false
            }
            usleep(50)
        }
        return true
    }
}

/// The error the stress pipelines fail with.
struct StressError: Error, Equatable {}

/// A subscriber that checks Combine's contract on every call, from any thread:
/// subscription first and once, never overlapping calls, never more values than demanded, at most
/// one completion, nothing after completion, nothing after `cancel()` has returned.
final class ContractSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var subscribed = false
    private var busy = false
    private var demanded = Subscribers.Demand.none
    private var received = 0
    private var cancelled = false
    private(set) var violations: [String] = []
    private var _values: [Input] = []
    private var _completions: [Subscribers.Completion<Failure>] = []
    private let initial: Subscribers.Demand
    private let perValue: Subscribers.Demand
    private let onValue: ((ContractSubscriber) -> Void)?

    init(initial: Subscribers.Demand = .unlimited, perValue: Subscribers.Demand = .none,
         onValue: ((ContractSubscriber) -> Void)? = nil) {
        self.initial = initial
        self.perValue = perValue
        self.onValue = onValue
    }

    private func enter(_ what: String) {
        lock.withLock {
            if busy { violations.append("overlapping call: \(what)") }
            busy = true
        }
    }

    private func leave() { lock.withLock { busy = false } }

    func receive(subscription: any Subscription) {
        enter("receive(subscription:)")
        let first = lock.withLock { () -> Bool in
            if subscribed { violations.append("second subscription"); return false }
            if cancelled { return false }  // cancelled before the subscription arrived
            subscribed = true
            self.subscription = subscription
            if initial > .none { demanded += initial }
            return true
        }
        leave()
        if !first { subscription.cancel(); return }
        if initial > .none { subscription.request(initial) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter("receive(_:)")
        lock.withLock {
            if !subscribed { violations.append("value before subscription") }
            if !_completions.isEmpty { violations.append("value after completion") }
            received += 1
            if demanded < .max(received) { violations.append("value \(received) beyond demand \(demanded)") }
            demanded += perValue
            _values.append(input)
        }
        leave()
        onValue?(self)
        return perValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        enter("receive(completion:)")
        lock.withLock {
            if !subscribed { violations.append("completion before subscription") }
            if !_completions.isEmpty { violations.append("second completion") }
            _completions.append(completion)
            subscription = nil
        }
        leave()
    }

    /// Asks for `demand` more values (counted before the request goes out).
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let current = cancelled ? nil : subscription
        if current != nil { demanded += demand }
        lock.unlock()
        current?.request(demand)
    }

    /// Counts demand the subscriber returned from `receive(_:)` on its own behalf.
    func noteDemand(_ demand: Subscribers.Demand) { lock.withLock { demanded += demand } }

    func cancel() {
        lock.lock()
        cancelled = true
        let current = subscription
        subscription = nil
        lock.unlock()
        current?.cancel()
    }

    /// Marks the point after which a value or completion is a violation (call it once every
    /// thread that might still be delivering has been joined).
    func sealAfterCancel() -> Int { lock.withLock { received } }

    var values: [Input] { lock.withLock { _values } }
    var count: Int { lock.withLock { received } }
    var completions: [Subscribers.Completion<Failure>] { lock.withLock { _completions } }
    var isCancelled: Bool { lock.withLock { cancelled } }
    var allViolations: [String] { lock.withLock { violations } }

    func expectClean(_ checker: Checker, _ label: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        let violations = allViolations
        checker.expect(violations.isEmpty, "\(label()): \(violations.prefix(5))", sourceLocation: sourceLocation)
    }
}

/// Records failed expectations and counts them, so a stress loop can stop at its first bad round
/// instead of reporting the same bug thousands of times.
final class Checker: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    init() {}
    var failures: Int { lock.withLock { count } }
    func expect(_ condition: Bool, _ message: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        guard !condition else { return }
        lock.withLock { count += 1 }
        Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation)
    }
}

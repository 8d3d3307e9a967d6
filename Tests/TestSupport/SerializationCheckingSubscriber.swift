import Combine
import Foundation
import Synchronization

/// The subscriber for thread-safety tests: records every value and completion and detects calls
/// that overlap (Combine requires calls into one subscriber to be serialised) with an atomic
/// in-flight counter. Requests `.unlimited`, or `initialDemand` (nothing when it is `.none`) and
/// then `demandAfterValue`; the test can request more and cancel through it.
public final class SerializationCheckingSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    private let inFlight = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)
    private let lock = NSLock()
    private var _values: [Input] = []
    private var _completions: [Subscribers.Completion<Failure>] = []
    private var _subscription: (any Subscription)?
    private var _eventsAfterCompletion = 0
    private let initialDemand: Subscribers.Demand
    private let demandAfterValue: Subscribers.Demand

    public init(initialDemand: Subscribers.Demand = .unlimited, demandAfterValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandAfterValue = demandAfterValue
    }

    private func enter() {
        if inFlight.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
            overlapCount.add(1, ordering: .relaxed)
        }
    }

    private func leave() {
        inFlight.subtract(1, ordering: .sequentiallyConsistent)
    }

    public func receive(subscription: any Subscription) {
        enter()
        lock.withLock { _subscription = subscription }
        if initialDemand > .none { subscription.request(initialDemand) }
        leave()
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        // Widen the window in which an overlapping call would be caught.
        if Int.random(in: 0..<64) == 0 { sched_yield() }
        lock.withLock {
            if !_completions.isEmpty { _eventsAfterCompletion += 1 }
            _values.append(input)
        }
        leave()
        return demandAfterValue
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        lock.withLock {
            if !_completions.isEmpty { _eventsAfterCompletion += 1 }
            _completions.append(completion)
        }
        leave()
    }

    /// Requests `demand` through the received subscription.
    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the received subscription.
    public func cancel() {
        subscription?.cancel()
    }

    /// Number of calls that started while another was still running.
    public var overlaps: Int { overlapCount.load(ordering: .relaxed) }
    /// Values received, in order.
    public var values: [Input] { lock.withLock { _values } }
    /// Completions received (at most one if the publisher is correct).
    public var completions: [Subscribers.Completion<Failure>] { lock.withLock { _completions } }
    /// Events received after a completion.
    public var eventsAfterCompletion: Int { lock.withLock { _eventsAfterCompletion } }
    /// The subscription received.
    public var subscription: (any Subscription)? { lock.withLock { _subscription } }
}

extension SerializationCheckingSubscriber where Input == Int {
    /// Whether the values received form one run of consecutive integers (a subscriber that joined
    /// late or left early still sees no gap and no reordering).
    public var valuesAreConsecutive: Bool {
        let seen = values
        return zip(seen, seen.dropFirst()).allSatisfy { $1 == $0 + 1 }
    }
}

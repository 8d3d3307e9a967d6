import Combine
import Foundation

/// One thing that happened to a ``TrackingSubscriber``, in order.
public enum TrackedEvent<Value, Failure: Error>: CustomStringConvertible {
    case subscription(String)
    case value(Value)
    case completion(Subscribers.Completion<Failure>)

    public var description: String {
        switch self {
        case .subscription(let name): return "subscription(\(name))"
        case .value(let value): return "value(\(value))"
        case .completion(.finished): return "finished"
        case .completion(.failure(let error)): return "failure(\(error))"
        }
    }
}

extension TrackedEvent: Equatable where Value: Equatable, Failure: Equatable {}

/// A subscriber for tests: records every event, lets the test decide the demand (on subscription
/// and after each value), and exposes the subscription so the test can `request` and `cancel`.
///
/// Thread-safe: events may arrive from any thread; the record is guarded by a lock.
public final class TrackingSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [TrackedEvent<Input, Failure>] = []
    private var _subscription: (any Subscription)?
    private let initialDemand: Subscribers.Demand?
    private let demandAfterValue: (Input) -> Subscribers.Demand
    private let onValue: ((Input) -> Void)?

    /// - Parameters:
    ///   - initialDemand: requested right after the subscription arrives; `nil` requests nothing.
    ///   - demandAfterValue: returned from `receive(_:)` for each value.
    ///   - onValue: called after a value is recorded (outside the lock), for reentrancy tests.
    public init(
        initialDemand: Subscribers.Demand? = .unlimited,
        demandAfterValue: @escaping (Input) -> Subscribers.Demand = { _ in .none },
        onValue: ((Input) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.demandAfterValue = demandAfterValue
        self.onValue = onValue
    }

    public func receive(subscription: any Subscription) {
        lock.withLock {
            _events.append(.subscription(String(describing: subscription)))
            _subscription = subscription
        }
        if let initialDemand { subscription.request(initialDemand) }
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { _events.append(.value(input)) }
        onValue?(input)
        return demandAfterValue(input)
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { _events.append(.completion(completion)) }
    }

    /// Every event so far, in order.
    public var events: [TrackedEvent<Input, Failure>] { lock.withLock { _events } }

    /// The values so far, in order.
    public var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { return value } else { return nil } }
    }

    /// The completions so far (a correct publisher sends at most one).
    public var completions: [Subscribers.Completion<Failure>] {
        events.compactMap { if case .completion(let completion) = $0 { return completion } else { return nil } }
    }

    /// The subscription received, if any.
    public var subscription: (any Subscription)? { lock.withLock { _subscription } }

    /// Requests `demand` through the received subscription.
    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the received subscription.
    public func cancel() {
        subscription?.cancel()
    }
}

import Combine
import Foundation

/// A subscriber that behaves like `Subscribers.Sink` about memory: it drops its subscription when
/// it completes or is cancelled, so a test can check with weak references that nothing else keeps
/// a pipeline alive. It requests `initialDemand` on subscription and records values and
/// completions.
public final class ReleasingTestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    private var _subscription: (any Subscription)?
    private var _values: [Input] = []
    private var _completions: [Subscribers.Completion<Failure>] = []
    private let initialDemand: Subscribers.Demand

    public init(initialDemand: Subscribers.Demand = .unlimited) {
        self.initialDemand = initialDemand
    }

    public func receive(subscription: any Subscription) {
        lock.withLock { _subscription = subscription }
        subscription.request(initialDemand)
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { _values.append(input) }
        return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            _completions.append(completion)
            _subscription = nil
        }
    }

    /// Cancels the subscription and lets go of it.
    public func cancel() {
        let subscription: (any Subscription)? = lock.withLock {
            defer { _subscription = nil }
            return _subscription
        }
        subscription?.cancel()
    }

    /// Requests more values through the held subscription, if any.
    public func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock { _subscription }
        subscription?.request(demand)
    }

    /// The subscription while it is held.
    public var subscription: (any Subscription)? { lock.withLock { _subscription } }

    /// The values so far.
    public var values: [Input] { lock.withLock { _values } }

    /// The completions so far.
    public var completions: [Subscribers.Completion<Failure>] { lock.withLock { _completions } }
}

import Combine
import Foundation

/// A publisher for tests that records what its subscriber asks of it (every `request` and
/// `cancel`) and lets the test push values and completion by hand, ignoring demand, so operators
/// can be tested against an upstream that misbehaves as much as the test wants.
///
/// One subscriber at a time: a new subscription replaces the previous one.
public final class TestUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// What the subscriber did through its subscription.
    public enum Call: Equatable, CustomStringConvertible {
        case request(Subscribers.Demand)
        case cancel

        public var description: String {
            switch self {
            case .request(let demand): return "request(\(demand))"
            case .cancel: return "cancel"
            }
        }
    }

    private final class Link: Subscription, CustomStringConvertible, @unchecked Sendable {
        weak var owner: TestUpstream?
        let name: String
        init(owner: TestUpstream, name: String) { self.owner = owner; self.name = name }
        func request(_ demand: Subscribers.Demand) { owner?.record(.request(demand)) }
        func cancel() { owner?.record(.cancel) }
        var description: String { name }
    }

    private let lock = NSLock()
    private var _calls: [Call] = []
    private var _subscriptionCount = 0
    private var send: ((Output) -> Subscribers.Demand)?
    private var complete: ((Subscribers.Completion<Failure>) -> Void)?
    private let name: String

    /// - Parameter name: the subscription's `description`, as `print` would show it.
    public init(name: String = "TestUpstream") {
        self.name = name
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock {
            _subscriptionCount += 1
            send = { subscriber.receive($0) }
            complete = { subscriber.receive(completion: $0) }
        }
        subscriber.receive(subscription: Link(owner: self, name: name))
    }

    private func record(_ call: Call) {
        lock.withLock { _calls.append(call) }
    }

    /// Every `request` and `cancel` the subscriber made, in order.
    public var calls: [Call] { lock.withLock { _calls } }

    /// The sum of all requested demand.
    public var totalDemand: Subscribers.Demand {
        calls.reduce(Subscribers.Demand.none) { total, call in
            if case .request(let demand) = call { return total + demand }
            return total
        }
    }

    /// Whether the subscriber cancelled.
    public var isCancelled: Bool { calls.contains(.cancel) }

    /// How many times something subscribed.
    public var subscriptionCount: Int { lock.withLock { _subscriptionCount } }

    /// Delivers `value` to the subscriber (whatever its demand) and returns the demand it gave back.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        let deliver = lock.withLock { send }
        return deliver?(value) ?? .none
    }

    /// Delivers a completion to the subscriber.
    public func send(completion: Subscribers.Completion<Failure>) {
        let deliver = lock.withLock { complete }
        deliver?(completion)
    }
}

import Combine
import Foundation

/// A hand-driven publisher like ``TestUpstream`` that, unlike it, lets go of its subscriber as soon
/// as the subscriber cancels or the test sends a completion, the way a well-behaved publisher
/// does. Use it to check with weak references that an operator's stages are released.
///
/// Several subscriptions may be made over time (for example by `retry`); `send` goes to the most
/// recent live one. Every `request`/`cancel` from every subscription is recorded in order.
public final class ReleasingTestUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private final class Link: Subscription, CustomStringConvertible, @unchecked Sendable {
        weak var owner: ReleasingTestUpstream?
        let name: String
        init(owner: ReleasingTestUpstream, name: String) { self.owner = owner; self.name = name }
        func request(_ demand: Subscribers.Demand) { owner?.record(.request(demand), from: self) }
        func cancel() { owner?.record(.cancel, from: self) }
        var description: String { name }
    }

    private struct Live {
        let link: Link
        let send: (Output) -> Subscribers.Demand
        let complete: (Subscribers.Completion<Failure>) -> Void
    }

    private let lock = NSLock()
    private var _calls: [TestUpstream<Output, Failure>.Call] = []
    private var _subscriptionCount = 0
    private var live: Live?
    private let name: String

    /// - Parameter name: the subscription's `description`, as `print` would show it.
    public init(name: String = "ReleasingTestUpstream") {
        self.name = name
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let link = Link(owner: self, name: name)
        lock.withLock {
            _subscriptionCount += 1
            live = Live(link: link, send: { subscriber.receive($0) }, complete: { subscriber.receive(completion: $0) })
        }
        subscriber.receive(subscription: link)
    }

    private func record(_ call: TestUpstream<Output, Failure>.Call, from link: Link) {
        let dropped: Live? = lock.withLock {
            _calls.append(call)
            guard call == .cancel, live?.link === link else { return nil }
            defer { live = nil }
            return live
        }
        _ = dropped
    }

    /// Every `request` and `cancel` received, in order.
    public var calls: [TestUpstream<Output, Failure>.Call] { lock.withLock { _calls } }

    /// How many times something subscribed.
    public var subscriptionCount: Int { lock.withLock { _subscriptionCount } }

    /// Whether a subscriber is currently attached (subscribed and neither cancelled nor completed).
    public var hasSubscriber: Bool { lock.withLock { live != nil } }

    /// Delivers `value` to the live subscriber, whatever its demand, and returns its answer.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        let current = lock.withLock { live }
        return current?.send(value) ?? .none
    }

    /// Delivers a completion to the live subscriber and lets go of it.
    public func send(completion: Subscribers.Completion<Failure>) {
        let current: Live? = lock.withLock {
            defer { live = nil }
            return live
        }
        current?.complete(completion)
    }
}

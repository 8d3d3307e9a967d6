import Combine
import Foundation
import TestSupport

// Test-only machinery for the AsyncPublisher / AsyncThrowingPublisher suites. Names carry the
// `AsyncProbe` prefix so they cannot collide with other people's helpers in this test target.

/// A publisher that keeps its one subscriber only until it completes or cancels (so weak
/// references can prove everything is released), and can hold the subscription back so the test
/// decides when `receive(subscription:)` happens.
final class AsyncProbePublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = NSLock()
    private let deferSubscription: Bool
    private var deliver: ((Output) -> Subscribers.Demand)?
    private var finish: ((Subscribers.Completion<Failure>) -> Void)?
    private var attach: (() -> Void)?
    private var _subscription: RecordingSubscription?
    private var _subscribed = 0
    private weak var _weakSubscriber: AnyObject?
    private weak var _weakSubscription: RecordingSubscription?
    /// The last subscriber, weakly, to check that it is released. Read under the lock, like every
    /// field here: the test reads it from another thread than the one that subscribed.
    var weakSubscriber: AnyObject? { lock.withLock { _weakSubscriber } }
    /// The last subscription, weakly.
    var weakSubscription: RecordingSubscription? { lock.withLock { _weakSubscription } }

    init(deferSubscription: Bool = false) {
        self.deferSubscription = deferSubscription
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = RecordingSubscription(name: "AsyncProbe", onCancel: { [weak self] in self?.release() })
        lock.withLock {
            _subscribed += 1
            deliver = { subscriber.receive($0) }
            finish = { subscriber.receive(completion: $0) }
            attach = { subscriber.receive(subscription: subscription) }
            _subscription = subscription
            _weakSubscriber = subscriber as AnyObject
            _weakSubscription = subscription
        }
        if !deferSubscription { attachNow() }
    }

    /// Hands the subscription to the subscriber (when created with `deferSubscription`).
    func attachNow() {
        let body = lock.withLock {
            defer { attach = nil }
            return attach
        }
        body?()
    }

    private func release() {
        lock.withLock {
            deliver = nil
            finish = nil
            attach = nil
            _subscription = nil
        }
    }

    var subscription: RecordingSubscription? { lock.withLock { _subscription } }
    var subscribedCount: Int { lock.withLock { _subscribed } }
    var requests: [Subscribers.Demand] { weakSubscription?.requests ?? [] }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        let body = lock.withLock { deliver }
        return body?(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        let body = lock.withLock { finish }
        release()
        body?(completion)
    }
}

struct AsyncProbeError: Error, Equatable {
    let code: Int
}

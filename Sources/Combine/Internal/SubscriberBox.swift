/// Holds one subscriber in an object of its own, so that a thread delivering values can reach it
/// through an unowned reference (`Unmanaged._withUnsafeGuaranteedRef`) with no reference counting:
/// `subscriber` is a `let`. Whoever owns the box (a subject's conduit, a flat map's state) drops it
/// on cancel or completion once nobody delivers to it any more, which releases the subscriber, so
/// no cycle survives cancellation.
@usableFromInline
final class SubscriberBox<S: Subscriber>: ReflectsSubscriber {
    @usableFromInline
    let subscriber: S

    @inlinable
    init(_ subscriber: S) {
        self.subscriber = subscriber
    }
}

extension SubscriberBox {
    @usableFromInline
    var reflectedSubscriber: Any { subscriber }
}

/// A box that can show the subscriber it holds, for the mirrors of subscriptions that keep their
/// subscriber type-erased.
@usableFromInline
protocol ReflectsSubscriber: AnyObject {
    var reflectedSubscriber: Any { get }
}

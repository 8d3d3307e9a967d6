/// An upstream subscription kept in an object of its own: for the stages that copy their
/// upstream out of their lock on every value (`buffer` topping up, the `values` iterator's
/// request per `next()`), and for a ``Subscribers/Sink`` handed a subscription that is a value
/// (it keeps its subscription as an object).
///
/// Copying an `(any Subscription)?` goes through the value witnesses of `Optional` and of the
/// existential, about 120 instructions a copy (`TributaryProfile 10`); copying this handle is
/// one retain. The price is one allocation per subscription of those stages. It is a
/// `Subscription` itself, forwarding everything, its identifier included, to the one it holds.
@usableFromInline
final class SubscriptionHandle: Subscription {
    @usableFromInline let subscription: any Subscription

    @inlinable
    init(_ subscription: any Subscription) {
        self.subscription = subscription
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        subscription.request(demand)
    }

    @inlinable
    func cancel() {
        subscription.cancel()
    }

    @inlinable
    var combineIdentifier: CombineIdentifier { subscription.combineIdentifier }
}

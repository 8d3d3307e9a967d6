/// The namespace for ready-made subscriptions.
///
/// Publishers that finish (or fail) before they ever produce a value still owe their subscriber a
/// subscription first; ``Subscriptions/empty`` is the one to hand over in that case.
public enum Subscriptions {}

extension Subscriptions {
    /// A subscription that ignores every `request` and `cancel`.
    ///
    /// Give it to a subscriber right before sending it a completion, when there will never be
    /// values to ask for. `print()` shows it as `(Empty)`, which is how Apple's `Fail` and an empty
    /// `Publishers.Sequence` appear in logs.
    public static var empty: any Subscription {
        EmptySubscriptionSingleton.shared
    }
}

/// The one shared instance behind ``Subscriptions/empty``: it has no state, so one is enough.
@usableFromInline
final class EmptySubscriptionSingleton: Subscription, ReflectsAsOperator, Sendable
{
    @usableFromInline
    static let shared = EmptySubscriptionSingleton()

    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    private init() {}

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {}

    @usableFromInline
    func cancel() {}

    @usableFromInline
    var description: String { "Empty" }
}

/// Stands in for a subscription an operator's state holds only in some phases (a flatMap inner
/// before it subscribes and after it is done, switchToLatest's current inner between inners), so
/// that the field is an `any Subscription` rather than an optional one. Assigning an optional
/// existential goes through generic value witnesses, a hundred-odd instructions per inner
/// publisher. Never handed to anyone: the phase next to the field says whether it holds a real
/// subscription.
@usableFromInline
struct PlaceholderSubscription: Subscription {
    @inlinable
    init() {}

    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier() }

    @inlinable
    func request(_ demand: Subscribers.Demand) {}

    @inlinable
    func cancel() {}

    /// Moves the subscription out of `field` and leaves a placeholder there: one move, where
    /// an assignment would copy the subscription and then destroy the field's.
    @inlinable
    static func take(from field: inout any Subscription) -> any Subscription {
        withUnsafeMutablePointer(to: &field) { field in
            let held = field.move()
            field.initialize(to: PlaceholderSubscription())
            return held
        }
    }

    /// Stores `subscription` in `field`, which holds a placeholder. Destroying the placeholder and
    /// initialising the field, rather than assigning, skips the runtime's generic existential
    /// assignment (which compares the two dynamic types first).
    @inlinable
    static func fill(_ field: inout any Subscription, with subscription: any Subscription) {
        withUnsafeMutablePointer(to: &field) { field in
            field.deinitialize(count: 1)
            field.initialize(to: subscription)
        }
    }
}

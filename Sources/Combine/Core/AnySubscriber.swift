/// A subscriber whose concrete type is hidden.
///
/// Use it to store subscribers of different types together, or to build a subscriber from three
/// closures without declaring a type. Wrapping an `AnySubscriber` again does not add a layer: the
/// inner box is reused, so the value path stays one indirect call long however often a subscriber
/// is erased.
///
/// The erased subscriber keeps the wrapped one's ``combineIdentifier``, `description`, mirror and
/// playground description, so debugging output names the real subscriber. One built from closures
/// describes itself as `"Anonymous AnySubscriber"`, and its mirror is that string's.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    /// The forwarding box. It is built in `@inlinable` initializers, so its closures are compiled
    /// for the concrete subscriber type at the place where the subscriber is erased.
    @usableFromInline
    internal let box: Box

    /// The identifier of the wrapped subscriber (or a fresh one for closure-built subscribers).
    public let combineIdentifier: CombineIdentifier

    /// Holds the three event calls and, for the debugging output, the wrapped subscriber.
    ///
    /// The calls are closures that capture nothing and are handed the box itself: a subclass
    /// keeps what they need (``Wrapping`` the subscriber, ``Closures`` the user's closures). So
    /// erasing a subscriber costs one allocation, whatever the subscriber's size, and a value
    /// reaches it through one call of a plain function, with no closure context in between.
    @usableFromInline
    internal class Box {
        @usableFromInline let receiveSubscription: (Box, any Subscription) -> Void
        @usableFromInline let receiveValue: (Box, Input) -> Subscribers.Demand
        @usableFromInline let receiveCompletion: (Box, Subscribers.Completion<Failure>) -> Void

        @inlinable
        init(
            receiveSubscription: @escaping (Box, any Subscription) -> Void,
            receiveValue: @escaping (Box, Input) -> Subscribers.Demand,
            receiveCompletion: @escaping (Box, Subscribers.Completion<Failure>) -> Void
        ) {
            self.receiveSubscription = receiveSubscription
            self.receiveValue = receiveValue
            self.receiveCompletion = receiveCompletion
        }

        /// The wrapped subscriber, whose description and mirror the erasure shows; `nil` for one
        /// built from closures.
        @usableFromInline
        var wrapped: Any? { nil }
    }

    /// The box of an erased subscriber.
    @usableFromInline
    internal final class Wrapping<S: Subscriber>: Box where S.Input == Input, S.Failure == Failure {
        @usableFromInline let subscriber: S

        @inlinable
        init(_ subscriber: S) {
            self.subscriber = subscriber
            // Only `Wrapping<S>` boxes are handed these closures, so the downcasts cannot fail.
            super.init(
                receiveSubscription: { box, subscription in
                    unsafeDowncast(box, to: Wrapping.self).subscriber.receive(subscription: subscription)
                },
                receiveValue: { box, value in unsafeDowncast(box, to: Wrapping.self).subscriber.receive(value) },
                receiveCompletion: { box, completion in
                    unsafeDowncast(box, to: Wrapping.self).subscriber.receive(completion: completion)
                }
            )
        }

        @usableFromInline
        override var wrapped: Any? { subscriber }
    }

    /// The box of a subscriber made from closures.
    @usableFromInline
    internal final class Closures: Box {
        @usableFromInline let onSubscription: (any Subscription) -> Void
        @usableFromInline let onValue: (Input) -> Subscribers.Demand
        @usableFromInline let onCompletion: (Subscribers.Completion<Failure>) -> Void

        @inlinable
        init(
            onSubscription: @escaping (any Subscription) -> Void,
            onValue: @escaping (Input) -> Subscribers.Demand,
            onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
        ) {
            self.onSubscription = onSubscription
            self.onValue = onValue
            self.onCompletion = onCompletion
            super.init(
                receiveSubscription: { box, subscription in
                    unsafeDowncast(box, to: Closures.self).onSubscription(subscription)
                },
                receiveValue: { box, value in unsafeDowncast(box, to: Closures.self).onValue(value) },
                receiveCompletion: { box, completion in
                    unsafeDowncast(box, to: Closures.self).onCompletion(completion)
                }
            )
        }
    }

    /// Wraps `s`. If `s` is itself an `AnySubscriber`, its box is reused rather than wrapped again.
    @inlinable
    public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = s.combineIdentifier
        box = Wrapping(s)
    }

    /// Makes a subscriber that feeds a subject: values and completion are sent into `s`, and the
    /// subscription is handed to it with `send(subscription:)`, so the subject decides the demand.
    @inlinable
    public init<S: Subject>(_ s: S) where Input == S.Output, Failure == S.Failure {
        self.init(SubjectSubscriber(s))
    }

    /// Makes a subscriber from closures; a missing closure ignores its event, and a missing
    /// `receiveValue` asks for nothing more after each value.
    @inlinable
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        // Each closure is unwrapped with `if let`, not `??`: the generic `??` would wrap it in a
        // pair of reabstraction thunks, paid on every event.
        let onSubscription: (any Subscription) -> Void
        if let receiveSubscription { onSubscription = receiveSubscription } else { onSubscription = { _ in } }
        let onValue: (Input) -> Subscribers.Demand
        if let receiveValue { onValue = receiveValue } else { onValue = { _ in .none } }
        let onCompletion: (Subscribers.Completion<Failure>) -> Void
        if let receiveCompletion { onCompletion = receiveCompletion } else { onCompletion = { _ in } }
        box = Closures(onSubscription: onSubscription, onValue: onValue, onCompletion: onCompletion)
    }

    /// Forwards the subscription to the wrapped subscriber.
    @inlinable
    public func receive(subscription: any Subscription) {
        box.receiveSubscription(box, subscription)
    }

    /// Forwards a value and returns the wrapped subscriber's extra demand.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        box.receiveValue(box, value)
    }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receiveCompletion(box, completion)
    }

    /// The wrapped subscriber's description (its type's name when it has none), or
    /// `"Anonymous AnySubscriber"` for closures.
    public var description: String {
        guard let wrapped = box.wrapped else { return "Anonymous AnySubscriber" }
        if let described = wrapped as? any CustomStringConvertible { return described.description }
        return String(describing: type(of: wrapped))
    }

    /// The wrapped subscriber's mirror, as `Mirror(reflecting:)` makes it (its custom mirror, or
    /// its stored properties); for closures, the mirror of ``description``.
    public var customMirror: Mirror {
        Mirror(reflecting: box.wrapped ?? description)
    }

    /// The wrapped subscriber's playground description, or its `description`.
    public var playgroundDescription: Any {
        (box.wrapped as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
    }
}

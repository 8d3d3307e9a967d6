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

    /// Holds the three event closures and, for the debugging output, the wrapped subscriber.
    @usableFromInline
    internal final class Box {
        @usableFromInline let receiveSubscription: (any Subscription) -> Void
        @usableFromInline let receiveValue: (Input) -> Subscribers.Demand
        @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        /// The wrapped subscriber, whose description and mirror the erasure shows; `nil` for one
        /// built from closures.
        @usableFromInline let wrapped: Any?

        @inlinable
        init(
            receiveSubscription: @escaping (any Subscription) -> Void,
            receiveValue: @escaping (Input) -> Subscribers.Demand,
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            wrapped: Any?
        ) {
            self.receiveSubscription = receiveSubscription
            self.receiveValue = receiveValue
            self.receiveCompletion = receiveCompletion
            self.wrapped = wrapped
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
        box = Box(
            receiveSubscription: { s.receive(subscription: $0) },
            receiveValue: { s.receive($0) },
            receiveCompletion: { s.receive(completion: $0) },
            wrapped: s
        )
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
        box = Box(
            receiveSubscription: onSubscription,
            receiveValue: onValue,
            receiveCompletion: onCompletion,
            wrapped: nil
        )
    }

    /// Forwards the subscription to the wrapped subscriber.
    @inlinable
    public func receive(subscription: any Subscription) {
        box.receiveSubscription(subscription)
    }

    /// Forwards a value and returns the wrapped subscriber's extra demand.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        box.receiveValue(value)
    }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receiveCompletion(completion)
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

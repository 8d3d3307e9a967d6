/// What `flatMap` and `switchToLatest` need to know to deliver an inner publisher's value without
/// subscribing to it.
///
/// `Just` (also behind `setFailureType(to:)`), `Optional.Publisher` holding a value and
/// `Result.Publisher` holding a success send that one value as soon as they are asked, then
/// finish, and nobody outside the operator can observe their subscription: the operator's inner
/// subscriber is its own. When the operator could deliver the value at once anyway (open,
/// nothing queued, unlimited demand, nobody else delivering), it may hand the value to its
/// subscriber directly, skipping the inner subscription, its allocation and its bookkeeping;
/// otherwise it subscribes as usual. An enabled `_Introspection` handler does observe inner
/// subscriptions, so while one is enabled the operators always subscribe. This is the "scalar"
/// shortcut of other reactive libraries, and the reason `flatMap { Just($0) }` costs about what
/// a `map` does.
///
/// Both functions are meant to be specialised: for a concrete publisher type every cast below
/// folds to a constant, so a pipeline whose inner publishers are something else pays nothing.
@usableFromInline
enum ImmediateOutput {
    /// Whether publishers of type `P` may have a value to hand over without a subscription.
    @inlinable @inline(__always)
    static func isPossible<P: Publisher>(for _: P.Type) -> Bool {
        P.self is Just<P.Output>.Type || P.self is Optional<P.Output>.Publisher.Type
            || P.self is Result<P.Output, P.Failure>.Publisher.Type
            || P.self is Publishers.SetFailureType<Just<P.Output>, P.Failure>.Type
            || P.self is Publishers.SetFailureType<Optional<P.Output>.Publisher, P.Failure>.Type
    }

    /// The value `publisher` sends before finishing, when it sends exactly one and cannot fail;
    /// `nil` when it has to be subscribed (an empty `Optional.Publisher`, a failed `Result`, any
    /// other publisher).
    @inlinable @inline(__always)
    static func value<P: Publisher>(of publisher: P) -> P.Output? {
        if let just = publisher as? Just<P.Output> {
            return just.output
        }
        if let optional = publisher as? Optional<P.Output>.Publisher {
            return optional.output
        }
        if let result = publisher as? Result<P.Output, P.Failure>.Publisher, case .success(let value) = result.result {
            return value
        }
        // What `flatMap` and `switchToLatest` wrap each inner publisher in when only the upstream
        // can fail.
        if let just = publisher as? Publishers.SetFailureType<Just<P.Output>, P.Failure> {
            return just.upstream.output
        }
        if let optional = publisher as? Publishers.SetFailureType<Optional<P.Output>.Publisher, P.Failure> {
            return optional.upstream.output
        }
        return nil
    }
}

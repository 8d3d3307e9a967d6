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
/// Two ways to answer, one per build configuration, with the same answers (a test compares them):
/// - by type: for a concrete publisher type, every cast folds to a constant when the operator is
///   specialised (an optimised build), so a pipeline whose inner publishers are something else
///   pays nothing;
/// - by conformance to ``SendsOneValueOnRequest``: unspecialised (a debug build, where the casts
///   by type would instantiate the metadata of every candidate type at run time, about 3,000
///   instructions per inner publisher), one cached conformance look-up. An optimised build cannot
///   fold a failed conformance test, which another module's conformance could make succeed, so it
///   keeps the casts by type.
@usableFromInline
enum ImmediateOutput {
    /// Whether publishers of type `P` may have a value to hand over without a subscription.
    @inlinable @inline(__always)
    static func isPossible<P: Publisher>(for type: P.Type) -> Bool {
        isUnoptimised ? isCandidateByConformance(type) : isCandidateByType(type)
    }

    /// The value `publisher` sends before finishing, when it sends exactly one and cannot fail;
    /// `nil` when it has to be subscribed (an empty `Optional.Publisher`, a failed `Result`, any
    /// other publisher).
    @inlinable @inline(__always)
    static func value<P: Publisher>(of publisher: P) -> P.Output? {
        isUnoptimised ? valueByConformance(of: publisher) : valueByType(of: publisher)
    }

    /// Whether this code was compiled without optimisation. A function of its own, so that the
    /// unoptimised build, which folds the configuration test, does not flag the other branch of
    /// the callers as never executed.
    @inlinable
    static var isUnoptimised: Bool { _isDebugAssertConfiguration() }

    @inlinable @inline(__always)
    static func isCandidateByType<P: Publisher>(_: P.Type) -> Bool {
        P.self is Just<P.Output>.Type || P.self is Optional<P.Output>.Publisher.Type
            || P.self is Result<P.Output, P.Failure>.Publisher.Type
            || P.self is Publishers.SetFailureType<Just<P.Output>, P.Failure>.Type
            || P.self is Publishers.SetFailureType<Optional<P.Output>.Publisher, P.Failure>.Type
            || P.self is Publishers.SetFailureType<Result<P.Output, Never>.Publisher, P.Failure>.Type
    }

    @inlinable @inline(__always)
    static func valueByType<P: Publisher>(of publisher: P) -> P.Output? {
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
        if let result = publisher as? Publishers.SetFailureType<Result<P.Output, Never>.Publisher, P.Failure>,
            case .success(let value) = result.upstream.result
        {
            return value
        }
        return nil
    }

    @inlinable
    static func isCandidateByConformance<P: Publisher>(_: P.Type) -> Bool {
        P.self is any SendsOneValueOnRequest.Type
    }

    @inlinable
    static func valueByConformance<P: Publisher>(of publisher: P) -> P.Output? {
        guard let candidate = publisher as? any SendsOneValueOnRequest else { return nil }
        return oneValue(of: candidate, as: P.Output.self)
    }

    /// `publisher`'s one value, typed as the caller knows it (`Q` is the caller's `P`).
    @inlinable
    static func oneValue<Q: SendsOneValueOnRequest, Output>(of publisher: Q, as _: Output.Type) -> Output? {
        publisher.oneValue as? Output
    }
}

/// A publisher that, asked for a value, sends the one it holds and finishes at once, and whose
/// subscription has nothing else to observe: the ``HoldsItsOneValue`` publishers, and each of them
/// behind one `setFailureType(to:)` (what `flatMap` and `switchToLatest` wrap inner publishers in
/// when only the upstream can fail).
@usableFromInline
protocol SendsOneValueOnRequest: Publisher {
    /// The value sent before finishing; `nil` when there is none to send without a subscription
    /// (an empty optional, a failure).
    var oneValue: Output? { get }
}

/// `Just`, `Optional.Publisher` and `Result.Publisher`: the publishers that hold their one value
/// themselves. Only these may be behind `setFailureType(to:)` (a wrapper of a wrapper is not a
/// candidate, as ``ImmediateOutput/isCandidateByType(_:)`` does not look through two).
@usableFromInline
protocol HoldsItsOneValue: SendsOneValueOnRequest {}

extension Just: HoldsItsOneValue {
    @inlinable
    var oneValue: Output? { output }
}

extension Optional.Publisher: HoldsItsOneValue {
    @inlinable
    var oneValue: Output? { output }
}

extension Result.Publisher: HoldsItsOneValue {
    @inlinable
    var oneValue: Output? {
        if case .success(let value) = result { return value }
        return nil
    }
}

extension Publishers.SetFailureType: SendsOneValueOnRequest where Upstream: HoldsItsOneValue {
    @inlinable
    var oneValue: Output? { upstream.oneValue }
}

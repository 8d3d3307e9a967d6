import Synchronization
import TributaryLocks

// The machinery behind every operator that folds its whole upstream into at most one value:
// collect, count, first, last, contains, allSatisfy, reduce, min/max, ignoreOutput and their
// `try` and `where` variants. Apple gives all of them the same shape: ask the upstream for
// everything at once, remember a running result, and publish that result (then finish) either when
// the upstream finishes or as soon as the answer is known (`first`, `contains`, `allSatisfy`),
// cancelling the upstream in the latter case. The result waits for downstream demand.
//
// One final class, generic over a small strategy struct, serves all of them, so each value costs
// one specialised, statically dispatched call into the strategy and no lock.

/// What a ``ReducingStrategy`` decided after seeing one upstream value.
///
/// Deliberately not generic: the stages usually run as unspecialised generic code (the upstream
/// reaches them through `any Subscription`), where every value of a generic enum would cost a
/// runtime metadata lookup.
@usableFromInline
enum ReducingOutcome {
    /// Keep going; nothing to publish yet.
    case `continue`
    /// The answer is known now: publish ``ReducingStrategy/finalValue()`` (if any), finish, and
    /// cancel the upstream.
    case finish
    /// A `try` closure threw: fail downstream with ``ReducingStrategy/takeFailure()`` and cancel
    /// the upstream.
    case failure
}

/// The per-operator part of a reducing operator: the running result and how each value changes it.
///
/// A strategy is only ever touched from the upstream's (serialised) `receive` calls, so it needs no
/// lock of its own.
@usableFromInline
protocol ReducingStrategy {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error

    /// Apple's name for the operator, used as the subscription's `description`.
    static var operatorName: String { get }

    /// Folds one value into the running result.
    mutating func receive(_ input: Input) -> ReducingOutcome

    /// The value to publish when the upstream finishes or the strategy finishes early, or `nil`
    /// to finish empty.
    mutating func finalValue() -> Output?

    /// The error behind a `.failure` outcome.
    mutating func takeFailure() -> Failure

    /// Converts an upstream failure to the operator's failure type.
    static func convert(_ failure: UpstreamFailure) -> Failure
}

extension ReducingStrategy {
    @inlinable
    mutating func takeFailure() -> Failure {
        APIViolation.unexpected("\(Self.operatorName) reported a failure without an error")
    }
}

extension ReducingStrategy where Failure == UpstreamFailure {
    @inlinable
    static func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

extension ReducingStrategy where Failure == any Error {
    @inlinable
    static func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

/// The guarded part of a ``ReducingStage``.
@usableFromInline
struct ReducingStageState<Output, Failure: Error> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription
        case running(any Subscription)
        /// The result is ready but the downstream has not asked for anything yet.
        case holding(Output)
        case terminal
    }

    @usableFromInline var phase: Phase = .awaitingSubscription
    @usableFromInline var hasDemand = false
    /// Whether the downstream has been handed this stage. Apple asks the upstream for everything
    /// before that, so a synchronous upstream can end before the downstream knows of us; its
    /// completion waits here until the subscription has gone out.
    @usableFromInline var subscriptionSent = false
    @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?

    @inlinable init() {}
}

/// The subscription a reducing operator hands downstream; also the subscriber it attaches upstream.
@usableFromInline
final class ReducingStage<Downstream: Subscriber, Strategy: ReducingStrategy>:
    Subscriber, Subscription, ReflectsAsOperator
where Downstream.Input == Strategy.Output, Downstream.Failure == Strategy.Failure {
    @usableFromInline typealias Input = Strategy.Input
    @usableFromInline typealias Failure = Strategy.UpstreamFailure
    @usableFromInline typealias State = ReducingStageState<Strategy.Output, Strategy.Failure>

    @usableFromInline let downstream: Downstream
    /// Only touched from upstream deliveries, which Combine serialises, so the dynamic exclusivity
    /// check is skipped; debug builds check the serialisation instead (``serialCalls``).
    @exclusivity(unchecked) @usableFromInline var strategy: Strategy
    @usableFromInline let serialCalls = SerialCallCheck()
    @usableFromInline let state: LockedState<State>
    /// Set once no more upstream values matter; lets the per-value path skip the lock.
    @usableFromInline let upstreamDone = Atomic<Bool>(false)

    @inlinable
    init(downstream: Downstream, strategy: Strategy) {
        self.downstream = downstream
        self.strategy = strategy
        self.state = LockedState(State())
    }

    // MARK: Subscriber (upstream side)

    @usableFromInline
    func receive(subscription: any Subscription) {
        let accepted: Bool = state.withLock { state in
            guard case .awaitingSubscription = state.phase else { return false }
            state.phase = .running(subscription)
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        // Apple asks for everything before the downstream even sees the subscription.
        subscription.request(.unlimited)
        downstream.receive(subscription: self)
        let pending: Subscribers.Completion<Strategy.Failure>? = state.withLock { state in
            state.subscriptionSent = true
            defer { state.pendingCompletion = nil }
            return state.pendingCompletion
        }
        if let pending { downstream.receive(completion: pending) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let outermost = serialCalls.enter(Strategy.operatorName)
        defer { serialCalls.leave(outermost) }
        if upstreamDone.load(ordering: .acquiring) { return .none }
        switch strategy.receive(input) {
        case .continue:
            return .none
        case .finish:
            finishEarly()
            return .none
        case .failure:
            failEarly()
            return .none
        }
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        let outermost = serialCalls.enter(Strategy.operatorName)
        defer { serialCalls.leave(outermost) }
        if upstreamDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        switch completion {
        case .failure(let error):
            end(with: .failure(Strategy.convert(error)), cancelling: false)
        case .finished:
            let output = strategy.finalValue()
            deliverOrHold(output, cancelling: false)
        }
    }

    // Out of line: ending needs `Subscribers.Completion` metadata the per-value path should not
    // look up on every value when it runs unspecialised.
    @usableFromInline
    @inline(never)
    func finishEarly() {
        if upstreamDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        deliverOrHold(strategy.finalValue(), cancelling: true)
    }

    @usableFromInline
    @inline(never)
    func failEarly() {
        if upstreamDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        end(with: .failure(strategy.takeFailure()), cancelling: true)
    }

    /// Ends the stream without a value, deferring the completion if the downstream has not been
    /// handed the subscription yet.
    @usableFromInline
    func end(with completion: Subscribers.Completion<Strategy.Failure>, cancelling: Bool) {
        let outcome: (upstream: any Subscription, sendNow: Bool)? = state.withLock { state in
            guard case .running(let subscription) = state.phase else { return nil }
            state.phase = .terminal
            if !state.subscriptionSent {
                state.pendingCompletion = completion
                return (subscription, false)
            }
            return (subscription, true)
        }
        guard let outcome else { return }
        if cancelling { outcome.upstream.cancel() }
        if outcome.sendNow { downstream.receive(completion: completion) }
    }

    @usableFromInline
    enum Decision { case ignore, deliver(any Subscription), hold(any Subscription) }

    /// Publishes the result now if the downstream has asked for something, otherwise keeps it until
    /// it does. A missing result needs no demand: the completion alone goes out at once.
    @usableFromInline
    func deliverOrHold(_ output: Strategy.Output?, cancelling: Bool) {
        guard let output else {
            end(with: .finished, cancelling: cancelling)
            return
        }
        let decision: Decision = state.withLock { state in
            guard case .running(let subscription) = state.phase else { return .ignore }
            if !state.hasDemand {
                state.phase = .holding(output)
                return .hold(subscription)
            }
            state.phase = .terminal
            return .deliver(subscription)
        }
        switch decision {
        case .ignore:
            return
        case .hold(let upstream):
            if cancelling { upstream.cancel() }
        case .deliver(let upstream):
            if cancelling { upstream.cancel() }
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        }
    }

    // MARK: Subscription (downstream side)

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:)")
        let held: Strategy.Output? = state.withLock { state in
            switch state.phase {
            case .holding(let output):
                state.phase = .terminal
                return output
            case .awaitingSubscription, .running:
                state.hasDemand = true
                return nil
            case .terminal:
                return nil
            }
        }
        guard let held else { return }
        _ = downstream.receive(held)
        downstream.receive(completion: .finished)
    }

    @usableFromInline
    func cancel() {
        upstreamDone.store(true, ordering: .releasing)
        let upstream: (any Subscription)? = state.withLock { state in
            defer {
                state.phase = .terminal
                state.pendingCompletion = nil
            }
            if case .running(let subscription) = state.phase { return subscription }
            return nil
        }
        upstream?.cancel()
    }

    // MARK: Reflection

    @usableFromInline
    var description: String { Strategy.operatorName }
}

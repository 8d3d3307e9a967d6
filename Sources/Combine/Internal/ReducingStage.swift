import Synchronization
import TributaryLocks

// The machinery behind every operator that folds its whole upstream into at most one value:
// collect, count, first, last, contains, allSatisfy, reduce, min/max and their `try` and `where`
// variants. Apple gives all of them the same shape: hand the subscription downstream, then ask
// the upstream for everything at once, remember a running result, and publish that result (then
// finish) either when the upstream finishes or as soon as the answer is known (`first`,
// `contains`, `allSatisfy`), cancelling the upstream in the latter case. The end (result or not)
// waits for downstream demand; a failure does not.
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
protocol ReducingStrategy: FailureConverting {
    associatedtype Input
    associatedtype Output

    /// Apple's name for the operator, used as the subscription's `description`.
    static var operatorName: String { get }

    /// Folds one value into the running result.
    mutating func receive(_ input: Input) -> ReducingOutcome

    /// The value to publish when the upstream finishes or the strategy finishes early, or `nil`
    /// to finish empty.
    mutating func finalValue() -> Output?

    /// The error behind a `.failure` outcome.
    mutating func takeFailure() -> Failure

    /// The running result and the starting value as the stage's mirror shows them (Apple's
    /// children `result` and `initial`); `nil` where the operator has none.
    var reflectedResult: Any? { get }
    var reflectedInitial: Any? { get }

    /// The labels of the stage's mirror, when they are not Apple's usual `downstream`, `result`,
    /// `initial`, `status` (`collect()` shows only `count`).
    func mirrorChildren(downstream: Any, status: String) -> [(label: String?, value: Any)]
}

extension ReducingStrategy {
    @inlinable
    mutating func takeFailure() -> Failure {
        APIViolation.unexpected("\(Self.operatorName) reported a failure without an error")
    }

    @usableFromInline
    var reflectedResult: Any? { nil }

    @usableFromInline
    var reflectedInitial: Any? { nil }

    @usableFromInline
    func mirrorChildren(downstream: Any, status: String) -> [(label: String?, value: Any)] {
        [("downstream", downstream), ("result", reflectedResult as Any), ("initial", reflectedInitial as Any), ("status", status)]
    }
}


/// The guarded part of a ``ReducingStage``.
@usableFromInline
struct ReducingStageState<Output> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription
        case running(any Subscription)
        /// The upstream is done (finished, or the answer is known) but the downstream has not
        /// asked for anything yet: the result, if any, and `finished` wait here.
        case holding(Output?)
        case terminal
    }

    @usableFromInline var phase: Phase = .awaitingSubscription
    @usableFromInline var hasDemand = false

    @inlinable init() {}

    /// How the mirror's `status` child shows the phase.
    @usableFromInline
    var statusDescription: String {
        switch phase {
        case .awaitingSubscription: return "awaitingSubscription"
        case .running(let subscription): return "subscribed(\(subscription))"
        case .holding: return "pendingTerminal"
        case .terminal: return "terminal"
        }
    }
}

/// Where a ``ReducingStage`` stands, readable without its lock on the per-value path.
@usableFromInline
enum ReducingProgress {
    @usableFromInline static let awaiting: UInt8 = 0
    @usableFromInline static let running: UInt8 = 1
    /// No upstream event matters any more (completed, answered, failed or cancelled).
    @usableFromInline static let done: UInt8 = 2
}

/// The subscription a reducing operator hands downstream; also the subscriber it attaches upstream.
@usableFromInline
final class ReducingStage<Downstream: Subscriber, Strategy: ReducingStrategy>:
    Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Strategy.Output, Downstream.Failure == Strategy.Failure {
    @usableFromInline typealias Input = Strategy.Input
    @usableFromInline typealias Failure = Strategy.UpstreamFailure
    @usableFromInline typealias State = ReducingStageState<Strategy.Output>

    @usableFromInline let downstream: Downstream
    /// Only touched from upstream deliveries, which Combine serialises, so the dynamic exclusivity
    /// check is skipped; debug builds check the serialisation instead (``serialCalls``).
    @exclusivity(unchecked) @usableFromInline var strategy: Strategy
    @usableFromInline let serialCalls = SerialCallCheck()
    @usableFromInline let state: LockedState<State>
    /// A ``ReducingProgress`` value; lets the per-value path skip the lock.
    @usableFromInline let progress = Atomic<UInt8>(ReducingProgress.awaiting)

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
        progress.store(ReducingProgress.running, ordering: .releasing)
        // As Apple's: the downstream sees the subscription before the upstream is asked for
        // anything, so inside its `receive(subscription:)` the upstream has had no request yet.
        downstream.receive(subscription: self)
        let stillRunning: Bool = state.withLock { state in
            if case .running = state.phase { return true }
            return false
        }
        if stillRunning { subscription.request(.unlimited) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let outermost = serialCalls.enter(Strategy.operatorName)
        defer { serialCalls.leave(outermost) }
        // Before the subscription (Apple ignores the value without calling the closure) and
        // after the end alike, nothing is done.
        guard progress.load(ordering: .acquiring) == ReducingProgress.running else { return .none }
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
        // A completion before the subscription is ignored, as on Apple's platforms.
        guard takeOver() else { return }
        switch completion {
        case .failure(let error):
            fail(with: Strategy.convert(error), cancelling: false)
        case .finished:
            let output = strategy.finalValue()
            deliverOrHold(output, cancelling: false)
        }
    }

    /// Moves from running to done; whether this call did so.
    @usableFromInline
    func takeOver() -> Bool {
        progress.compareExchange(
            expected: ReducingProgress.running, desired: ReducingProgress.done,
            ordering: .acquiringAndReleasing
        ).exchanged
    }

    // Out of line: ending needs `Subscribers.Completion` metadata the per-value path should not
    // look up on every value when it runs unspecialised.
    @usableFromInline
    @inline(never)
    func finishEarly() {
        guard takeOver() else { return }
        deliverOrHold(strategy.finalValue(), cancelling: true)
    }

    @usableFromInline
    @inline(never)
    func failEarly() {
        guard takeOver() else { return }
        fail(with: strategy.takeFailure(), cancelling: true)
    }

    /// Fails downstream at once, whatever the demand. As Apple's stage does, it lets go of the
    /// upstream subscription before the downstream hears of an upstream failure, but keeps it
    /// until after delivery when it cancels it itself (a `try` closure threw).
    @usableFromInline
    func fail(with error: Strategy.Failure, cancelling: Bool) {
        if cancelling {
            guard let upstream = takeUpstream() else { return }
            upstream.cancel()
            downstream.receive(completion: .failure(error))
            withExtendedLifetime(upstream) {}
        } else {
            guard takeUpstream() != nil else { return }
            downstream.receive(completion: .failure(error))
        }
    }

    /// Ends the running phase; the upstream subscription if this call did so.
    @usableFromInline
    func takeUpstream() -> (any Subscription)? {
        state.withLock { state in
            guard case .running(let subscription) = state.phase else { return nil }
            state.phase = .terminal
            return subscription
        }
    }

    /// Publishes the result (if any) and `finished` now if the downstream has asked for
    /// something, otherwise keeps them until it does. The upstream subscription is let go of
    /// before anything goes downstream when the upstream finished, and after delivery when the
    /// answer came early and the stage cancels it itself, as Apple's stage does.
    @usableFromInline
    func deliverOrHold(_ output: Strategy.Output?, cancelling: Bool) {
        let decision: (upstream: (any Subscription)?, deliver: Bool)? = state.withLock { state in
            guard case .running(let subscription) = state.phase else { return nil }
            let deliver = state.hasDemand
            state.phase = deliver ? .terminal : .holding(output)
            return (cancelling ? subscription : nil, deliver)
        }
        guard let decision else { return }
        decision.upstream?.cancel()
        guard decision.deliver else { return }
        if let output { _ = downstream.receive(output) }
        downstream.receive(completion: .finished)
        withExtendedLifetime(decision) {}
    }

    // MARK: Subscription (downstream side)

    @usableFromInline
    enum RequestAction { case none, deliver(Strategy.Output?) }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:)")
        let action: RequestAction = state.withLock { state in
            switch state.phase {
            case .holding(let output):
                state.phase = .terminal
                return .deliver(output)
            case .awaitingSubscription, .running:
                state.hasDemand = true
                return .none
            case .terminal:
                return .none
            }
        }
        guard case .deliver(let held) = action else { return }
        if let held { _ = downstream.receive(held) }
        downstream.receive(completion: .finished)
    }

    /// Before the upstream's subscription has arrived, a cancel does nothing at all, as on
    /// Apple's platforms: a subscription arriving later is asked for everything as usual.
    @usableFromInline
    func cancel() {
        let (wasLive, upstream): (Bool, (any Subscription)?) = state.withLock { state in
            switch state.phase {
            case .awaitingSubscription:
                return (false, nil)
            case .running(let subscription):
                state.phase = .terminal
                return (true, subscription)
            case .holding:
                state.phase = .terminal
                return (true, nil)
            case .terminal:
                return (false, nil)
            }
        }
        guard wasLive else { return }
        progress.store(ReducingProgress.done, ordering: .releasing)
        upstream?.cancel()
    }

    // MARK: Reflection

    @usableFromInline
    var description: String { Strategy.operatorName }

    @usableFromInline
    var playgroundDescription: Any { description }

    @usableFromInline
    var customMirror: Mirror {
        let status = state.withLock { $0.statusDescription }
        return Mirror(self, children: strategy.mirrorChildren(downstream: downstream, status: status))
    }
}

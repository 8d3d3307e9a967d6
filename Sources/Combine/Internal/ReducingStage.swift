import Synchronization

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
@usableFromInline
enum ReducingStep<Output, Failure: Error> {
    /// Keep going; nothing to publish yet.
    case `continue`
    /// The answer is known now: publish it (if any), finish, and cancel the upstream.
    case finish(Output?)
    /// A `try` closure threw: fail downstream and cancel the upstream.
    case failure(Failure)
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
    mutating func receive(_ input: Input) -> ReducingStep<Output, Failure>

    /// The value to publish when the upstream finishes normally, or `nil` to finish empty.
    mutating func finalValue() -> Output?

    /// Converts an upstream failure to the operator's failure type.
    static func convert(_ failure: UpstreamFailure) -> Failure
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
struct ReducingStageState<Output> {
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

    @inlinable init() {}
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
    /// Only touched from upstream deliveries, which Combine serialises.
    @usableFromInline var strategy: Strategy
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
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if upstreamDone.load(ordering: .acquiring) { return .none }
        switch strategy.receive(input) {
        case .continue:
            return .none
        case .finish(let output):
            finishEarly(with: output)
            return .none
        case .failure(let error):
            failEarly(error)
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        if upstreamDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        switch completion {
        case .failure(let error):
            let live: Bool = state.withLock { state in
                guard case .running = state.phase else { return false }
                state.phase = .terminal
                return true
            }
            if live { downstream.receive(completion: .failure(Strategy.convert(error))) }
        case .finished:
            let output = strategy.finalValue()
            deliverOrHold(output, cancelling: false)
        }
    }

    @usableFromInline
    func finishEarly(with output: Strategy.Output?) {
        if upstreamDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        deliverOrHold(output, cancelling: true)
    }

    @usableFromInline
    func failEarly(_ error: Strategy.Failure) {
        if upstreamDone.exchange(true, ordering: .acquiringAndReleasing) { return }
        let upstream: (any Subscription)? = state.withLock { state in
            guard case .running(let subscription) = state.phase else { return nil }
            state.phase = .terminal
            return subscription
        }
        guard let upstream else { return }
        upstream.cancel()
        downstream.receive(completion: .failure(error))
    }

    /// Publishes the result now if the downstream has asked for something, otherwise keeps it until
    /// it does. A missing result needs no demand: the completion alone goes out at once.
    @usableFromInline
    enum Decision { case ignore, deliver(any Subscription), hold(any Subscription) }

    @usableFromInline
    func deliverOrHold(_ output: Strategy.Output?, cancelling: Bool) {
        let decision: Decision = state.withLock { state in
            guard case .running(let subscription) = state.phase else { return .ignore }
            if let output, !state.hasDemand {
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
            if let output { _ = downstream.receive(output) }
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
            defer { state.phase = .terminal }
            if case .running(let subscription) = state.phase { return subscription }
            return nil
        }
        upstream?.cancel()
    }

    // MARK: Reflection

    @usableFromInline
    var description: String { Strategy.operatorName }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}

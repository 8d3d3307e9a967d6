import Synchronization
import TributaryLocks

// The machinery behind the operators that sit between their upstream and downstream and look at
// each value on its way through, but (unlike `map`) wrap the upstream subscription because they
// may drop values, stop early, fail, or need to adjust demand: filter, compactMap, tryMap,
// removeDuplicates, scan, drop(while:), prefix(while:), dropFirst, output(in:), replaceEmpty and
// their `try` variants.
//
// One final class, generic over a small strategy struct, serves all of them. Per value it costs an
// atomic load and one statically dispatched call into the strategy: no lock, no allocation.

/// What a ``FilteringStrategy`` did with one upstream value.
///
/// Deliberately not generic: the stages usually run as unspecialised generic code (the upstream
/// reaches them through `any Subscription`), where every value of a generic enum would cost a
/// runtime metadata lookup. The strategy hands values to the downstream itself instead.
@usableFromInline
enum FilteringOutcome {
    /// Keep going; return this demand to the upstream (`.max(1)` for a swallowed value, the
    /// downstream's answer for a published one, `.none` for a value requested in advance).
    case demand(Subscribers.Demand)
    /// Stop: cancel the upstream and finish (any last value has already been published).
    case finish
    /// A `try` closure threw; the error is kept for ``FilteringStrategy/takeFailure()``.
    case failure
}

/// The per-operator part of a filtering-style operator.
///
/// Only ever touched from the upstream's (serialised) `receive` calls.
@usableFromInline
protocol FilteringStrategy {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error

    /// Apple's name for the operator, used as the subscription's `description`.
    static var operatorName: String { get }

    /// Extra demand added to the downstream's first request (`dropFirst` asks for the values it
    /// will swallow together with the ones the downstream wants).
    var extraInitialDemand: Int { get }

    /// Handles one value, publishing to `downstream` whatever it lets through.
    mutating func receive<Downstream: Subscriber>(_ input: Input, downstream: Downstream) -> FilteringOutcome
    where Downstream.Input == Output, Downstream.Failure == Failure

    /// A value to publish before `.finished` when the upstream finishes (`replaceEmpty`).
    mutating func valueBeforeFinishing() -> Output?

    /// The error behind a `.failure` outcome.
    mutating func takeFailure() -> Failure

    /// Converts an upstream failure to the operator's failure type.
    static func convert(_ failure: UpstreamFailure) -> Failure
}

extension FilteringStrategy {
    @inlinable
    var extraInitialDemand: Int { 0 }

    @inlinable
    mutating func valueBeforeFinishing() -> Output? { nil }

    @inlinable
    mutating func takeFailure() -> Failure {
        APIViolation.unexpected("\(Self.operatorName) reported a failure without an error")
    }
}

extension FilteringStrategy where Failure == UpstreamFailure {
    @inlinable
    static func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

extension FilteringStrategy where Failure == any Error {
    @inlinable
    static func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

/// The guarded part of a ``FilteringStage``: only the subscribe/request/cancel/complete paths take
/// the lock.
@usableFromInline
struct FilteringStageState<Output> {
    @usableFromInline var status: SubscriptionStatus = .awaitingSubscription
    @usableFromInline var extraDemand: Int
    @usableFromInline var hasDemand = false
    /// A final value waiting for demand (only `replaceEmpty` produces one).
    @usableFromInline var pending: Output?

    @inlinable init(extraDemand: Int) { self.extraDemand = extraDemand }
}

/// The subscription a filtering-style operator hands downstream; also its upstream subscriber.
@usableFromInline
final class FilteringStage<Downstream: Subscriber, Strategy: FilteringStrategy>:
    Subscriber, Subscription, ReflectsAsOperator
where Downstream.Input == Strategy.Output, Downstream.Failure == Strategy.Failure {
    @usableFromInline typealias Input = Strategy.Input
    @usableFromInline typealias Failure = Strategy.UpstreamFailure

    @usableFromInline let downstream: Downstream
    /// Only touched from upstream deliveries, which Combine serialises, so the dynamic exclusivity
    /// check is skipped; debug builds check the serialisation instead (``serialCalls``).
    @exclusivity(unchecked) @usableFromInline var strategy: Strategy
    @usableFromInline let serialCalls = SerialCallCheck()
    @usableFromInline let state: LockedState<FilteringStageState<Strategy.Output>>
    /// Set once no more upstream values may pass (completed, cancelled, failed).
    @usableFromInline let done = Atomic<Bool>(false)

    @inlinable
    init(downstream: Downstream, strategy: Strategy) {
        self.downstream = downstream
        self.state = LockedState(FilteringStageState(extraDemand: strategy.extraInitialDemand))
        self.strategy = strategy
    }

    // MARK: Subscriber (upstream side)

    @usableFromInline
    func receive(subscription: any Subscription) {
        let accepted: Bool = state.withLock { $0.status.accept(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let outermost = serialCalls.enter(Strategy.operatorName)
        defer { serialCalls.leave(outermost) }
        if done.load(ordering: .acquiring) { return .none }
        switch strategy.receive(input, downstream: downstream) {
        case .demand(let demand):
            return demand
        case .finish:
            finishFromValue()
            return .none
        case .failure:
            failFromValue()
            return .none
        }
    }

    // The two ways a value can end the stream live out of line: building a completion needs the
    // runtime metadata of `Subscribers.Completion<Failure>`, which unspecialised code would
    // otherwise look up on every value.

    @usableFromInline
    @inline(never)
    func finishFromValue() {
        guard let upstream = terminate() else { return }
        upstream.cancel()
        downstream.receive(completion: .finished)
    }

    @usableFromInline
    @inline(never)
    func failFromValue() {
        let error = strategy.takeFailure()
        guard let upstream = terminate() else { return }
        upstream.cancel()
        downstream.receive(completion: .failure(error))
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        let outermost = serialCalls.enter(Strategy.operatorName)
        defer { serialCalls.leave(outermost) }
        switch completion {
        case .failure(let error):
            guard terminate() != nil else { return }
            downstream.receive(completion: .failure(Strategy.convert(error)))
        case .finished:
            if done.load(ordering: .acquiring) { return }
            let last = strategy.valueBeforeFinishing()
            finish(with: last)
        }
    }

    /// Moves to the terminal state; returns the upstream subscription if this call did so.
    @usableFromInline
    func terminate() -> (any Subscription)? {
        if done.exchange(true, ordering: .acquiringAndReleasing) { return nil }
        return state.withLock { state in state.status.terminate() }
    }

    @usableFromInline
    func finish(with last: Strategy.Output?) {
        if done.exchange(true, ordering: .acquiringAndReleasing) { return }
        let sendNow: Bool? = state.withLock { state in
            guard case .subscribed = state.status else { return nil }
            state.status = .terminal
            if let last, !state.hasDemand {
                state.pending = last
                return false
            }
            return true
        }
        guard sendNow == true else { return }
        if let last { _ = downstream.receive(last) }
        downstream.receive(completion: .finished)
    }

    // MARK: Subscription (downstream side)

    @usableFromInline
    enum RequestAction { case none, forward(any Subscription, Subscribers.Demand), deliver(Strategy.Output) }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:)")
        let action: RequestAction = state.withLock { state in
            if let pending = state.pending {
                state.pending = nil
                state.status = .terminal
                return .deliver(pending)
            }
            guard case .subscribed(let upstream) = state.status else { return .none }
            state.hasDemand = true
            var total = demand
            if state.extraDemand > 0 {
                total += state.extraDemand
                state.extraDemand = 0
            }
            return .forward(upstream, total)
        }
        switch action {
        case .none:
            return
        case .forward(let upstream, let total):
            upstream.request(total)
        case .deliver(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        }
    }

    @usableFromInline
    func cancel() {
        done.store(true, ordering: .releasing)
        let upstream = state.withLock { state -> (any Subscription)? in
            state.pending = nil
            return state.status.terminate()
        }
        upstream?.cancel()
    }

    // MARK: Reflection

    @usableFromInline
    var description: String { Strategy.operatorName }
}

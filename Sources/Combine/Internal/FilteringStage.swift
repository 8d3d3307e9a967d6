import Synchronization
import TributaryLocks

// The machinery behind the operators that sit between their upstream and downstream and look at
// each value on its way through, but (unlike the stateless stages, `StatelessStage`) wrap the
// upstream subscription because they may drop values, stop early, fail, or need to adjust demand
// or reject events that break the contract: `tryFilter`, `tryCompactMap`, `tryScan`,
// `removeDuplicates`, `drop(while:)`, `prefix(while:)` and the `try` forms of the last three.
//
// One final class, generic over a small strategy struct, serves all of them. Per value it costs an
// atomic load and one statically dispatched call into the strategy: no lock, no allocation.

/// What a ``FilteringStrategy`` did with one upstream value.
///
/// Not generic over the value: the strategy hands values to the downstream itself, so the outcome
/// never carries one, and the stage's paths that run unspecialised (`request(_:)` and `cancel()`,
/// reached through the `Subscription` existential) never look up an outcome's metadata.
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
protocol FilteringStrategy: FailureConverting {
    associatedtype Input
    associatedtype Output

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

    /// Whether a value, a completion or a request that arrives before the upstream's
    /// subscription stops the process, as Apple's filter-like family does (`tryFilter`,
    /// `tryCompactMap`, `prefix(while:)`, `removeDuplicates` and their `try` forms). The other
    /// users of the stage handle such events as usual.
    static var trapsBeforeSubscription: Bool { get }

    /// Whether the stage ignores a value or a completion that arrives before the upstream's
    /// subscription, as Apple's `drop(while:)` and `tryDrop(while:)` do: the value is not shown to
    /// the closure and returns `.none`, the completion does not end the stage (spec §8).
    static var ignoresEventsBeforeSubscription: Bool { get }

    /// Whether a downstream cancel that comes before the upstream's subscription is ignored, as
    /// Apple's `drop(while:)`, `tryDrop(while:)` and `tryScan` ignore it: the late subscription
    /// is then handed downstream as if nothing had happened (spec §6). Otherwise the stage
    /// remembers the cancel and cancels the late subscription, as the filter-like family does.
    static var ignoresCancelBeforeSubscription: Bool { get }

    /// Whether upstream completions leave the stage running, as Apple's `tryScan` does: each one
    /// that arrives while subscribed is passed on, the upstream's subscription is kept (later
    /// requests and a cancel still reach it), and one that arrives before the subscription or
    /// after a cancel is dropped (spec §12). So is the stage's own failure (a `try` closure
    /// threw) before the subscription: there is no subscriber-facing subscription to end yet.
    static var forwardsEveryCompletion: Bool { get }

    /// Whether the upstream subscription is let go of only after the downstream has heard of an
    /// upstream completion, as Apple's filter-like family does; otherwise before.
    static var releasesUpstreamAfterCompletion: Bool { get }

    /// Whether values that arrive after an upstream completion or a cancel are dropped. Apple's
    /// `tryScan` does not drop them: it keeps folding and passing them on (until its own closure
    /// throws, after which nothing more goes out here).
    static var gatesValuesAfterEnd: Bool { get }

    /// The labelled children of the stage's mirror (none unless the operator names some), given
    /// the subscriber and where the stage stands with its upstream.
    func mirrorChildren(downstream: Any, status: Any) -> [(label: String?, value: Any)]
}

extension FilteringStrategy {
    @inlinable
    var extraInitialDemand: Int { 0 }

    @inlinable
    mutating func valueBeforeFinishing() -> Output? { nil }

    @inlinable
    static var trapsBeforeSubscription: Bool { false }

    @inlinable
    static var ignoresEventsBeforeSubscription: Bool { false }

    @inlinable
    static var ignoresCancelBeforeSubscription: Bool { false }

    @inlinable
    static var forwardsEveryCompletion: Bool { false }

    @inlinable
    static var releasesUpstreamAfterCompletion: Bool { false }

    @inlinable
    static var gatesValuesAfterEnd: Bool { true }

    @usableFromInline
    func mirrorChildren(downstream: Any, status: Any) -> [(label: String?, value: Any)] { [] }

    @inlinable
    mutating func takeFailure() -> Failure {
        APIViolation.unexpected("\(Self.operatorName) reported a failure without an error")
    }
}

/// The strategy of one of Apple's filter-like stages (`tryFilter`, `tryCompactMap`,
/// `prefix(while:)`, `removeDuplicates` and their `try` forms): an event before the subscription
/// stops the process, the upstream is let go of only after its completion has been passed on, and
/// the mirror shows the downstream.
@usableFromInline
protocol FilterLikeStrategy: FilteringStrategy {}

extension FilterLikeStrategy {
    @inlinable
    static var trapsBeforeSubscription: Bool { true }

    @inlinable
    static var releasesUpstreamAfterCompletion: Bool { true }

    @usableFromInline
    func mirrorChildren(downstream: Any, status: Any) -> [(label: String?, value: Any)] { [("downstream", downstream)] }
}


extension APIViolation {
    /// An upstream broke the contract by sending an event before its subscription, to an
    /// operator that, like Apple's, stops the process for it.
    @usableFromInline
    @inline(never)
    static func eventBeforeSubscription(_ operatorName: String, _ event: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        misuse("\(operatorName) received \(event) before its subscription", file: file, line: line)
    }
}

/// Where a ``FilteringStage`` stands, readable without its lock on the per-value path.
@usableFromInline
enum FilteringProgress {
    @usableFromInline static let awaiting: UInt8 = 0
    @usableFromInline static let running: UInt8 = 1
    /// No more upstream values may pass (completed, cancelled, failed).
    @usableFromInline static let done: UInt8 = 2
    /// Ended by the operator's own failure (a `try` closure threw): nothing more goes out.
    @usableFromInline static let failed: UInt8 = 3
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
    /// A ``FilteringProgress`` value.
    @usableFromInline let progress = Atomic<UInt8>(FilteringProgress.awaiting)

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
        _ = progress.compareExchange(
            expected: FilteringProgress.awaiting, desired: FilteringProgress.running, ordering: .acquiringAndReleasing)
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let outermost = serialCalls.enter(Strategy.operatorName)
        defer { serialCalls.leave(outermost) }
        let now = progress.load(ordering: .acquiring)
        if now != FilteringProgress.running {
            if now == FilteringProgress.failed { return .none }
            if now == FilteringProgress.done {
                if Strategy.gatesValuesAfterEnd { return .none }
            } else if Strategy.trapsBeforeSubscription {
                APIViolation.eventBeforeSubscription(Strategy.operatorName, "a value")
            } else if Strategy.ignoresEventsBeforeSubscription {
                return .none
            }
        }
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
        // A stage without a terminal state for completions has nowhere to send its own failure
        // before the subscription: like Apple's `tryScan`, it drops it and goes on.
        if Strategy.forwardsEveryCompletion, progress.load(ordering: .acquiring) == FilteringProgress.awaiting { return }
        guard let upstream = terminate() else {
            progress.store(FilteringProgress.failed, ordering: .releasing)
            return
        }
        progress.store(FilteringProgress.failed, ordering: .releasing)
        upstream.cancel()
        downstream.receive(completion: .failure(error))
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        let outermost = serialCalls.enter(Strategy.operatorName)
        defer { serialCalls.leave(outermost) }
        let now = progress.load(ordering: .acquiring)
        if now == FilteringProgress.awaiting {
            if Strategy.trapsBeforeSubscription { APIViolation.eventBeforeSubscription(Strategy.operatorName, "a completion") }
            if Strategy.ignoresEventsBeforeSubscription || Strategy.forwardsEveryCompletion { return }
        }
        if Strategy.forwardsEveryCompletion {
            if now == FilteringProgress.running { downstream.receive(completion: completion.mapError(Strategy.convert)) }
            return
        }
        switch completion {
        case .failure(let error):
            guard var upstream = terminate() else { return }
            if !Strategy.releasesUpstreamAfterCompletion { upstream = Subscriptions.empty }
            downstream.receive(completion: .failure(Strategy.convert(error)))
            withExtendedLifetime(upstream) {}
        case .finished:
            if progress.load(ordering: .acquiring) >= FilteringProgress.done { return }
            let last = strategy.valueBeforeFinishing()
            finish(with: last)
        }
    }

    /// Marks the stage done; whether this call did so (a stage its own failure ended stays so).
    @usableFromInline
    func end() -> Bool {
        let previous = progress.exchange(FilteringProgress.done, ordering: .acquiringAndReleasing)
        if previous == FilteringProgress.failed {
            progress.store(FilteringProgress.failed, ordering: .releasing)
            return false
        }
        return previous != FilteringProgress.done
    }

    /// Moves to the terminal state; returns the upstream subscription if this call did so.
    @usableFromInline
    func terminate() -> (any Subscription)? {
        guard end() else { return nil }
        return state.withLock { state in state.status.terminate() }
    }

    @usableFromInline
    func finish(with last: Strategy.Output?) {
        guard end() else { return }
        let upstream: (any Subscription)? = state.withLock { state in
            guard case .subscribed(let upstream) = state.status else { return nil }
            state.status = .terminal
            if let last, !state.hasDemand {
                state.pending = last
                return nil
            }
            return Strategy.releasesUpstreamAfterCompletion ? upstream : Subscriptions.empty
        }
        guard let upstream else { return }
        if let last { _ = downstream.receive(last) }
        downstream.receive(completion: .finished)
        withExtendedLifetime(upstream) {}
    }

    // MARK: Subscription (downstream side)

    @usableFromInline
    enum RequestAction {
        case none, forward(any Subscription, Subscribers.Demand), deliver(Strategy.Output)
        /// A request before the upstream's subscription, which the filter-like family traps on.
        case early
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Subscription.request(_:)")
        let action: RequestAction = state.withLock { state in
            if let pending = state.pending {
                state.pending = nil
                state.status = .terminal
                return .deliver(pending)
            }
            guard case .subscribed(let upstream) = state.status else {
                // Reaching this object as a subscription before it was handed downstream is
                // misuse the filter-like family traps on, as Apple's does (spec §10 rule 1); after
                // a cancel, the request is simply ignored.
                if Strategy.trapsBeforeSubscription, case .awaitingSubscription = state.status { return .early }
                return .none
            }
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
        case .early:
            APIViolation.eventBeforeSubscription(Strategy.operatorName, "a request")
        case .forward(let upstream, let total):
            upstream.request(total)
        case .deliver(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        }
    }

    @usableFromInline
    func cancel() {
        if Strategy.ignoresCancelBeforeSubscription {
            let upstream = state.withLock { state -> (any Subscription)? in
                state.pending = nil
                return state.status.terminateIfSubscribed()
            }
            guard let upstream else { return }
            _ = end()
            upstream.cancel()
            return
        }
        _ = end()
        let upstream = state.withLock { state -> (any Subscription)? in
            state.pending = nil
            return state.status.terminate()
        }
        upstream?.cancel()
    }

    // MARK: Reflection

    @usableFromInline
    var description: String { Strategy.operatorName }

    @usableFromInline
    var customMirror: Mirror {
        let status = state.withLock { $0.status }
        return Mirror(self, children: strategy.mirrorChildren(downstream: downstream, status: status))
    }
}

/// A filtering stage lets go of its upstream's subscription exactly when it cancels it or is done
/// (its upstream's completion, or its own end), and hands only itself downstream, so a subject
/// may keep it inside its subscription when its downstream qualifies too: one object fewer per
/// subscription, and no box to go through per value.
extension FilteringStage: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

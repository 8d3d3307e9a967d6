import Synchronization
import TributaryLocks

/// What differs between `catch` and `tryCatch`: the name they show, how the handler's publisher is
/// obtained (`tryCatch`'s handler may throw instead), and how the replacement's failure reaches the
/// subscriber. Everything else is ``CatchStage``.
@usableFromInline
protocol CatchStrategy {
    associatedtype UpstreamFailure: Error
    associatedtype Replacement: Publisher
    associatedtype Failure: Error

    /// Apple's name for the operator, used as the stage's `description`.
    static var operatorName: String { get }

    /// The publisher to switch to after the upstream failed with `error`, or the error that ends
    /// the stream instead (only `tryCatch`'s handler can throw).
    func replacement(for error: UpstreamFailure) -> Result<Replacement, Failure>

    /// Converts the replacement's failure to the operator's failure type.
    static func convert(_ completion: Subscribers.Completion<Replacement.Failure>) -> Subscribers.Completion<Failure>
}

/// The stage of `catch` and `tryCatch`: the subscription handed to the subscriber. It receives from
/// the original upstream through ``UpstreamSubscriber`` and from the replacement publisher through
/// ``ReplacementSubscriber``; neither can be cancelled, as on Apple's platforms. The
/// ``CatchStateMachine`` under a lock decides; the stage acts outside the lock.
///
/// A value costs no lock while the subscriber's demand is unlimited: the machine would only count
/// it against that demand, which changes nothing, and pass it on. Which sources are in that state
/// is copied into an atomic word (``lockFreeLanes``) under the lock after every change of the
/// machine, and read with acquiring ordering per value. A source's bit is cleared only by that
/// source's own completion, which is never sent while one of its values is being delivered, so a
/// value that finds its bit set is one the machine would pass on too; a bit found clear that
/// another thread is setting just sends the value through the lock. A cancel leaves the bits as
/// they are, since the values that follow it are still passed on (edge spec §17).
@usableFromInline
final class CatchStage<Downstream: Subscriber, Strategy: CatchStrategy>: Subscription, ReflectsAsOperator
where Downstream.Input == Strategy.Replacement.Output, Downstream.Failure == Strategy.Failure {
    @usableFromInline typealias Input = Strategy.Replacement.Output

    /// Receives from the original upstream on behalf of the stage.
    @usableFromInline
    struct UpstreamSubscriber: Subscriber, ReflectsAsOperator {
        @usableFromInline typealias Input = Strategy.Replacement.Output
        @usableFromInline typealias Failure = Strategy.UpstreamFailure

        @usableFromInline let stage: CatchStage
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @usableFromInline init(stage: CatchStage) { self.stage = stage }

        @usableFromInline func receive(subscription: any Subscription) {
            stage.upstreamReceive(subscription: subscription)
        }

        @inlinable func receive(_ input: Input) -> Subscribers.Demand {
            stage.receive(input, from: CatchLanes.upstream)
        }

        @usableFromInline func receive(completion: Subscribers.Completion<Failure>) {
            stage.upstreamReceive(completion: completion)
        }

        @usableFromInline var description: String { Strategy.operatorName }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { stage.mirrorChildren }
    }

    /// Receives from the replacement publisher on behalf of the stage.
    @usableFromInline
    struct ReplacementSubscriber: Subscriber, ReflectsAsOperator {
        @usableFromInline typealias Input = Strategy.Replacement.Output
        @usableFromInline typealias Failure = Strategy.Replacement.Failure

        @usableFromInline let stage: CatchStage
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @usableFromInline init(stage: CatchStage) { self.stage = stage }

        @usableFromInline func receive(subscription: any Subscription) {
            stage.replacementReceive(subscription: subscription)
        }

        @inlinable func receive(_ input: Input) -> Subscribers.Demand {
            stage.receive(input, from: CatchLanes.replacement)
        }

        @usableFromInline func receive(completion: Subscribers.Completion<Failure>) {
            stage.replacementReceive(completion: completion)
        }

        @usableFromInline var description: String { Strategy.operatorName }

        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { stage.mirrorChildren }
    }

    @usableFromInline let downstream: Downstream
    @usableFromInline let strategy: Strategy
    @usableFromInline let state = LockedState(CatchStateMachine())
    /// ``CatchStateMachine/lockFreeLanes`` as of the last change of ``state``; written only
    /// under its lock.
    @usableFromInline let lockFreeLanes = Atomic<UInt8>(0)

    @inlinable
    init(downstream: Downstream, strategy: Strategy) {
        self.downstream = downstream
        self.strategy = strategy
    }

    /// Runs `body` on the machine under the lock and republishes its lock-free lanes. Every change
    /// of the machine goes through here; the store happens on every call, so that a lock-free value
    /// that reads it is ordered after the latest change, as a value taking the lock would be.
    @inlinable
    func withState<Result>(_ body: (inout CatchStateMachine) -> Result) -> Result {
        state.withLock { machine in
            let result = body(&machine)
            lockFreeLanes.store(machine.lockFreeLanes, ordering: .releasing)
            return result
        }
    }

    /// The subscriber to attach to the original upstream.
    @usableFromInline
    var upstreamSubscriber: UpstreamSubscriber { UpstreamSubscriber(stage: self) }

    @inlinable
    func perform(_ action: CatchStateMachine.SubscriptionAction) {
        switch action {
        case .passDownstream: downstream.receive(subscription: self)
        case .request(let subscription, let demand): subscription.request(demand)
        case .none: break
        case .cancel(let subscription): subscription.cancel()
        }
    }

    @inlinable
    func violation(_ rule: String) -> Never {
        APIViolation.upstreamContract(Strategy.operatorName.lowercasedFirst, rule)
    }

    @inlinable
    func deliver(_ input: Input, _ action: CatchStateMachine.ValueAction) -> Subscribers.Demand {
        switch action {
        case .ignore: return .none
        case .violation(let rule): violation(rule)
        case .deliver:
            let more = downstream.receive(input)
            if more != .none { withState { $0.added(more) } }
            return more
        }
    }

    @inlinable
    func upstreamReceive(subscription: any Subscription) {
        perform(withState { $0.upstreamSubscribed(subscription) })
    }

    /// A value from the source `lane` names (one of ``CatchLanes``).
    @inlinable
    func receive(_ input: Input, from lane: UInt8) -> Subscribers.Demand {
        if lockFreeLanes.load(ordering: .acquiring) & lane != 0 { return downstream.receive(input) }
        return receiveCounted(input, from: lane)
    }

    /// The counted path lives out of line, so that the lock-free test and call above stay small
    /// enough to be inlined into the source's delivery.
    @inlinable
    @inline(never)
    func receiveCounted(_ input: Input, from lane: UInt8) -> Subscribers.Demand {
        deliver(input, withState { lane == CatchLanes.upstream ? $0.upstreamValue() : $0.replacementValue() })
    }

    @inlinable
    func upstreamReceive(completion: Subscribers.Completion<Strategy.UpstreamFailure>) {
        // The upstream subscription is let go of only once the completion has been handled.
        var previous: CatchStateMachine.Phase?
        defer { withExtendedLifetime(previous) {} }
        switch completion {
        case .finished:
            switch withState({ previous = $0.phase; return $0.upstreamFinished() }) {
            case .finish: downstream.receive(completion: .finished)
            case .violation(let rule): violation(rule)
            case .ignore, .recover: break
            }
        case .failure(let error):
            switch withState({ previous = $0.phase; return $0.upstreamFailed() }) {
            case .recover: break
            case .violation(let rule): violation(rule)
            case .ignore, .finish: return
            }
            switch strategy.replacement(for: error) {
            case .success(let replacement):
                replacement.subscribe(ReplacementSubscriber(stage: self))
            case .failure(let error):
                if withState({ $0.handlerFailed() }) { downstream.receive(completion: .failure(error)) }
            }
        }
    }

    @inlinable
    func replacementReceive(subscription: any Subscription) {
        perform(withState { $0.replacementSubscribed(subscription) })
    }

    @inlinable
    func replacementReceive(completion: Subscribers.Completion<Strategy.Replacement.Failure>) {
        var previous: CatchStateMachine.Phase?
        defer { withExtendedLifetime(previous) {} }
        if withState({ previous = $0.phase; return $0.replacementCompleted() }) {
            downstream.receive(completion: Strategy.convert(completion))
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Publishers.\(Strategy.operatorName) subscription request(_:)")
        withState { $0.request(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
        withState { $0.cancel() }?.cancel()
    }

    @usableFromInline var description: String { Strategy.operatorName }

    @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> {
        ["downstream": downstream, "demand": state.withLock { $0.demand }]
    }
}

extension String {
    /// `"Catch"` → `"catch"`: the operator's method name, for trap messages.
    @usableFromInline
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

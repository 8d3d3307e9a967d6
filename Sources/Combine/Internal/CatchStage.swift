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

/// The stage of `catch` and `tryCatch`: the subscription handed to the subscriber, the subscriber of
/// the original upstream, and (through ``ReplacementSubscriber``) of the replacement publisher.
/// The ``CatchStateMachine`` under a lock decides; the stage acts outside the lock.
@usableFromInline
final class CatchStage<Downstream: Subscriber, Strategy: CatchStrategy>: Subscriber, Subscription, ReflectsAsOperator
where Downstream.Input == Strategy.Replacement.Output, Downstream.Failure == Strategy.Failure {
    @usableFromInline typealias Input = Strategy.Replacement.Output
    @usableFromInline typealias Failure = Strategy.UpstreamFailure

    /// Receives from the replacement publisher on behalf of the stage (whose own `Subscriber`
    /// conformance is for the original upstream).
    @usableFromInline
    struct ReplacementSubscriber: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Strategy.Replacement.Output
        @usableFromInline typealias Failure = Strategy.Replacement.Failure

        @usableFromInline let stage: CatchStage
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @usableFromInline init(stage: CatchStage) { self.stage = stage }

        @usableFromInline func receive(subscription: any Subscription) {
            stage.replacementReceive(subscription: subscription)
        }

        @inlinable func receive(_ input: Input) -> Subscribers.Demand {
            stage.replacementReceive(input)
        }

        @usableFromInline func receive(completion: Subscribers.Completion<Failure>) {
            stage.replacementReceive(completion: completion)
        }

        @usableFromInline var description: String { Strategy.operatorName }
    }

    @usableFromInline let downstream: Downstream
    @usableFromInline let strategy: Strategy
    @usableFromInline let state = LockedState(CatchStateMachine())

    @usableFromInline
    init(downstream: Downstream, strategy: Strategy) {
        self.downstream = downstream
        self.strategy = strategy
    }

    @usableFromInline
    func perform(_ action: CatchStateMachine.SubscriptionAction) {
        switch action {
        case .passDownstream: downstream.receive(subscription: self)
        case .request(let subscription, let demand): subscription.request(demand)
        case .none: break
        case .cancel(let subscription): subscription.cancel()
        }
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        perform(state.withLock { $0.upstreamSubscribed(subscription) })
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard state.withLock({ $0.upstreamValue() }) else { return .none }
        let more = downstream.receive(input)
        if more != .none { state.withLock { $0.added(more) } }
        return more
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Strategy.UpstreamFailure>) {
        switch completion {
        case .finished:
            if state.withLock({ $0.upstreamFinished() }) { downstream.receive(completion: .finished) }
        case .failure(let error):
            guard state.withLock({ $0.upstreamFailed() }) else { return }
            switch strategy.replacement(for: error) {
            case .success(let replacement):
                replacement.receive(subscriber: ReplacementSubscriber(stage: self))
            case .failure(let error):
                if state.withLock({ $0.handlerFailed() }) { downstream.receive(completion: .failure(error)) }
            }
        }
    }

    @usableFromInline
    func replacementReceive(subscription: any Subscription) {
        perform(state.withLock { $0.replacementSubscribed(subscription) })
    }

    @inlinable
    func replacementReceive(_ input: Input) -> Subscribers.Demand {
        guard state.withLock({ $0.replacementValue() }) else { return .none }
        let more = downstream.receive(input)
        if more != .none { state.withLock { $0.added(more) } }
        return more
    }

    @usableFromInline
    func replacementReceive(completion: Subscribers.Completion<Strategy.Replacement.Failure>) {
        if state.withLock({ $0.replacementCompleted() }) { downstream.receive(completion: Strategy.convert(completion)) }
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Publishers.\(Strategy.operatorName) subscription request(_:)")
        state.withLock { $0.request(demand) }?.request(demand)
    }

    @usableFromInline
    func cancel() {
        state.withLock { $0.cancel() }?.cancel()
    }

    @usableFromInline var description: String { Strategy.operatorName }

    @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> { ["downstream": downstream] }
}

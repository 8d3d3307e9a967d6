import TributaryLocks

/// A stage that wraps one upstream subscription and hands itself to the subscriber in its place,
/// relaying demand and cancellation upstream: the stages of `assertNoFailure`, `breakpoint` and
/// `autoconnect`.
///
/// They differ in what they do with values and completions; the bookkeeping of the upstream
/// subscription kept in `status` is the same for all of them and lives here. No lock is held while
/// the upstream or the downstream is called.
@usableFromInline
protocol RelayStage: AnyObject, Subscription {
    /// Where the upstream subscription stands.
    var status: LockedState<SubscriptionStatus> { get }

    /// Apple's name for the operator: the stage's `description` unless it has its own, and the
    /// name in the message of the zero-demand precondition.
    static var operatorName: String { get }

    /// Whether `request(.none)` is ignored, as Apple's stage does (`autoconnect`);
    /// otherwise it traps, as Apple's does.
    static var ignoresZeroRequest: Bool { get }
}

extension RelayStage {
    @usableFromInline
    var description: String { Self.operatorName }

    @usableFromInline
    static var ignoresZeroRequest: Bool { false }

    /// Keeps `subscription` if it is the first one and returns `true`; otherwise cancels it.
    @usableFromInline
    func acceptUpstream(_ subscription: any Subscription) -> Bool {
        let accepted = status.withLock { $0.accept(subscription) }
        if !accepted { subscription.cancel() }
        return accepted
    }

    /// Whether an upstream completion goes downstream: only the first, and only while subscribed.
    /// The stage is terminal afterwards.
    @usableFromInline
    func endUpstream() -> Bool {
        status.withLock { status in
            guard case .subscribed = status else { return false }
            status = .terminal
            return true
        }
    }

    /// Like ``endUpstream()``, but a completion arriving before any subscription goes through too.
    @usableFromInline
    func endUnlessTerminal() -> Bool {
        status.withLock { status in
            if status.isTerminal { return false }
            status = .terminal
            return true
        }
    }

    /// Passes `demand` to the upstream subscription, if still connected.
    @usableFromInline
    func forwardRequest(_ demand: Subscribers.Demand) {
        status.withLock { $0.subscription }?.request(demand)
    }

    /// Ends the stage and cancels the upstream subscription, if still connected.
    @usableFromInline
    func cancelUpstream() {
        status.withLock { $0.terminate() }?.cancel()
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if demand == .none, Self.ignoresZeroRequest { return }
        demand.assertNonZero("Publishers.\(Self.operatorName) subscription request(_:)")
        forwardRequest(demand)
    }

    @usableFromInline
    func cancel() {
        cancelUpstream()
    }
}

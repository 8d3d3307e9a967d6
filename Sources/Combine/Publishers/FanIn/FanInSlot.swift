/// What a gathering operator (merge, combineLatest, zip, flatMap, switchToLatest) knows about one
/// of its upstreams: the subscription to call, how much it has been granted and not yet used, and
/// whether it has finished.
@usableFromInline
struct FanInSlot {
    /// The upstream's subscription; `nil` before it arrives and after the upstream is done.
    @usableFromInline
    var subscription: (any Subscription)?

    /// Demand requested from this upstream and not yet used by a value.
    @usableFromInline
    var granted: Subscribers.Demand = .none

    /// Whether the upstream completed.
    @usableFromInline
    var finished = false

    @inlinable
    init() {}

    /// Raises the grant to `target`; returns the subscription and the extra demand to request
    /// (outside the lock), or `nil` when the upstream already has enough or cannot be asked.
    @inlinable
    mutating func topUp(to target: Subscribers.Demand) -> (any Subscription, Subscribers.Demand)? {
        guard !finished, let subscription, target > granted else { return nil }
        let extra = target - granted
        granted = target
        return (subscription, extra)
    }

    /// Records that the upstream used one unit of its grant.
    @inlinable
    mutating func consumeOne() {
        granted -= 1
    }

    /// Marks the upstream done and returns its subscription, if any, for cancelling.
    @inlinable
    mutating func close() -> (any Subscription)? {
        finished = true
        let held = subscription
        subscription = nil
        return held
    }

    /// Takes the subscription the upstream hands over and grants it up to `target`; refuses it
    /// (to be cancelled) when the operator no longer accepts upstreams (`accepting` is false),
    /// the upstream has finished, or it already has a subscription.
    @inlinable
    mutating func attach(
        _ subscription: any Subscription, accepting: Bool, grantingUpTo target: Subscribers.Demand
    ) -> FanInSubscriptionAction {
        if !accepting || finished || self.subscription != nil {
            return .cancel(subscription)
        }
        self.subscription = subscription
        if let (held, extra) = topUp(to: target) {
            return .request(held, extra)
        }
        return .none
    }
}

extension ContiguousArray where Element == FanInSlot {
    /// Closes every upstream that has not finished; returns their subscriptions, to cancel
    /// outside the lock.
    @inlinable
    mutating func closeAll() -> ContiguousArray<any Subscription> {
        var held = ContiguousArray<any Subscription>()
        for index in indices where !self[index].finished {
            if let subscription = self[index].close() { held.append(subscription) }
        }
        return held
    }
}

/// What to do, outside the lock, with a subscription an upstream just handed over.
@usableFromInline
enum FanInSubscriptionAction {
    /// Keep it; nothing to request yet.
    case none
    /// Keep it and request this much.
    case request(any Subscription, Subscribers.Demand)
    /// Refuse it: the operator is done, or the upstream already had a subscription.
    case cancel(any Subscription)

    /// Performs the action.
    @inlinable
    func perform() {
        switch self {
        case .none: break
        case .request(let subscription, let demand): subscription.request(demand)
        case .cancel(let subscription): subscription.cancel()
        }
    }
}

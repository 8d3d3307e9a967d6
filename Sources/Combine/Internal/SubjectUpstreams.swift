import TributaryLocks

/// The upstream subscriptions a subject was given with `send(subscription:)` (when it subscribes
/// to a publisher itself), kept by its dispatcher under the mutex. `PassthroughSubject` and
/// `CurrentValueSubject` treat them the same way: ask each for unlimited values once any
/// subscriber has asked for anything, drop them on completion, cancel them when the subject goes.
@usableFromInline
struct SubjectUpstreams {
    /// Subscriptions given to the subject with `send(subscription:)`.
    @usableFromInline var subscriptions: [any Subscription] = []
    /// Whether any subscriber has asked for values yet.
    @usableFromInline var hasDemand = false

    @inlinable
    init() {}

    /// A subscriber's first demand: on the subject's very first one, the upstreams to ask for
    /// values (`nil` on every later one, and when there are none to ask).
    @inlinable
    mutating func recordDemand() -> [any Subscription]? {
        if hasDemand { return nil }
        hasDemand = true
        return subscriptions.isEmpty ? nil : subscriptions
    }
}

extension SubjectDispatcher where Extra == SubjectUpstreams {
    /// Keeps `subscription` as an upstream and asks it for unlimited values: at once when
    /// `demandingAtOnce`, otherwise if a subscriber has already asked for something (else that
    /// first demand will, through ``SubjectUpstreams/recordDemand()``).
    @inlinable
    func keepUpstream(_ subscription: any Subscription, demandingAtOnce: Bool) {
        let demanded = state.withLock { state -> Bool in
            state.extra.subscriptions.append(subscription)
            return demandingAtOnce || state.extra.hasDemand
        }
        if demanded {
            subscription.request(.unlimited)
        }
    }

    /// Ends the stream for every subscriber and lets go of the upstreams (they completed it or
    /// will be dropped with it).
    @inlinable
    func completeAndDropUpstreams(_ completion: Subscribers.Completion<Failure>) {
        complete(completion) { state in state.extra.subscriptions = [] }
    }

    /// Cancels and lets go of every upstream still kept: the subject is going away. (A subject's
    /// connector holds its dispatcher, so an upstream kept here would keep both alive.)
    @inlinable
    func cancelUpstreams() {
        let upstreams = state.withLock { state in
            defer { state.extra.subscriptions = [] }
            return state.extra.subscriptions
        }
        for upstream in upstreams {
            upstream.cancel()
        }
    }
}

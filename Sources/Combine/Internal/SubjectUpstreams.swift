import TributaryLocks

/// The upstream subscriptions a subject was given with `send(subscription:)` (when it subscribes
/// to a publisher itself), kept by its dispatcher under the mutex. `PassthroughSubject` and
/// `CurrentValueSubject` treat them the same way: ask each for unlimited values once any
/// subscriber has asked for anything, drop them on completion, cancel them when the subject goes.
@usableFromInline
struct SubjectUpstreams {
    /// Subscriptions given to the subject with `send(subscription:)`.
    var subscriptions: [any Subscription] = []
    /// Whether any subscriber has asked for values yet.
    var hasDemand = false

    @usableFromInline
    init() {}

    /// A subscriber's first demand: on the subject's very first one, the upstreams to ask for
    /// values (`nil` on every later one, and when there are none to ask).
    mutating func recordDemand() -> [any Subscription]? {
        if hasDemand { return nil }
        hasDemand = true
        return subscriptions.isEmpty ? nil : subscriptions
    }
}

extension SubjectDispatcherCore {
    /// Keeps `subscription` as an upstream and asks it for unlimited values: at once when
    /// `demandingAtOnce`, otherwise if a subscriber has already asked for something (else that
    /// first demand will, through ``SubjectUpstreams/recordDemand()``).
    @usableFromInline
    final func keepUpstream(_ subscription: any Subscription, demandingAtOnce: Bool) {
        let demanded = state.withLock { state -> Bool in
            state.upstreams.subscriptions.append(subscription)
            return demandingAtOnce || state.upstreams.hasDemand
        }
        if demanded {
            subscription.request(.unlimited)
        }
    }

    /// Cancels and lets go of every upstream still kept: the subject is going away. (A subject's
    /// connector holds its dispatcher, so an upstream kept here would keep both alive.)
    @usableFromInline
    final func cancelUpstreams() {
        let upstreams = state.withLock { state in
            defer { state.upstreams.subscriptions = [] }
            return state.upstreams.subscriptions
        }
        for upstream in upstreams {
            upstream.cancel()
        }
    }

    /// Keeps a subscription `assign(to:)` made into a `@Published` property until the property
    /// goes.
    @usableFromInline
    final func keep(_ assignment: AnyCancellable) {
        state.withLock { $0.assignments.append(assignment) }
    }
}

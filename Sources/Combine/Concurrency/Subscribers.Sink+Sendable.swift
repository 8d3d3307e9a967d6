import TributaryLocks

// `@unchecked`: the sink's subscription is kept in a `LockedState` and its "terminated" flag is an
// atomic, so `cancel()` may come from any thread; its two closures are immutable and are called
// only by the upstream, one call at a time, as Combine's contract requires of every subscriber.
extension Subscribers.Sink: @unchecked Sendable {}

import TributaryLocks

// `@unchecked`: a future's only mutable state (the result and the waiting subscriptions) is inside
// its `LockedState`, so sharing one between tasks is safe when what it carries is.
extension Future: @unchecked Sendable where Output: Sendable, Failure: Sendable {}

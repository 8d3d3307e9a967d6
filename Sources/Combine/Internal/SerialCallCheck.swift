import Synchronization

/// In debug builds of the library, catches a publisher that calls into one stage from two threads
/// at once, breaking Combine's rule that calls into one subscriber are serialised. Stages that
/// keep per-value state without a lock (a filter's or a reducer's strategy, `collect(_:)`'s batch)
/// rely on that rule for memory safety: broken, it would corrupt their state silently. Release
/// builds compile this to nothing, so the per-value path keeps its speed.
///
/// A call made again on the same thread while one is in progress (a synchronous upstream that
/// delivers the next value from inside the `request` its subscriber makes while receiving) is
/// allowed: it is serial, only nested.
@usableFromInline
struct SerialCallCheck: ~Copyable {
    #if DEBUG
    /// The thread inside the stage's outermost call, or `0`.
    @usableFromInline
    let holder = Atomic<UInt>(0)
    #endif

    @inlinable
    init() {}

    /// Marks the calling thread as inside a call of `stage` and returns whether this is its
    /// outermost one; traps if another thread is inside.
    @inlinable @inline(__always)
    func enter(_ stage: @autoclosure () -> String) -> Bool {
        #if DEBUG
        let me = currentThreadToken()
        let (exchanged, other) = holder.compareExchange(expected: 0, desired: me, ordering: .acquiring)
        if exchanged { return true }
        if other == me { return false }
        fatalError(
            "Combine API misuse: \(stage()) was called by its upstream from one thread while a call from another thread was still running. A publisher must not call one subscriber's receive(subscription:), receive(_:) or receive(completion:) concurrently (calls into a subscriber are serialised); use a subject or receive(on:) to cross threads."
        )
        #else
        return false
        #endif
    }

    /// Ends the call that ``enter(_:)`` began.
    @inlinable @inline(__always)
    func leave(_ outermost: Bool) {
        #if DEBUG
        if outermost { holder.store(0, ordering: .releasing) }
        #endif
    }
}

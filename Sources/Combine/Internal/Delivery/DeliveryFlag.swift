/// Whether a call is running the delivery loop of an owner whose calls only ever leave work for
/// that loop: `buffer`, `receive(on:)`, `Publishers.Sequence` and `Record`. A call that finds the
/// flag down raises it and delivers, outside the owner's lock, until nothing is left; a call that
/// finds it up (on another thread, or a subscriber's request from inside `receive`) adds its work
/// and returns, and the loop picks the work up. None of them needs to tell its own thread from
/// another, so unlike ``AtomicDeliveryRole`` the flag never reads the thread's identity.
///
/// A pure value, kept in the owner's locked state.
@usableFromInline
struct DeliveryFlag {
    /// Whether a call is delivering.
    @usableFromInline
    var isHeld = false

    @inlinable
    init() {}

    /// Raises the flag, which the caller knows to be down.
    @inlinable @inline(__always)
    mutating func take() {
        isHeld = true
    }

    /// Raises the flag if it is down; `false` when another call is delivering.
    @inlinable @inline(__always)
    mutating func tryTake() -> Bool {
        if isHeld { return false }
        isHeld = true
        return true
    }

    /// Lowers the flag.
    @inlinable @inline(__always)
    mutating func release() {
        isHeld = false
    }
}

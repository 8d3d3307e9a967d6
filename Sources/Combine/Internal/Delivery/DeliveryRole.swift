/// Who is delivering to a subscriber right now: the *deliverer* role that serialises the calls
/// into one subscriber when several threads (or a subscriber's own re-entrant calls) produce
/// work for it, without holding a lock while calling out.
///
/// The fan-in gate (zip, switchToLatest) keeps one in its locked state: it must tell a send made
/// from inside its subscriber from one made on another thread. (Owners whose calls only leave work
/// behind keep a ``DeliveryFlag`` instead.) The owner claims it under its lock when it has work;
/// a thread that gets ``Claim/taken`` performs the work outside the lock, coming back under the
/// lock for the next piece, and releases the role when nothing is left. ``Claim/nested`` means the calling thread
/// already delivers (a subscriber calling back into the operator): the work is left for the loop
/// in progress, which picks it up after the current call returns, instead of recursing.
/// ``Claim/busy`` means another thread delivers: the work is left to it, and a sender then waits
/// for its delivery with ``DeliveryTickets``. The subjects, `flatMap`, `merge` and
/// `combineLatest` keep the same role in an ``AtomicDeliveryRole`` instead, so that an uncontended value takes it without the
/// lock.
///
/// A pure value, kept in the owner's locked state.
@usableFromInline
struct DeliveryRole {
    /// The answer to ``claim()``.
    @usableFromInline
    enum Claim {
        /// The caller now holds the role: it delivers, then releases the role.
        case taken
        /// The caller already holds it: a call from inside the subscriber, on the deliverer's
        /// thread.
        case nested
        /// Another thread holds it.
        case busy
    }

    /// The deliverer's ``currentThreadToken()``, `0` while nobody delivers.
    @usableFromInline
    var holder: UInt = 0

    @inlinable
    init() {}

    /// Whether a thread is delivering.
    @inlinable
    var isHeld: Bool { holder != 0 }

    /// Whether the calling thread holds the role: it is delivering further up its stack.
    @inlinable
    var isHeldByCurrentThread: Bool { holder != 0 && holder == currentThreadToken() }

    /// Takes the role if nobody holds it; otherwise says whether the calling thread holds it.
    @inlinable @inline(__always)
    mutating func claim() -> Claim {
        let token = currentThreadToken()
        if holder == 0 {
            holder = token
            return .taken
        }
        return holder == token ? .nested : .busy
    }

    /// Takes the role, which the caller knows to be free.
    @inlinable @inline(__always)
    mutating func take() {
        holder = currentThreadToken()
    }

    /// Takes the role if nobody holds it, without telling nested from busy: for owners where a
    /// call made while someone delivers only leaves work behind (a request adding demand).
    @inlinable @inline(__always)
    mutating func tryTake() -> Bool {
        if holder != 0 { return false }
        holder = currentThreadToken()
        return true
    }

    /// Gives the role back.
    @inlinable @inline(__always)
    mutating func release() {
        holder = 0
    }
}

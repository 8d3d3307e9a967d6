import Synchronization

/// The *deliverer* role that serialises the calls into one subscriber when several threads (or a
/// subscriber's own re-entrant calls) produce work for it, without holding a lock while calling
/// out, kept in an atomic word so that an uncontended delivery can take it without the owner's
/// lock: the subjects (a `send` to subscribers whose demand is unlimited), `flatMap` (an inner
/// value while the operator is open, nothing is queued and the demand is unlimited), `merge` (the
/// same, while no upstream has finished); the other ``DeliveryEmitter`` operators take it under
/// their lock. Claimed under the lock, it answers with a ``Claim``, and a busy caller waits with
/// ``DeliveryTickets``. (Owners whose calls only leave work behind keep a ``DeliveryFlag``.)
///
/// The word holds the holder's ``currentThreadToken()`` above three flag bits:
/// - ``heldFlag``: a thread holds the role. Its token is in the upper bits, except for a moment
///   after a lock-free take: the taker stores its token right after its compare-and-swap (reading
///   the token first would delay the compare-and-swap), and the word is *frozen* until then.
/// - ``attentionFlag``: set under the owner's lock. While the role is held, it makes the holder's
///   lock-free give-back fail, so the holder comes back through the lock and sees what changed (a
///   queued job, a changed subscriber list). While the role is free, it makes the next lock-free
///   take fail (flatMap keeps it set while the downstream's demand is finite).
/// - ``writingFlag``: a `CurrentValueSubject` sender, or a `@Published` setter after its delivery,
///   is replacing the current value; the word is frozen until it clears the flag. A `@Published`
///   setter that needs no attention gives the role back as it raises the flag (the word is then
///   the flag alone), so the next taker waits until the value is in place.
///
/// `0` therefore means "free, and a lock-free taker may take it". Only the holder changes the
/// token bits; a frozen word is changed only by its holder, with a plain store, so everyone else
/// who changes the word (under the owner's lock) waits while it is frozen, which lasts a few
/// instructions, never user code.
@usableFromInline
struct AtomicDeliveryRole: ~Copyable {
    /// What a thread that wants to deliver finds.
    @usableFromInline
    enum Claim {
        /// The caller now holds the role: it delivers, then gives the role back.
        case taken
        /// The caller already holds it: a call from inside the subscriber, on the deliverer's
        /// thread.
        case nested
        /// Another thread holds it.
        case busy
    }

    @usableFromInline static var heldFlag: UInt { 1 }
    @usableFromInline static var attentionFlag: UInt { 2 }
    @usableFromInline static var writingFlag: UInt { 4 }
    @usableFromInline static var flagBits: UInt { 7 }

    @usableFromInline
    let word: Atomic<UInt>

    /// A free role. `keepingLockFreeTakersOut`: whether it starts with ``attentionFlag`` raised,
    /// for an owner that is not ready for lock-free deliveries yet (flatMap before any demand).
    @inlinable
    init(keepingLockFreeTakersOut: Bool = false) {
        word = Atomic(keepingLockFreeTakersOut ? Self.attentionFlag : 0)
    }

    /// The word as it is now, for a caller that only looks (a relaxed load).
    @inlinable @inline(__always)
    var current: UInt { word.load(ordering: .relaxed) }

    /// The word as it is now, for a caller under the owner's lock that may take the role with a
    /// plain store when it finds it free (an acquiring load): the last holder may have given it
    /// back without the lock, and its deliveries must happen before the taker's.
    @inlinable @inline(__always)
    var currentForTaking: UInt { word.load(ordering: .acquiring) }

    /// Whether a thread holds the role (an acquiring load).
    @inlinable @inline(__always)
    var isHeld: Bool { word.load(ordering: .acquiring) & Self.heldFlag != 0 }

    /// The word a holder on the calling thread stores: its token with ``heldFlag``.
    @inlinable @inline(__always)
    static func heldByCurrentThread() -> UInt {
        currentThreadToken() | heldFlag
    }

    /// Whether only the holder may change `word` now: a writer is replacing a current value, or a
    /// lock-free taker has not stored its token yet.
    @inlinable @inline(__always)
    static func isFrozen(_ word: UInt) -> Bool {
        word & writingFlag != 0 || (word & heldFlag != 0 && word & ~flagBits == 0)
    }

    /// Tells, from a word in which ``heldFlag`` is set, whether the calling thread is the holder.
    @inlinable @inline(__always)
    static func claim(whenHeld word: UInt) -> Claim {
        word & ~flagBits == currentThreadToken() ? .nested : .busy
    }

    // MARK: Without the owner's lock

    /// Takes the role when the word is `0`, then stores the taker's token.
    @inlinable @inline(__always)
    func tryTakeWithoutLock() -> Bool {
        guard word.compareExchange(expected: 0, desired: Self.heldFlag, ordering: .acquiring).exchanged else {
            return false
        }
        word.store(Self.heldByCurrentThread(), ordering: .relaxed)
        return true
    }

    /// Takes the role and the right to write a current value when the word is `0`. The word stays
    /// frozen until the writer calls ``endWriting(storing:)``.
    @inlinable @inline(__always)
    func tryTakeForWritingWithoutLock() -> Bool {
        word.compareExchange(
            expected: 0, desired: Self.heldFlag | Self.writingFlag, ordering: .sequentiallyConsistent
        ).exchanged
    }

    /// Whether a writer is replacing the current value now (for the value's readers).
    @inlinable @inline(__always)
    var isWriting: Bool { word.load(ordering: .sequentiallyConsistent) & Self.writingFlag != 0 }

    /// Waits until no writer is replacing the current value.
    @inlinable
    func waitWhileWriting() {
        while word.load(ordering: .acquiring) & Self.writingFlag != 0 {
            spinBriefly()
        }
    }

    /// Clears ``writingFlag`` by storing `restored`, which the writer read when it raised the flag
    /// (or ``heldByCurrentThread()`` after ``tryTakeForWritingWithoutLock()``).
    @inlinable @inline(__always)
    func endWriting(storing restored: UInt) {
        word.store(restored, ordering: .releasing)
    }

    /// Gives the role back without the lock when nothing needs attention. Returns `false` when
    /// ``attentionFlag`` is set: the holder then comes back through the lock.
    @inlinable @inline(__always)
    func tryGiveBackWithoutLock() -> Bool {
        // Only the holder changes the token bits, so this load tells which word to expect.
        let held = word.load(ordering: .relaxed) & ~Self.flagBits | Self.heldFlag
        return word.compareExchange(expected: held, desired: 0, ordering: .releasing).exchanged
    }

    /// Gives the role back and raises ``writingFlag`` in one compare-and-swap, when nothing needs
    /// attention, for a holder that stores a current value after delivering it (`@Published`).
    /// The word is then frozen, held by nobody, until the writer calls
    /// ``endWriting(storing:)`` with `0`; a taker meanwhile waits for that store. Returns `false`
    /// when ``attentionFlag`` is set, leaving the word unchanged.
    @inlinable @inline(__always)
    func tryGiveBackForWritingWithoutLock() -> Bool {
        let held = word.load(ordering: .relaxed) & ~Self.flagBits | Self.heldFlag
        return word.compareExchange(expected: held, desired: Self.writingFlag, ordering: .sequentiallyConsistent).exchanged
    }

    // MARK: Under the owner's lock

    /// Claims the role under the owner's lock: takes it when it is free (the caller then holds it,
    /// and nothing needs attention), or leaves ``attentionFlag`` set for the thread that holds it
    /// and says whether that is the calling thread. `racingLockFreeTakers`: whether lock-free
    /// takers may take the role at the same time; without them, a role found free under the lock
    /// is taken with a plain store instead of a read-modify-write.
    @inlinable @inline(__always)
    func claimLocked(racingLockFreeTakers: Bool) -> Claim {
        if racingLockFreeTakers || word.load(ordering: .acquiring) != 0 {
            let before = raiseLocked(Self.attentionFlag)
            if before & Self.heldFlag != 0 {
                return Self.claim(whenHeld: before)
            }
        }
        word.store(Self.heldByCurrentThread(), ordering: .releasing)
        return .taken
    }

    /// Under the owner's lock, by a thread that does not hold the role, after the owner's state
    /// changed: raises ``attentionFlag`` when `keepingLockFreeTakersOut`, else clears it (with the
    /// role held, clearing it lets the holder give the role back without the lock), and takes the
    /// role when it is free and `take` (there is something to deliver). Returns whether it took
    /// the role; the taker holds it with ``attentionFlag`` raised until it stores the word its
    /// delivery allows (``storeLocked(_:)``).
    @inlinable
    func settleLocked(take: Bool, keepingLockFreeTakersOut: Bool) -> Bool {
        let attention = keepingLockFreeTakersOut ? Self.attentionFlag : 0
        var current = word.load(ordering: .relaxed)
        while true {
            current = waitWhileFrozen(current)
            let held = current & Self.heldFlag != 0
            let desired: UInt
            if held {
                desired = current & ~Self.attentionFlag | attention
            } else if take {
                desired = Self.heldByCurrentThread() | Self.attentionFlag
            } else {
                desired = attention
            }
            if desired == current { return false }
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged { return !held && take }
            current = original
        }
    }

    /// The word the holder stores to keep the role while it goes on delivering: its token, with
    /// ``attentionFlag`` when `keepingLockFreeTakersOut`. By the holder only.
    @inlinable @inline(__always)
    func heldWord(keepingLockFreeTakersOut: Bool) -> UInt {
        word.load(ordering: .relaxed) & ~Self.flagBits | Self.heldFlag
            | (keepingLockFreeTakersOut ? Self.attentionFlag : 0)
    }

    /// Returns `current`, or once it is frozen, the word as its holder leaves it: only the holder
    /// changes a frozen word, with a plain store that a compare-and-swap made meanwhile would undo.
    @inlinable
    func waitWhileFrozen(_ current: UInt) -> UInt {
        var current = current
        while Self.isFrozen(current) {
            spinBriefly()
            current = word.load(ordering: .relaxed)
        }
        return current
    }

    /// Sets `flag` and returns the word as it was, waiting while the word is frozen (its holder
    /// will overwrite it with a plain store).
    @inlinable
    func raiseLocked(_ flag: UInt) -> UInt {
        var current = word.load(ordering: .relaxed)
        while true {
            current = waitWhileFrozen(current)
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: current | flag, ordering: .sequentiallyConsistent)
            if exchanged { return current }
            current = original
        }
    }

    /// Stores `newWord`, by the holder or while the role is free and every flag was set under the
    /// lock (so no lock-free taker can be taking it): gives the role back (`0`, or
    /// ``attentionFlag`` to keep lock-free takers out), or takes it (``heldByCurrentThread()``).
    @inlinable @inline(__always)
    func storeLocked(_ newWord: UInt) {
        word.store(newWord, ordering: .releasing)
    }
}

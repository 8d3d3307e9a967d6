import Synchronization

/// A cancellable object that runs a cancellation action when cancelled or deallocated.
///
/// Keep the `AnyCancellable` returned by `sink` or `assign` for as long as you want the
/// subscription to live; when the last reference goes away the subscription is cancelled. Store
/// many of them with ``store(in:)-(C)`` or ``store(in:)-(Set<AnyCancellable>)``.
///
/// Thread safety: `cancel()` may be called from several threads at once; the action runs exactly
/// once and is released right after. (`@unchecked Sendable`: the action is taken out by the one
/// caller that wins the atomic `cancelled` flag, so it is never touched concurrently.)
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    /// What cancelling does, taken by the one caller that wins `cancelled` (or by `deinit`, when
    /// nobody else can reach the object any more). (`@exclusivity(unchecked)`: that atomic
    /// hand-over already rules out overlapping access.)
    ///
    /// A cancellable is kept as a closure that calls it. When it is an object and the initialiser
    /// is compiled for its concrete type (as in `sink` and `assign`, which are inlinable), the
    /// closure captures that one reference and the object itself serves as the closure's context,
    /// so nothing is allocated for it: the instance is 33 bytes, one 48-byte malloc chunk, where a
    /// five-word existential beside a closure made it a 96-byte one.
    @usableFromInline
    @exclusivity(unchecked)
    var action: (() -> Void)?

    @usableFromInline
    let cancelled: Atomic<Bool>

    /// Makes a cancellable that runs `cancel` once, when cancelled or deallocated.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        action = cancel
        cancelled = Atomic(false)
    }

    /// Makes a cancellable that cancels `canceller` once, when cancelled or deallocated.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        action = { canceller.cancel() }
        cancelled = Atomic(false)
    }

    @inlinable
    deinit {
        // Nobody else holds the object, so no `cancel()` can run concurrently, and one that ran
        // earlier has already taken the action (its writes happen before the last release).
        if cancelled.load(ordering: .relaxed) { return }
        runAction()
    }

    /// Runs the cancellation action if it has not run yet, then releases it.
    @inlinable
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        runAction()
    }

    /// Takes the action out and runs it; what it captured is released when it returns. Only the
    /// caller that won `cancelled`, or `deinit`, gets here.
    @inlinable
    @inline(__always)
    func runAction() {
        if let body = action.take() {
            body()
        }
    }

    /// Identity: two `AnyCancellable`s are equal when they are the same instance.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension AnyCancellable {
    /// Appends this cancellable to `collection`, which then keeps it alive.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Inserts this cancellable into `set`, which then keeps it alive.
    ///
    /// Compiled once, here: inlined, it would make every module that stores a cancellable compile
    /// its own copy of the set's insertion and growth code, for a call made once per
    /// subscription.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }
}

extension Cancellable {
    /// Wraps this cancellable in an ``AnyCancellable`` and appends it to `collection`.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Wraps this cancellable in an ``AnyCancellable`` and inserts it into `set`.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}

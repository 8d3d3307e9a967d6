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
    /// The cancellable to cancel, when made from one, otherwise a ``Vacant``. Taken by the one
    /// caller that wins `cancelled` (or by `deinit`, when nobody else can reach the object any
    /// more). (`@exclusivity(unchecked)`: that atomic hand-over already rules out overlapping
    /// access.) Not an optional: an optional of this non-class existential goes through the
    /// runtime's generic witnesses on every copy and destroy.
    @usableFromInline
    @exclusivity(unchecked)
    var cancellable: any Cancellable

    /// The closure to run, when made from one; taken like ``cancellable``.
    @usableFromInline
    @exclusivity(unchecked)
    var closure: (() -> Void)?

    @usableFromInline
    let cancelled: Atomic<Bool>

    /// Makes a cancellable that runs `cancel` once, when cancelled or deallocated.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        cancellable = Vacant()
        closure = cancel
        cancelled = Atomic(false)
    }

    /// Makes a cancellable that cancels `canceller` once, when cancelled or deallocated.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        cancellable = canceller
        closure = nil
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

    /// Takes the action out and runs it: the closure, or else the wrapped cancellable's
    /// `cancel()`. Only the caller that won `cancelled`, or `deinit`, gets here.
    @inlinable
    @inline(__always)
    func runAction() {
        if let body = closure.take() {
            body()
        } else {
            var inner: any Cancellable = Vacant()
            swap(&inner, &cancellable)
            inner.cancel()
        }
    }

    /// The stand-in for "no cancellable": a stateless value in the existential's inline buffer.
    @usableFromInline
    struct Vacant: Cancellable {
        @inlinable
        init() {}

        @inlinable
        func cancel() {}
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
    @inlinable
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

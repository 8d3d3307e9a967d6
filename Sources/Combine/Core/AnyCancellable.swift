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
    @usableFromInline
    enum Action {
        case closure(() -> Void)
        case cancellable(any Cancellable)
        case nothing
    }

    @usableFromInline
    var action: Action

    @usableFromInline
    let cancelled = Atomic<Bool>(false)

    /// Makes a cancellable that runs `cancel` once, when cancelled or deallocated.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        action = .closure(cancel)
    }

    /// Makes a cancellable that cancels `canceller` once, when cancelled or deallocated.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        action = .cancellable(canceller)
    }

    @inlinable
    deinit {
        cancel()
    }

    /// Runs the cancellation action if it has not run yet, then releases it.
    @inlinable
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let taken = action
        action = .nothing
        switch taken {
        case .closure(let body): body()
        case .cancellable(let inner): inner.cancel()
        case .nothing: break
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

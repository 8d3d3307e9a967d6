#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc
#endif

// The package's one lock. Every module uses it: `Combine` (where Apple's framework is not
// available), `Tributary` and `CombineTesting` (which build on Apple's Combine on Apple platforms,
// so the lock cannot live inside our `Combine` module).
//
// Why not `Synchronization.Mutex`: on this toolchain the thread sanitizer cannot see through
// `Mutex.withLock` and reports false "Swift access races", and `Mutex` needs macOS 15 / iOS 18 on
// Apple platforms. Why not `NSLock`: Foundation is not available everywhere `Combine` builds, and
// every `NSLock` is an object of its own. A `pthread_mutex_t` is understood by every sanitizer, and
// placing it in the same heap object as the state it guards keeps a lock to one allocation.

/// The platform mutex that ``LockedState`` is made of, for the rare type that lays it out in its
/// own memory (a subscription that is one `ManagedBuffer`) instead of using ``LockedState``.
public typealias PlatformMutexStorage = pthread_mutex_t

/// The operations on a ``PlatformMutexStorage`` that lives at a stable address. Everything that
/// locks in the package goes through these four functions.
public enum PlatformMutex {
    /// Prepares the mutex at `mutex` (uninitialised or bound memory); traps if the platform
    /// refuses, which only happens when it is out of resources.
    @inlinable
    public static func initialize(_ mutex: UnsafeMutablePointer<PlatformMutexStorage>) {
        mutex.initialize(to: PlatformMutexStorage())
        let status = pthread_mutex_init(mutex, nil)
        if status != 0 { fatalError("Tributary: pthread_mutex_init failed with \(status)") }
    }

    /// Releases the platform's resources for the mutex at `mutex`; it must be unlocked.
    @inlinable
    public static func destroy(_ mutex: UnsafeMutablePointer<PlatformMutexStorage>) {
        _ = pthread_mutex_destroy(mutex)
    }

    /// Waits for the mutex (the thread sleeps rather than spins when it is taken) and takes it.
    @inlinable
    public static func lock(_ mutex: UnsafeMutablePointer<PlatformMutexStorage>) {
        _ = pthread_mutex_lock(mutex)
    }

    /// Gives the mutex back; only the thread that took it may.
    @inlinable
    public static func unlock(_ mutex: UnsafeMutablePointer<PlatformMutexStorage>) {
        _ = pthread_mutex_unlock(mutex)
    }
}

/// One heap object that holds both the guarded state (the header) and the mutex (the single
/// element), so a lock never costs a second allocation.
@usableFromInline
final class LockedStateStorage<State>: ManagedBuffer<State, PlatformMutexStorage> {
    @inlinable
    deinit {
        withUnsafeMutablePointerToElements { PlatformMutex.destroy($0) }
    }
}

/// State guarded by a mutex, allocated together with the mutex: the lock of every type in the
/// package.
///
/// The rule every user of this type follows: compute what to do inside `withLock`, perform it
/// (calls into subscribers, subscriptions, user closures) after the closure returns. A lock held
/// while calling out is how deadlocks and lock-recursion crashes start.
public struct LockedState<State>: @unchecked Sendable {
    // @unchecked Sendable: the state is only reached under the mutex.
    @usableFromInline
    let storage: LockedStateStorage<State>

    /// Allocates the state and its mutex in one object.
    @inlinable
    public init(_ initial: State) {
        let buffer = LockedStateStorage<State>.create(minimumCapacity: 1) { _ in initial }
        // `create` is declared on `ManagedBuffer`; the dynamic type is our subclass.
        storage = unsafeDowncast(buffer, to: LockedStateStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { PlatformMutex.initialize($0) }
    }

    /// Takes the mutex without touching the state: for a caller that reaches its guarded fields
    /// through other means (a class whose stored properties this lock guards). Pair with
    /// ``unlock()`` on the same thread.
    @inlinable
    public func lock() {
        storage.withUnsafeMutablePointerToElements { PlatformMutex.lock($0) }
    }

    /// Gives back a mutex taken with ``lock()``.
    @inlinable
    public func unlock() {
        storage.withUnsafeMutablePointerToElements { PlatformMutex.unlock($0) }
    }

    /// Runs `body` with exclusive access to the state. `body` must not call out of the library.
    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            PlatformMutex.lock(mutex)
            defer { PlatformMutex.unlock(mutex) }
            return try body(&state.pointee)
        }
    }

    /// A copy of the state, read under the lock.
    @inlinable
    public var snapshot: State {
        withLock { $0 }
    }
}

extension LockedState where State == Void {
    /// A plain mutex with no guarded value, for a class whose own stored properties it guards.
    @inlinable
    public init() {
        self.init(())
    }

    /// Runs `body` holding the mutex.
    ///
    /// It never forms an `inout` access to the (empty) state: the thread sanitizer attributes an
    /// access to a zero-sized value to the start of the object and reports it as racing with the
    /// object's other uses.
    @inlinable
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointerToElements { mutex in
            PlatformMutex.lock(mutex)
            defer { PlatformMutex.unlock(mutex) }
            return try body()
        }
    }
}

/// A condition variable for threads that wait, under a ``LockedState``'s mutex, for a change of
/// its state that another thread makes: the waiting thread sleeps instead of spinning (on a
/// machine with few cores a spinner would take the core the other thread needs).
public final class LockCondition: @unchecked Sendable {
    // @unchecked Sendable: a pthread condition variable is made to be shared between threads.
    @usableFromInline
    let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Makes a condition variable; use it with one ``LockedState`` only.
    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        let status = pthread_cond_init(condition, nil)
        if status != 0 { fatalError("Tributary: pthread_cond_init failed with \(status)") }
    }

    deinit {
        _ = pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Wakes every thread waiting on the condition; call it holding the lock, right after changing
    /// the state they wait for.
    @inlinable
    public func broadcast() {
        _ = pthread_cond_broadcast(condition)
    }
}

extension LockedState {
    /// Takes the lock, then sleeps on `condition` (the lock released meanwhile) until `isDone`
    /// holds for the state, and returns what `body` makes of the state then, still under the lock.
    /// `isDone` and `body` must not call out of the library.
    @inlinable
    public func wait<Result>(
        on condition: LockCondition, until isDone: (inout State) -> Bool, then body: (inout State) -> Result
    ) -> Result {
        storage.withUnsafeMutablePointers { state, mutex in
            PlatformMutex.lock(mutex)
            defer { PlatformMutex.unlock(mutex) }
            while !isDone(&state.pointee) {
                _ = pthread_cond_wait(condition.condition, mutex)
            }
            return body(&state.pointee)
        }
    }
}

extension LockedState {
    /// ``wait(on:until:then:)`` with a deadline on the wall clock (`secondsSince1970`, the clock a
    /// `Date` counts on): gives up waiting once it has passed, and returns what `body` makes of
    /// the state then, whether `isDone` holds or not. For a thread that sleeps until a date unless
    /// woken earlier (an operation waiting for its scheduled time, woken by a cancel).
    @inlinable
    public func wait<Result>(
        on condition: LockCondition, until isDone: (inout State) -> Bool, orUntilWallClock secondsSince1970: Double,
        then body: (inout State) -> Result
    ) -> Result {
        let whole = secondsSince1970.rounded(.down)
        var deadline = timespec()
        deadline.tv_sec = .init(whole)
        deadline.tv_nsec = .init(min(999_999_999, max(0, (secondsSince1970 - whole) * 1_000_000_000)))
        return storage.withUnsafeMutablePointers { state, mutex in
            PlatformMutex.lock(mutex)
            defer { PlatformMutex.unlock(mutex) }
            while !isDone(&state.pointee) {
                if pthread_cond_timedwait(condition.condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            return body(&state.pointee)
        }
    }
}

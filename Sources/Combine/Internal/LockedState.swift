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

// Why not `Synchronization.Mutex`: on this toolchain the thread sanitizer cannot see through
// `Mutex.withLock` and reports false "Swift access races". A `pthread_mutex_t` is understood by
// every sanitizer, and allocating it in the same heap object as the state it guards keeps the cost
// to one allocation per lock.

@usableFromInline
typealias PlatformMutex = pthread_mutex_t

/// One heap object that holds both the guarded state (the header) and the mutex (the single
/// element), so a lock never costs a second allocation.
@usableFromInline
final class LockedStateStorage<State>: ManagedBuffer<State, PlatformMutex> {
    @inlinable
    deinit {
        _ = withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
        }
    }
}

/// State guarded by a `pthread_mutex`, allocated together with the mutex.
///
/// The rule every user of this type follows: compute what to do inside `withLock`, perform it
/// (calls into subscribers, subscriptions, user closures) after the closure returns.
@usableFromInline
struct LockedState<State>: @unchecked Sendable {
    @usableFromInline
    let storage: LockedStateStorage<State>

    @inlinable
    init(_ initial: State) {
        let buffer = LockedStateStorage<State>.create(minimumCapacity: 1) { _ in initial }
        // `create` is declared on `ManagedBuffer`; the dynamic type is our subclass.
        storage = unsafeDowncast(buffer, to: LockedStateStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            let status = pthread_mutex_init(mutex, nil)
            if status != 0 { fatalError("Tributary: pthread_mutex_init failed with \(status)") }
        }
    }

    @inlinable
    func lock() {
        _ = storage.withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
    }

    @inlinable
    func unlock() {
        _ = storage.withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
    }

    /// Runs `body` with exclusive access to the state. `body` must not call out of the library.
    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }

    /// Reads the state under the lock.
    @inlinable
    var snapshot: State {
        withLock { $0 }
    }
}

extension LockedState where State == Void {
    /// A plain mutex with no guarded value.
    @inlinable
    init() {
        self.init(())
    }
}

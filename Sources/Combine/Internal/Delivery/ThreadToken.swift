#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WinSDK)
import WinSDK
#endif

/// A number that identifies the calling thread while it runs, never `0`, with the low three bits
/// clear (free for a subject's flags). Subjects keep it in their emitter word to recognise a send
/// made from inside one of their own subscribers, which must be delivered at once, nested.
///
/// It comes from the platform's own API: `pthread_self()`, the address of the thread's aligned
/// control block on Linux, Android and the BSDs, or the thread's id on Windows, shifted clear of
/// the flag bits. Reading it costs one call per send (see the benchmark notes for the figure).
@inlinable
func currentThreadToken() -> UInt {
    #if os(Windows)
    return (UInt(GetCurrentThreadId()) + 1) << 3
    #elseif canImport(Glibc)
    return UInt(pthread_self()) & ~7
    #else
    // A pointer (Darwin, Musl) or a signed integer (Bionic), depending on the C library.
    return UInt(bitPattern: pthread_self()) & ~7
    #endif
}

/// Lets another thread finish the few instructions a waiter waits for (a copy of a value, the
/// store that ends a frozen word).
@usableFromInline
func spinBriefly() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Bionic) || canImport(Darwin)
    sched_yield()
    #endif
}

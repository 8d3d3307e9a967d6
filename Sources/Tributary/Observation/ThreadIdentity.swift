#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread, compared by the platform's own test: how ``ObservationPublisher`` tells a
/// scheduler that ran a read inside the `schedule` call (on the calling thread) from one that ran
/// it on another thread at the same moment.
@usableFromInline
struct ThreadIdentity: Equatable {
    @usableFromInline let thread: pthread_t

    @inlinable
    init(thread: pthread_t) {
        self.thread = thread
    }

    /// The thread this is called on.
    @inlinable
    static var current: ThreadIdentity {
        ThreadIdentity(thread: pthread_self())
    }

    @inlinable
    static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
        pthread_equal(lhs.thread, rhs.thread) != 0
    }
}

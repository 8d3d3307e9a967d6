import Foundation

/// Polls `condition` every millisecond until it holds or `seconds` pass, and says whether it held:
/// for tests that wait on work another thread or task finishes on its own schedule.
///
/// The default window is long on purpose: a passing test returns as soon as the condition holds,
/// while under the sanitizers, with heavy concurrency tests beside it, a task can wait seconds
/// for a pool thread. Only a failing test waits the whole window.
@discardableResult
public func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

/// A weak reference that can be handed to other threads, so a test can check after the last
/// strong owner is gone that the object was released.
public final class WeakReference: @unchecked Sendable {
    // @unchecked: a weak reference is itself safe to read from any thread; tests write it once.
    public weak var object: AnyObject?

    public init(_ object: AnyObject? = nil) { self.object = object }
}

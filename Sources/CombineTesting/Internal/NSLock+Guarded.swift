import Foundation

extension NSLock {
    /// Runs `body` holding the lock. Foundation's own `withLock` needs macOS 14 / iOS 17 on
    /// Apple platforms; this keeps the module buildable against older deployment targets.
    func guarded<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

import Foundation

/// A value that several threads of a test share, every read and write under one lock: the one box
/// the test targets use for counters, logs and flags touched from scheduled closures, worker
/// threads or subscribers.
///
/// Tests may use `NSLock`; the library itself uses its own internal lock type.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, which it may change, and returns what `body` returns.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the value as it is now.
    public var current: Value { lock.withLock { value } }
}

extension Locked where Value == Int {
    /// Adds one to the count.
    public func increment() { withLock { $0 += 1 } }
}

extension Locked where Value: RangeReplaceableCollection {
    /// Appends `element` at the end.
    public func append(_ element: Value.Element) { withLock { $0.append(element) } }
}

/// Carries a value that is not `Sendable` into a `@Sendable` closure, for the cases where the test
/// knows the access is safe: the value is thread-safe by contract (subjects, subscriptions,
/// cancellables) or only one thread touches it at a time.
public struct UncheckedBox<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

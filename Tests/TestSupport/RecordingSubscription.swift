import Combine

/// A subscription for tests that records what its subscriber asks of it, from any thread: every
/// `request` in order and how many times it was cancelled. `onCancel` runs once, on the first
/// `cancel()`, outside the record's lock (a fake publisher uses it to let go of its subscriber).
public final class RecordingSubscription: Subscription, CustomStringConvertible, Sendable {
    private struct Record {
        var requests: [Subscribers.Demand] = []
        var cancels = 0
        var onCancel: (@Sendable () -> Void)?
    }

    private let record: Locked<Record>

    /// What `print` shows for this subscription.
    public let description: String

    public init(name: String = "RecordingSubscription", onCancel: (@Sendable () -> Void)? = nil) {
        description = name
        record = Locked(Record(onCancel: onCancel))
    }

    public func request(_ demand: Subscribers.Demand) {
        record.withLock { $0.requests.append(demand) }
    }

    public func cancel() {
        let hook = record.withLock { record -> (@Sendable () -> Void)? in
            record.cancels += 1
            defer { record.onCancel = nil }
            return record.onCancel
        }
        hook?()
    }

    /// Every demand requested, in order.
    public var requests: [Subscribers.Demand] { record.current.requests }

    /// How many times `cancel()` was called.
    public var cancelCount: Int { record.current.cancels }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelCount > 0 }
}

import Combine

/// One thing that happened to a subscriber.
///
/// `Equatable` when the value and failure types are, so a whole recording can be compared in one
/// `#expect(recorder.events == [...])`.
public enum RecordedEvent<Value, Failure: Error> {
    /// The subscriber received its subscription.
    case subscription
    /// The subscriber received a value.
    case value(Value)
    /// The subscriber received its completion.
    case completion(Subscribers.Completion<Failure>)

    /// Shorthand for `.completion(.finished)`, so expected recordings read like the stream.
    public static var finished: Self { .completion(.finished) }

    /// Shorthand for `.completion(.failure(error))`.
    public static func failure(_ error: Failure) -> Self { .completion(.failure(error)) }
}

extension RecordedEvent: Equatable where Value: Equatable, Failure: Equatable {}

extension RecordedEvent: Sendable where Value: Sendable, Failure: Sendable {}

extension RecordedEvent: CustomStringConvertible {
    /// Short forms (`subscription`, `value(3)`, `finished`, `failure(…)`) for failure messages.
    public var description: String {
        switch self {
        case .subscription: return "subscription"
        case .value(let value): return "value(\(value))"
        case .completion(.finished): return "finished"
        case .completion(.failure(let error)): return "failure(\(error))"
        }
    }
}

/// Something paired with the virtual time at which it happened.
///
/// Used for recorded events (`Recorded<RecordedEvent<Int, Never>>`) and for demand requests
/// (`Recorded<Subscribers.Demand>`), so tests can state *when* as well as *what*:
/// `#expect(recorder.timedEvents == [.init(time: 3, .value(1))])`.
public struct Recorded<Element> {
    /// When it happened, on the ``TestScheduler``'s clock.
    public var time: TestScheduler.SchedulerTimeType
    /// What happened.
    public var element: Element

    /// Pairs `element` with `time`.
    public init(time: TestScheduler.SchedulerTimeType, _ element: Element) {
        self.time = time
        self.element = element
    }
}

extension Recorded: Equatable where Element: Equatable {}

extension Recorded: Hashable where Element: Hashable {}

extension Recorded: Sendable where Element: Sendable {}

extension Recorded: CustomStringConvertible {
    /// `element@t=time`, e.g. `value(1)@t=3`.
    public var description: String { "\(element)@\(time)" }
}

import Combine
import Foundation
import TributaryLocks

/// A subscriber that writes down everything it receives, with the virtual time it happened, and
/// lets the test decide how much it asks for and when.
///
/// Make one with ``TestScheduler/record(_:initialDemand:demandPerValue:)`` (which subscribes
/// it) or with ``init(scheduler:initialDemand:demandPerValue:)`` and `publisher.subscribe(_:)`.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let recorder = scheduler.record(upstream, initialDemand: .max(1))
/// recorder.request(.max(2), at: 5)     // back-pressure: more demand at tick 5
/// scheduler.advance(by: 10)
/// #expect(recorder.values == [...])
/// #expect(recorder.demands == [.init(time: 0, .max(1)), .init(time: 5, .max(2))])
/// ```
///
/// Everything is recorded: the subscription, every value, the completion (a misbehaving
/// publisher that sends after completion is recorded as it is, so the test can see it), and
/// every demand the subscriber itself asked for: the initial request, each non-zero demand
/// returned from `receive(_:)`, and each explicit ``request(_:)``.
///
/// Thread-safe: events may arrive on any thread; the record is guarded by a lock that is never
/// held while calling the subscription.
public final class RecordingSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
{
    private struct State {
        var events: [Recorded<RecordedEvent<Input, Failure>>] = []
        var demands: [Recorded<Subscribers.Demand>] = []
        var subscription: (any Subscription)?
        var isCancelled = false
    }

    /// The scheduler whose clock stamps every event.
    public let scheduler: TestScheduler
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private let lock = LockedState()
    private var state = State()

    /// The virtual time at which the recorder was made; marble diagrams are drawn from here.
    public let startTime: TestScheduler.SchedulerTimeType

    /// Creates a recorder stamping events with `scheduler`'s clock.
    /// - Parameters:
    ///   - scheduler: the clock that stamps events and runs scheduled `request`/`cancel` calls.
    ///   - initialDemand: requested as soon as the subscription arrives (`.none` asks for
    ///     nothing, so the test can ``request(_:at:)`` later).
    ///   - demandPerValue: returned from `receive(_:)` for each value (`.none` by default: with
    ///     unlimited initial demand nothing more is needed).
    public init(
        scheduler: TestScheduler,
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) {
        self.scheduler = scheduler
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        startTime = scheduler.now
    }

    // MARK: Subscriber

    /// Records the subscription and requests the initial demand (unless it is `.none`).
    public func receive(subscription: any Subscription) {
        let now = scheduler.now
        let demand = initialDemand
        lock.withLock {
            state.events.append(Recorded(time: now, .subscription))
            state.subscription = subscription
            if demand > .none { state.demands.append(Recorded(time: now, demand)) }
        }
        if demand > .none { subscription.request(demand) }
    }

    /// Records the value and returns the per-value demand given at creation.
    public func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        let demand = demandPerValue
        lock.withLock {
            state.events.append(Recorded(time: now, .value(input)))
            if demand > .none { state.demands.append(Recorded(time: now, demand)) }
        }
        return demand
    }

    /// Records the completion and lets go of the subscription.
    public func receive(completion: Subscribers.Completion<Failure>) {
        let now = scheduler.now
        lock.withLock {
            state.events.append(Recorded(time: now, .completion(completion)))
            state.subscription = nil
        }
    }

    // MARK: Control

    /// Asks the upstream for `demand` more values now, recording the request.
    ///
    /// Does nothing before the subscription arrives or after completion or cancellation.
    /// - Precondition: `demand` is not `.none` (Combine forbids requesting zero).
    public func request(_ demand: Subscribers.Demand) {
        precondition(demand > .none, "RecordingSubscriber.request(_:): demand must not be .none")
        let now = scheduler.now
        let subscription: (any Subscription)? = lock.withLock {
            guard let subscription = state.subscription else { return nil }
            state.demands.append(Recorded(time: now, demand))
            return subscription
        }
        subscription?.request(demand)
    }

    /// Schedules ``request(_:)`` for virtual time `time`, so back-pressure can be placed on the
    /// same clock as the events.
    public func request(_ demand: Subscribers.Demand, at time: TestScheduler.SchedulerTimeType) {
        scheduler.schedule(after: time) { [weak self] in self?.request(demand) }
    }

    /// Cancels the subscription (once) and lets go of it. Later events, if a misbehaving upstream
    /// still sends them, are recorded anyway.
    public func cancel() {
        let subscription: (any Subscription)? = lock.withLock {
            state.isCancelled = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }

    /// Schedules ``cancel()`` for virtual time `time`.
    public func cancel(at time: TestScheduler.SchedulerTimeType) {
        scheduler.schedule(after: time) { [weak self] in self?.cancel() }
    }

    // MARK: What was recorded

    /// Every event with the virtual time it arrived, in arrival order.
    public var timedEvents: [Recorded<RecordedEvent<Input, Failure>>] { lock.withLock { state.events } }

    /// Every event in arrival order, without times.
    public var events: [RecordedEvent<Input, Failure>] { timedEvents.map(\.element) }

    /// The values received, in order.
    public var values: [Input] {
        timedEvents.compactMap { if case .value(let value) = $0.element { return value } else { return nil } }
    }

    /// The first completion received, or `nil` while the stream is still open.
    public var completion: Subscribers.Completion<Failure>? {
        for event in timedEvents {
            if case .completion(let completion) = event.element { return completion }
        }
        return nil
    }

    /// Whether the subscription has arrived.
    public var isSubscribed: Bool { timedEvents.contains { if case .subscription = $0.element { true } else { false } } }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { lock.withLock { state.isCancelled } }

    /// Every demand this subscriber asked for, with when it asked.
    public var demands: [Recorded<Subscribers.Demand>] { lock.withLock { state.demands } }

    /// The sum of all demand asked for so far.
    public var totalDemand: Subscribers.Demand {
        demands.reduce(.none) { $0 + $1.element }
    }

    /// A snapshot of the record as an `Equatable`-friendly value.
    public var recording: Recording<Input, Failure> {
        lock.withLock { Recording(startTime: startTime, events: state.events, demands: state.demands) }
    }

    /// The recorded events, one per line with their times, for failure messages and debugging.
    public var description: String {
        recording.description
    }
}

/// A snapshot of what a ``RecordingSubscriber`` saw: its events and demands with their times.
///
/// `Equatable` when values and failures are, so whole recordings can be compared; its
/// `description` lists one event per line, which keeps `#expect` failure output readable.
public struct Recording<Value, Failure: Error> {
    /// The virtual time the recording started (the recorder's creation).
    public var startTime: TestScheduler.SchedulerTimeType
    /// The events with their times, in arrival order.
    public var events: [Recorded<RecordedEvent<Value, Failure>>]
    /// The demands the subscriber asked for, with their times.
    public var demands: [Recorded<Subscribers.Demand>]

    /// Makes a recording by hand, typically the expected side of a comparison.
    public init(
        startTime: TestScheduler.SchedulerTimeType = 0,
        events: [Recorded<RecordedEvent<Value, Failure>>],
        demands: [Recorded<Subscribers.Demand>] = []
    ) {
        self.startTime = startTime
        self.events = events
        self.demands = demands
    }
}

extension Recording: Equatable where Value: Equatable, Failure: Equatable {}

extension Recording: Sendable where Value: Sendable, Failure: Sendable {}

extension Recording: CustomStringConvertible {
    /// One event per line, `t=3 value(1)`, then the demands.
    public var description: String {
        var lines = events.map { "\($0.time) \($0.element)" }
        if !demands.isEmpty {
            lines.append("demands: " + demands.map { "\($0.element)@\($0.time)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

extension TestScheduler {
    /// Subscribes a new ``RecordingSubscriber`` to `publisher` now and returns it.
    ///
    /// The subscription happens synchronously at the current virtual time; whatever the publisher
    /// sends synchronously on subscription is recorded at that time too.
    public func record<P: Publisher>(
        _ publisher: P,
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> RecordingSubscriber<P.Output, P.Failure> {
        let recorder = RecordingSubscriber<P.Output, P.Failure>(
            scheduler: self, initialDemand: initialDemand, demandPerValue: demandPerValue
        )
        publisher.subscribe(recorder)
        return recorder
    }
}

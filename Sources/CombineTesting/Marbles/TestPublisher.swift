import Combine
import Foundation
import TributaryLocks

/// A publisher that plays a marble diagram on a ``TestScheduler``'s clock.
///
/// Make one with ``TestScheduler/coldPublisher(_:frameDuration:)`` or
/// ``TestScheduler/hotPublisher(_:frameDuration:)`` (and their `values:`/`error:` variants).
///
/// - A **cold** publisher starts the diagram afresh for each subscriber: frame 0 is the moment
///   of subscription. It behaves like a well-mannered source that produced values at those times:
///   a value produced while the subscriber has no demand waits (in order, with any completion
///   behind it) until demand arrives, so back-pressure can be tested.
/// - A **hot** publisher plays the diagram once, from the moment it is made (frame 0 is the
///   `^`, or the first character), to whoever is subscribed at the time, like a
///   `PassthroughSubject` driven by the clock: a subscriber without demand misses the value, and
///   one that subscribes after completion receives the completion at once. Frames before `^`
///   happened before anyone could subscribe and are not played, except a completion there, which
///   every subscriber receives as soon as it subscribes.
///
/// Every `subscribe`, `request` and `cancel` it receives is logged with its time in ``calls``,
/// so a test can check what an operator asked of its upstream.
public final class TestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// Something a subscriber did to this publisher, as logged in ``TestPublisher/calls``.
    public enum Call: Equatable, Sendable, CustomStringConvertible {
        /// A subscriber subscribed.
        case subscribe
        /// A subscriber requested more values.
        case request(Subscribers.Demand)
        /// A subscriber cancelled.
        case cancel

        /// `subscribe`, `request(max(2))` or `cancel`.
        public var description: String {
            switch self {
            case .subscribe: return "subscribe"
            case .request(let demand): return "request(\(demand))"
            case .cancel: return "cancel"
            }
        }
    }

    /// Whether the diagram restarts per subscriber (cold) or plays once for everyone (hot).
    public enum Temperature: Sendable {
        /// Each subscriber gets the whole diagram, starting when it subscribes.
        case cold
        /// The diagram plays once, from creation, to whoever is subscribed.
        case hot
    }

    /// Whether this publisher is cold or hot.
    public let temperature: Temperature
    /// The scheduler whose clock plays the diagram.
    public let scheduler: TestScheduler
    /// The diagram's events with frame numbers, relative to the start of play.
    private let script: MarbleScript<Output, Failure>
    private let frameDuration: TestScheduler.SchedulerTimeType.Stride

    private let lock = LockedState()
    private var links: [Link] = []
    private var hotCompletion: Subscribers.Completion<Failure>?
    private var _calls: [Recorded<Call>] = []

    init(
        temperature: Temperature,
        scheduler: TestScheduler,
        script: MarbleScript<Output, Failure>,
        frameDuration: TestScheduler.SchedulerTimeType.Stride
    ) {
        precondition(frameDuration > 0, "TestPublisher: frameDuration must be positive")
        self.temperature = temperature
        self.scheduler = scheduler
        self.script = script
        self.frameDuration = frameDuration
        if temperature == .hot {
            let now = scheduler.now
            for event in script.timed(from: now, frameDuration: frameDuration) {
                if event.time >= now {
                    scheduler.schedule(after: event.time) { [weak self] in self?.broadcast(event.element) }
                } else if case .completion(let completion) = event.element {
                    // Completed before anyone could subscribe: every subscriber gets it at once.
                    hotCompletion = completion
                }
            }
        }
    }

    /// Every `subscribe`, `request` and `cancel` received, with its virtual time, in order.
    public var calls: [Recorded<Call>] { lock.withLock { _calls } }

    /// The number of subscriptions received so far.
    public var subscriptionCount: Int { calls.count { $0.element == .subscribe } }

    /// Subscribes `subscriber`, delivering its subscription synchronously; the diagram's events
    /// arrive through the scheduler.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let link = Link(
            publisher: self,
            dropsWithoutDemand: temperature == .hot,
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) }
        )
        let now = scheduler.now
        let alreadyCompleted: Subscribers.Completion<Failure>? = lock.withLock {
            _calls.append(Recorded(time: now, .subscribe))
            if temperature == .hot, let hotCompletion { return hotCompletion }
            links.append(link)
            return nil
        }
        subscriber.receive(subscription: link)
        if let alreadyCompleted {
            link.offer(.completion(alreadyCompleted))
            return
        }
        if temperature == .cold {
            for event in script.timed(from: now, frameDuration: frameDuration) {
                scheduler.schedule(after: event.time) { link.offer(event.element) }
            }
        }
    }

    private func broadcast(_ event: RecordedEvent<Output, Failure>) {
        let targets: [Link] = lock.withLock {
            let targets = links
            if case .completion(let completion) = event {
                hotCompletion = completion
                links.removeAll()
            }
            return targets
        }
        for link in targets { link.offer(event) }
    }

    private func log(_ call: Call, from link: Link) {
        let now = scheduler.now
        lock.withLock {
            _calls.append(Recorded(time: now, call))
            if call == .cancel { links.removeAll { $0 === link } }
        }
    }

    /// The subscription handed to one subscriber: its demand, the events waiting for demand, and
    /// the subscriber's entry points (dropped on completion or cancellation, which releases the
    /// subscriber). Deliveries are serialised with a `delivering` flag so a `request` from
    /// another thread never overlaps a delivery; nothing is called under the lock.
    private final class Link: Subscription, CustomStringConvertible, @unchecked Sendable {
        private let lock = LockedState()
        private weak var publisher: TestPublisher?
        private let dropsWithoutDemand: Bool
        private var receiveValue: ((Output) -> Subscribers.Demand)?
        private var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        private var demand = Subscribers.Demand.none
        /// Events waiting for delivery; `paid` values already took their demand (hot mode).
        private var pending: [(event: RecordedEvent<Output, Failure>, paid: Bool)] = []
        private var delivering = false
        private var finishedOffering = false

        init(
            publisher: TestPublisher,
            dropsWithoutDemand: Bool,
            receiveValue: @escaping (Output) -> Subscribers.Demand,
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
        ) {
            self.publisher = publisher
            self.dropsWithoutDemand = dropsWithoutDemand
            self.receiveValue = receiveValue
            self.receiveCompletion = receiveCompletion
        }

        var description: String { "TestPublisher" }

        func offer(_ event: RecordedEvent<Output, Failure>) {
            let accepted: Bool = lock.withLock {
                if finishedOffering || receiveCompletion == nil { return false }
                switch event {
                case .subscription:
                    return false
                case .value:
                    if dropsWithoutDemand {
                        guard demand > .none else { return false }
                        demand -= 1
                        pending.append((event, true))
                    } else {
                        pending.append((event, false))
                    }
                case .completion:
                    finishedOffering = true
                    pending.append((event, true))
                }
                return true
            }
            if accepted { drain() }
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand > .none, "TestPublisher: request(_:) with zero demand violates Combine's contract")
            publisher?.log(.request(demand), from: self)
            lock.withLock { self.demand += demand }
            drain()
        }

        func cancel() {
            let wasActive: Bool = lock.withLock {
                let wasActive = receiveCompletion != nil
                receiveValue = nil
                receiveCompletion = nil
                pending.removeAll()
                return wasActive
            }
            if wasActive { publisher?.log(.cancel, from: self) }
        }

        private enum Step {
            case value(Output, (Output) -> Subscribers.Demand)
            case completion(Subscribers.Completion<Failure>, (Subscribers.Completion<Failure>) -> Void)
        }

        private func drain() {
            while true {
                let step: Step? = lock.withLock {
                    guard !delivering, let first = pending.first, let receiveCompletion, let receiveValue else {
                        return nil
                    }
                    switch first.event {
                    case .subscription:
                        pending.removeFirst()
                        return nil
                    case .value(let value):
                        if !first.paid {
                            guard demand > .none else { return nil }
                            demand -= 1
                        }
                        pending.removeFirst()
                        delivering = true
                        return .value(value, receiveValue)
                    case .completion(let completion):
                        pending.removeAll()
                        self.receiveValue = nil
                        self.receiveCompletion = nil
                        delivering = true
                        return .completion(completion, receiveCompletion)
                    }
                }
                guard let step else { return }
                switch step {
                case .value(let value, let receive):
                    let more = receive(value)
                    lock.withLock {
                        delivering = false
                        if more > .none { demand += more }
                    }
                case .completion(let completion, let receive):
                    receive(completion)
                    lock.withLock { delivering = false }
                    publisher?.linkFinished(self)
                    return
                }
            }
        }
    }

    private func linkFinished(_ link: Link) {
        lock.withLock { links.removeAll { $0 === link } }
    }
}

extension TestScheduler {
    /// A cold publisher of one-character strings playing `diagram` (see ``MarbleDiagram`` for
    /// the alphabet); it cannot fail, so `#` is a parse error.
    public func coldPublisher(
        _ diagram: String,
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<String, Never> {
        try makePublisher(.cold, diagram, { String($0) }, nil, frameDuration)
    }

    /// A cold publisher of one-character strings playing `diagram`, failing with `error` at `#`.
    public func coldPublisher<Failure: Error>(
        _ diagram: String,
        error: Failure,
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<String, Failure> {
        try makePublisher(.cold, diagram, { String($0) }, error, frameDuration)
    }

    /// A cold publisher playing `diagram`, each value character looked up in `values`.
    public func coldPublisher<Output>(
        _ diagram: String,
        values: [Character: Output],
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<Output, Never> {
        try makePublisher(.cold, diagram, { values[$0] }, nil, frameDuration)
    }

    /// A cold publisher playing `diagram` with values from `values` and `error` at `#`.
    public func coldPublisher<Output, Failure: Error>(
        _ diagram: String,
        values: [Character: Output],
        error: Failure,
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<Output, Failure> {
        try makePublisher(.cold, diagram, { values[$0] }, error, frameDuration)
    }

    /// A hot publisher of one-character strings playing `diagram` from now; it cannot fail.
    public func hotPublisher(
        _ diagram: String,
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<String, Never> {
        try makePublisher(.hot, diagram, { String($0) }, nil, frameDuration)
    }

    /// A hot publisher of one-character strings playing `diagram` from now, failing with `error`.
    public func hotPublisher<Failure: Error>(
        _ diagram: String,
        error: Failure,
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<String, Failure> {
        try makePublisher(.hot, diagram, { String($0) }, error, frameDuration)
    }

    /// A hot publisher playing `diagram` from now, each value character looked up in `values`.
    public func hotPublisher<Output>(
        _ diagram: String,
        values: [Character: Output],
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<Output, Never> {
        try makePublisher(.hot, diagram, { values[$0] }, nil, frameDuration)
    }

    /// A hot publisher playing `diagram` from now with values from `values` and `error` at `#`.
    public func hotPublisher<Output, Failure: Error>(
        _ diagram: String,
        values: [Character: Output],
        error: Failure,
        frameDuration: SchedulerTimeType.Stride = 1
    ) throws(MarbleDiagramError) -> TestPublisher<Output, Failure> {
        try makePublisher(.hot, diagram, { values[$0] }, error, frameDuration)
    }

    private func makePublisher<Output, Failure: Error>(
        _ temperature: TestPublisher<Output, Failure>.Temperature,
        _ diagram: String,
        _ value: (Character) -> Output?,
        _ error: Failure?,
        _ frameDuration: SchedulerTimeType.Stride
    ) throws(MarbleDiagramError) -> TestPublisher<Output, Failure> {
        let script = try MarbleScript<Output, Failure>(
            diagram, allowsSubscriptionMarker: temperature == .hot, value: value, failure: error
        )
        return TestPublisher(temperature: temperature, scheduler: self, script: script, frameDuration: frameDuration)
    }
}

import Combine
import Dispatch
import Foundation

// Kodeco, chapter 18 "Custom publishers & handling backpressure" (Kodeco ch. 18): the
// `unwrap()` operator, the `DispatchTimer` publisher, `shareReplay()` and the pausable sink, each
// with the book's test run. The book's `TimeLogger` prints times relative to its creation; here it
// reads the example's clock, so on virtual time every synchronous line shows `+0.00000s`.

extension Publisher {
    /// The book's `unwrap()`: drops `nil`s and unwraps the rest.
    func unwrap<T>() -> Publishers.CompactMap<Self, T> where Output == Optional<T> {
        compactMap { $0 }
    }
}

/// The book's `TimeLogger`: a `TextOutputStream` prefixing each line with the time elapsed since
/// it was created (`sinceOrigin: true`) or since the previous line, read on the example's clock
/// (virtual for the examples on a scheduler, real for the DispatchTimer). The book prints five
/// decimals; `decimals` rounds real time so that every run prints the same text.
struct TimeLogger: TextOutputStream {
    private let io: ExampleIO
    private var previous: Date
    private let sinceOrigin: Bool
    private let decimals: Int

    init(_ io: ExampleIO, sinceOrigin: Bool = false, decimals: Int = 5) {
        self.io = io
        self.previous = io.now()
        self.sinceOrigin = sinceOrigin
        self.decimals = decimals
    }

    mutating func write(_ string: String) {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        let now = io.now()
        io.print("+\(String(format: "%.\(decimals)f", now.timeIntervalSince(previous)))s: \(string)")
        if !sinceOrigin { previous = now }
    }
}

/// A `DispatchTime` shown as its distance from an origin, to the nearest second
/// (`DispatchTime(start + 1 s)`), where its own description is the raw uptime in nanoseconds,
/// different on every run.
struct DispatchTimeSince: CustomStringConvertible {
    let time: DispatchTime
    let origin: DispatchTime

    var description: String {
        let seconds = Double(Int64(time.uptimeNanoseconds) - Int64(origin.uptimeNanoseconds)) / 1e9
        return "DispatchTime(start + \(String(format: "%.0f", seconds)) s)"
    }
}

extension Catalogue {
    static var customPublishers: [Example] { [
        Example("unwrap", title: "unwrap", source: "Kodeco ch. 18, publishers as extension methods", book: .same, operators: ["compactMap", "unwrap"]) { io in
            let values: [Int?] = [1, 2, nil, 3, nil, 4]

            values.publisher
                .unwrap()
                .sink {
                    io.print("Received value: \($0)")
                }
                .store(in: &io.subscriptions)
        },

        Example(
            "dispatch-timer",
            title: "DispatchTimer",
            source: "Kodeco ch. 18, a DispatchTimer publisher (real time, 6 s)",
            book: .differs(BookNote.dispatchTimer),
            timing: .asynchronous,
            operators: ["DispatchSourceTimer", "Subscription", "Demand"]
        ) { io in
            var logger = TimeLogger(io, sinceOrigin: true, decimals: 0)
            let start = DispatchTime.now()
            let publisher = Publishers.timer(interval: .seconds(1), times: .max(6))
            var count = 0
            publisher.sink { time in
                print("Timer emits: \(DispatchTimeSince(time: time, origin: start))", to: &logger)
                count += 1
                if count == 6 { io.finish() }
            }
            .store(in: &io.subscriptions)
        },
        Example(
            "dispatch-timer-cancelled",
            title: "DispatchTimer",
            source: "Kodeco ch. 18, a DispatchTimer publisher cancelled after 3.5 s (real time)",
            book: .notPrinted(note: BookNote.dispatchTimer),
            timing: .asynchronous,
            operators: ["DispatchSourceTimer", "Subscription", "cancel"]
        ) { io in
            var logger = TimeLogger(io, sinceOrigin: true, decimals: 0)
            let start = DispatchTime.now()
            let publisher = Publishers.timer(interval: .seconds(1), times: .max(6))
            let subscription = publisher.sink { time in
                print("Timer emits: \(DispatchTimeSince(time: time, origin: start))", to: &logger)
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 3.5) {
                subscription.cancel()
                io.finish()
            }
        },

        Example(
            "share-replay",
            title: "shareReplay",
            source: "Kodeco ch. 18, a ShareReplay operator",
            book: .differs(BookNote.virtualTimeLogger),
            duration: 1,
            operators: ["shareReplay", "share", "Subscription", "Demand"],
            body: ShareReplayScenario(printUpstream: false)
        ),

        Example(
            "share-replay-print",
            title: "shareReplay",
            source: "Kodeco ch. 18, a ShareReplay operator, verified with print",
            book: .differs(BookNote.virtualTimeLogger + " The book's listing also says 'received completion:' where its code prints 'completed:'."),
            duration: 1,
            operators: ["shareReplay", "share", "print"],
            body: ShareReplayScenario(printUpstream: true)
        ),

        Example(
            "pausable-sink",
            title: "pausableSink",
            source: "Kodeco ch. 18, a pausable sink resumed by a timer",
            book: .same,
            duration: 3,
            operators: ["pausableSink", "Demand", "Timer"],
            body: PausableSinkScenario()
        ),
    ] }
}

// MARK: - The book's DispatchTimer publisher

struct DispatchTimerConfiguration {
    let queue: DispatchQueue?
    let interval: DispatchTimeInterval
    let leeway: DispatchTimeInterval
    let times: Subscribers.Demand
}

extension Publishers {
    /// A timer publisher built on `DispatchSourceTimer`, emitting `times` ticks one `interval`
    /// apart, the first one interval after the first request.
    struct DispatchTimer: Publisher {
        typealias Output = DispatchTime
        typealias Failure = Never

        let configuration: DispatchTimerConfiguration

        init(configuration: DispatchTimerConfiguration) {
            self.configuration = configuration
        }

        func receive<S: Subscriber>(subscriber: S)
        where Failure == S.Failure, Output == S.Input {
            let subscription = DispatchTimerSubscription(
                subscriber: subscriber,
                configuration: configuration
            )
            subscriber.receive(subscription: subscription)
        }
    }

    static func timer(
        queue: DispatchQueue? = nil,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        times: Subscribers.Demand = .unlimited
    ) -> Publishers.DispatchTimer {
        return Publishers.DispatchTimer(
            configuration: .init(queue: queue, interval: interval, leeway: leeway, times: times)
        )
    }
}

// @unchecked Sendable: the book's subscription is not thread-safe; Dispatch's
// event handler is a @Sendable closure in Swift 6, so the conformance is asserted to keep the
// book's code as written. Ticks arrive on one serial timer queue.
private final class DispatchTimerSubscription<S: Subscriber>: Subscription, @unchecked Sendable
where S.Input == DispatchTime {
    let configuration: DispatchTimerConfiguration
    var times: Subscribers.Demand
    var requested: Subscribers.Demand = .none
    var source: DispatchSourceTimer? = nil
    var subscriber: S?

    init(subscriber: S, configuration: DispatchTimerConfiguration) {
        self.configuration = configuration
        self.subscriber = subscriber
        self.times = configuration.times
    }

    func request(_ demand: Subscribers.Demand) {
        guard times > .none else {
            subscriber?.receive(completion: .finished)
            return
        }

        requested += demand

        if source == nil, requested > .none {
            let source = DispatchSource.makeTimerSource(queue: configuration.queue)
            source.schedule(
                deadline: .now() + configuration.interval,
                repeating: configuration.interval,
                leeway: configuration.leeway
            )

            source.setEventHandler { [weak self] in
                guard let self = self, self.requested > .none else { return }

                self.requested -= .max(1)
                self.times -= .max(1)
                _ = self.subscriber?.receive(.now())
                if self.times == .none {
                    self.subscriber?.receive(completion: .finished)
                }
            }

            self.source = source
            source.activate()
        }
    }

    func cancel() {
        source = nil
        subscriber = nil
    }
}

// MARK: - The book's pausable sink

protocol Pausable {
    var paused: Bool { get }
    func resume()
}

final class PausableSubscriber<Input, Failure: Error>: Subscriber, Pausable, Cancellable {
    let combineIdentifier = CombineIdentifier()

    let receiveValue: (Input) -> Bool
    let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    private var subscription: Subscription? = nil
    var paused = false

    init(
        receiveValue: @escaping (Input) -> Bool,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
    }

    func cancel() {
        subscription?.cancel()
        subscription = nil
    }

    func receive(subscription: Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        paused = receiveValue(input) == false
        return paused ? .none : .max(1)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletion(completion)
        subscription = nil
    }

    func resume() {
        guard paused else { return }

        paused = false
        subscription?.request(.max(1))
    }
}

extension Publisher {
    func pausableSink(
        receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
        receiveValue: @escaping ((Output) -> Bool)
    ) -> Pausable & Cancellable {
        let pausable = PausableSubscriber(
            receiveValue: receiveValue,
            receiveCompletion: receiveCompletion)
        self.subscribe(pausable)
        return pausable
    }
}

/// The `shareReplay(capacity: 2)` playground run: two early subscribers, then a third one second
/// after the upstream completed. With `printUpstream`, the upstream is logged with `print` (sent to
/// the example's output rather than the console) to show it is subscribed once.
struct ShareReplayScenario: ScheduledExampleBody {
    let printUpstream: Bool

    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        var logger = TimeLogger(io, sinceOrigin: true)
        let subject = PassthroughSubject<Int, Never>()
        let upstream = subject.drawn("subject", on: io)
        let publisher = printUpstream
            ? upstream.print("shareReplay", to: ExampleStream(io)).eraseToAnyPublisher().shareReplay(capacity: 2)
            : upstream.eraseToAnyPublisher().shareReplay(capacity: 2)
        subject.send(0)

        let subscription1 = publisher.drawn("subscription1", on: io, isOutput: true).sink(
            receiveCompletion: {
                print("subscription1 completed: \($0)", to: &logger)
            },
            receiveValue: {
                print("subscription1 received \($0)", to: &logger)
            }
        )
        subject.send(1)
        subject.send(2)
        subject.send(3)

        let subscription2 = publisher.drawn("subscription2", on: io, isOutput: true).sink(
            receiveCompletion: {
                print("subscription2 completed: \($0)", to: &logger)
            },
            receiveValue: {
                print("subscription2 received \($0)", to: &logger)
            }
        )

        subject.send(4)
        subject.send(5)
        subject.send(completion: .finished)

        var subscription3: Cancellable? = nil

        context.scheduler.schedule(after: context.scheduler.now.advanced(by: .seconds(1))) {
            io.print("Subscribing to shareReplay after upstream completed")
            subscription3 = publisher.drawn("subscription3", on: io, isOutput: true).sink(
                receiveCompletion: {
                    print("subscription3 completed: \($0)", to: &logger)
                    io.finish()
                },
                receiveValue: {
                    print("subscription3 received \($0)", to: &logger)
                }
            )
        }
        io.whenFinished {
            subscription1.cancel()
            subscription2.cancel()
            subscription3?.cancel()
        }
    }
}

/// The pausable sink's test: it pauses on odd values; a one-second timer resumes it.
struct PausableSinkScenario: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let subscription = [1, 2, 3, 4, 5, 6]
            .publisher
            .drawn("received", on: io, isOutput: true)
            .pausableSink(receiveCompletion: { completion in
                io.print("Pausable subscription completed: \(completion)")
                io.finish()
            }) { value -> Bool in
                io.print("Receive value: \(value)")
                if value % 2 == 1 {
                    io.print("Pausing")
                    return false
                }
                return true
            }

        context.timer(every: .seconds(1))
            .drawn("timer", on: io) { _ in "t" }
            .sink { _ in
                guard subscription.paused else { return }
                io.print("Subscription is paused, resuming")
                subscription.resume()
            }
            .store(in: &io.subscriptions)
        io.whenFinished { subscription.cancel() }
    }
}

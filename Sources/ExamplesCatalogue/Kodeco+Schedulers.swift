import Combine
import Dispatch
import Foundation

// Kodeco ch. 17 "Schedulers": subscribe(on:) and receive(on:) with the playground's
// `ExpensiveComputation` publisher and its thread numbers, and an OperationQueue with its default
// concurrency. These are about real threads, so they run on real queues. Also ch. 18's pausable
// sink without a resumer.

/// The playground's `Thread.current.number`: thread 1 is the main thread, or wherever Dispatch
/// runs the main queue (a process parked in `dispatchMain()`, such as a test runner, serves it
/// from a pool thread); every other thread gets the next number the first time it shows up.
/// Examples start on the main queue, as playground code does. The book's numbers for queue threads (4, 5…) depend on the machine,
/// as the book says; what stays the same is which steps share a thread.
final class ThreadNumbers: @unchecked Sendable {
    // @unchecked: `numbers` is only touched under `lock`.
    private let lock = NSLock()
    private var numbers: [pthread_t: Int] = [:]

    /// Marks work running on the main queue.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// The thread that is number 1 when an example runs its own run loop in place of the
    /// playground's main one (Kodeco ch. 17's RunLoop page); otherwise the main thread and queue.
    private let mainStandIn: ExampleRunLoopThread?

    init(mainStandIn: ExampleRunLoopThread? = nil) {
        self.mainStandIn = mainStandIn
        _ = Self.mainQueueKey
    }

    /// Whether the current thread is the one numbered 1.
    private var isMain: Bool {
        if let mainStandIn { return mainStandIn.isCurrent }
        return Thread.isMainThread || DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
    }

    /// The current thread's number.
    var current: Int {
        let thread = pthread_self()
        if isMain { return 1 }
        return lock.withLock {
            if let number = numbers[thread] { return number }
            let number = numbers.count + 2
            numbers[thread] = number
            return number
        }
    }

    /// The current thread, to be numbered later among the threads of one row
    /// (``ThreadTrail/numbered``).
    var identity: ThreadTrail.Thread {
        isMain ? .main : .other(pthread_self())
    }
}

extension Publishers {
    /// The chapter's stand-in for a long computation: on request it works for `duration` seconds
    /// on the requesting thread, then sends `"Computation complete"` and finishes, printing the
    /// thread of each step. The work is simulated; it sleeps a hundredth of `duration`, so the
    /// catalogue stays quick (the book's three seconds show nothing the example needs).
    struct ExpensiveComputation: Publisher {
        typealias Output = String
        typealias Failure = Never

        let duration: TimeInterval
        let io: ExampleIO
        let threads: ThreadNumbers

        func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
            io.print("ExpensiveComputation subscriber received on thread \(threads.current)")
            subscriber.receive(subscription: Subscription(subscriber: subscriber, computation: self))
        }

        final class Subscription<S: Subscriber>: Combine.Subscription where S.Input == String, S.Failure == Never {
            private var subscriber: S?
            private let computation: ExpensiveComputation

            init(subscriber: S, computation: ExpensiveComputation) {
                self.subscriber = subscriber
                self.computation = computation
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > .none, let subscriber else { return }
                self.subscriber = nil
                let io = computation.io
                io.print("Beginning expensive computation on thread \(computation.threads.current)")
                Thread.sleep(forTimeInterval: computation.duration / 100)
                io.print("Completed expensive computation on thread \(computation.threads.current)")
                _ = subscriber.receive("Computation complete")
                subscriber.receive(completion: .finished)
            }

            func cancel() {
                subscriber = nil
            }
        }
    }
}

/// The three runs of the subscribe(on:)/receive(on:) page; `variant` picks the pipeline.
private func computationExample(_ io: ExampleIO, subscribeOn: Bool, receiveOnMain: Bool) {
    let threads = ThreadNumbers()
    let computationPublisher = Publishers.ExpensiveComputation(duration: 3, io: io, threads: threads)

    let queue = DispatchQueue(label: "serial queue")

    let currentThread = threads.current
    io.print("Start computation publisher on thread \(currentThread)")

    let printResult = { (value: String) in
        let thread = threads.current
        io.print("Received computation result on thread \(thread): '\(value)'")
        io.finish()
    }
    let subscription: AnyCancellable
    switch (subscribeOn, receiveOnMain) {
    case (false, _):
        subscription = computationPublisher
            .sink { value in printResult(value) }
    case (true, false):
        subscription = computationPublisher
            .subscribe(on: queue)
            .sink { value in printResult(value) }
    case (true, true):
        subscription = computationPublisher
            .subscribe(on: queue)
            .receive(on: DispatchQueue.main)
            .sink { value in printResult(value) }
    }
    io.whenFinished { subscription.cancel() }
}

extension Catalogue {
    static var kodecoSchedulers: [Example] { [
        Example(
            "expensive-computation",
            title: "subscribe(on:)",
            source: "Kodeco ch. 17, the computation on the current thread",
            book: .differs(
                "The book's listing drops the colon its code prints between the last thread "
                    + "number and the result."
            ),
            timing: .asynchronous,
            operators: ["Thread"]
        ) { io in
            computationExample(io, subscribeOn: false, receiveOnMain: false)
        },

        Example(
            "subscribe-on",
            title: "subscribe(on:)",
            source: "Kodeco ch. 17, subscribe(on:) a serial queue",
            book: .differs(BookNote.threadsOfTheComputation(bookShowed: 5)),
            timing: .asynchronous,
            operators: ["subscribeOn", "subscribe(on:)", "DispatchQueue"]
        ) { io in
            computationExample(io, subscribeOn: true, receiveOnMain: false)
        },

        Example(
            "receive-on-main",
            title: "receive(on:)",
            source: "Kodeco ch. 17, subscribe(on:) a queue, receive(on:) the main queue",
            book: .differs(BookNote.threadsOfTheComputation(bookShowed: 4)),
            timing: .asynchronous,
            operators: ["receiveOn", "receive(on:)", "subscribe(on:)", "DispatchQueue"]
        ) { io in
            computationExample(io, subscribeOn: true, receiveOnMain: true)
        },

        Example(
            "immediate-scheduler",
            title: "ImmediateScheduler",
            source: "Kodeco ch. 17, ImmediateScheduler",
            book: .notPrinted,
            duration: 3,
            operators: ["ImmediateScheduler", "receive(on:)", "Timer"],
            body: ImmediateSchedulerRecording(hopToGlobalQueueFirst: false)
        ),

        Example(
            "immediate-scheduler-global",
            title: "ImmediateScheduler",
            source: "Kodeco ch. 17, ImmediateScheduler after receive(on: DispatchQueue.global())",
            book: .notPrinted(note: BookNote.threadsByRow),
            asynchronousBody: ImmediateSchedulerRecording(hopToGlobalQueueFirst: true),
            operators: ["ImmediateScheduler", "receive(on:)", "DispatchQueue", "Timer"]
        ),

        Example(
            "dispatch-queue-scheduler",
            title: "DispatchQueue",
            source: "Kodeco ch. 17, DispatchQueue, with challenge 1: stop the timer after 4 s",
            book: .notPrinted(note: BookNote.threadsByRow),
            asynchronousBody: DispatchQueueRecording(),
            operators: ["DispatchQueue", "receive(on:)", "schedule", "SchedulerOptions"]
        ),

        Example(
            "operation-queue-concurrent",
            title: "OperationQueue",
            source: "Kodeco ch. 17, receive(on:) an OperationQueue with its default concurrency",
            book: .differs(
                "The book's order (4, 3, 2, 7…) is the order its machine's pool happened to run "
                    + "the ten operations, which changes from run to run; the example waits for all ten "
                    + "and prints them in value order, so that every run prints the same text."
            ),
            timing: .asynchronous,
            operators: ["receive(on:)", "OperationQueue"]
        ) { io in
            let queue = OperationQueue()

            // The values arrive in whatever order the pool runs the operations; they are printed
            // in value order once all ten are in, so every run prints the same text.
            let received = ArrivedValues()
            let subscription = (1...10).publisher
                .receive(on: queue)
                .sink { value in
                    let arrived = received.append(value)
                    guard arrived.count == 10 else { return }
                    for value in arrived.sorted() { io.print("Received \(value)") }
                    io.finish()
                }
            io.whenFinished { subscription.cancel() }
        },

        Example(
            "pausable-sink-no-resumer",
            title: "pausableSink",
            source: "Kodeco ch. 18, a pausable sink without a resumer",
            book: .same,
            operators: ["pausableSink", "Demand"]
        ) { io in
            let subscription = [1, 2, 3, 4, 5, 6]
                .publisher
                .pausableSink(receiveCompletion: { completion in
                    io.print("Pausable subscription completed: \(completion)")
                }) { value -> Bool in
                    io.print("Receive value: \(value)")
                    if value % 2 == 1 {
                        io.print("Pausing")
                        return false
                    }
                    return true
                }
            io.whenFinished { subscription.cancel() }
        },
    ] }
}

/// What the chapter's `recordThread(using:)` operator builds: a value and the thread it was on
/// at each record point.
struct ThreadTrail {
    /// A thread a value passed through: the main thread (or its stand-in), or another one.
    enum Thread: Equatable {
        case main
        case other(pthread_t)
    }

    let value: Int
    var threads: [Thread]

    /// The trail's thread numbers as shown: 1 for the main thread, and 2, 3… for the other
    /// threads in the order they appear in this trail. Dispatch may run each value on another
    /// pool thread, so numbering within the row is what keeps the text the same on every run,
    /// while still showing which record points shared a thread.
    var numbered: [Int] {
        var others: [pthread_t] = []
        return threads.map { thread in
            guard case .other(let id) = thread else { return 1 }
            if let index = others.firstIndex(of: id) { return index + 2 }
            others.append(id)
            return others.count + 1
        }
    }
}

/// The text stand-in for the chapter's `ThreadRecorderView`: one line per value from the source
/// timer, listing the threads it passed through, record point by record point.
final class ThreadRecorder: @unchecked Sendable {
    // @unchecked: `subscription` is set once before any value flows and cancelled after the last
    // value was shown (the RunLoop page's scheduled action); the rest is immutable.
    let io: ExampleIO
    let threads: ThreadNumbers
    /// The subscription the RunLoop page's scheduled action cancels (the book's
    /// `ThreadRecorder.subscription`).
    var subscription: AnyCancellable?

    init(io: ExampleIO, threads: ThreadNumbers) {
        self.io = io
        self.threads = threads
    }

    func show(_ trail: ThreadTrail) {
        io.print("\(trail.value): " + trail.numbered.map { "thread \($0)" }.joined(separator: " → "))
    }
}

extension Publisher where Output == Int {
    /// Starts a value's trail with the current thread.
    func recordThread(using recorder: ThreadRecorder) -> Publishers.Map<Self, ThreadTrail> {
        map { ThreadTrail(value: $0, threads: [recorder.threads.identity]) }
    }
}

extension Publisher where Output == ThreadTrail {
    /// Adds the current thread to each value's trail.
    func recordThread(using recorder: ThreadRecorder) -> Publishers.Map<Self, ThreadTrail> {
        map { trail in
            var trail = trail
            trail.threads.append(recorder.threads.identity)
            return trail
        }
    }
}

/// The ImmediateScheduler page: the chapter's one-second counting timer (on the example's
/// scheduler), its thread recorded before and after `receive(on: ImmediateScheduler.shared)`;
/// optionally with `receive(on: DispatchQueue.global())` first, the page's experiment. Three
/// values are shown.
struct ImmediateSchedulerRecording: ScheduledExampleBody {
    let hopToGlobalQueueFirst: Bool

    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let recorder = ThreadRecorder(io: io, threads: ThreadNumbers())
        // Each tick waits for its value to be shown, so the values hopping through the global
        // queue are shown in order on every run.
        let gate = DeliveryGate()
        let source = context.pacedTimer(every: .seconds(1), gate: gate)
            .scan(0) { counter, _ in counter + 1 }
            .prefix(3)
            .drawn("timer", on: io)

        let setupPublisher = { (recorder: ThreadRecorder) -> AnyPublisher<ThreadTrail, Never> in
            if hopToGlobalQueueFirst {
                return source
                    .receive(on: DispatchQueue.global())
                    .recordThread(using: recorder)
                    .receive(on: ImmediateScheduler.shared)
                    .recordThread(using: recorder)
                    .eraseToAnyPublisher()
            }
            return source
                .recordThread(using: recorder)
                .receive(on: ImmediateScheduler.shared)
                .recordThread(using: recorder)
                .eraseToAnyPublisher()
        }

        let shown = ThreadSafeCount()
        setupPublisher(recorder)
            .drawn("shown", on: io, isOutput: true) { "\($0.value)" }
            .sink { trail in
                recorder.show(trail)
                gate.signal()
                if shown.increment() == 3 { io.finish() }
            }
            .store(in: &io.subscriptions)
    }
}

/// The DispatchQueue page: a repeating action on the source queue (the main queue in the book,
/// here the example's scheduler in its place) sends into a subject; values are recorded before
/// and after `receive(on: serialQueue, options:)`. Challenge 1's first solution stops the timer
/// after four seconds with the scheduler's `schedule(after:)`, so four values are shown.
struct DispatchQueueRecording: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let recorder = ThreadRecorder(io: io, threads: ThreadNumbers())
        let serialQueue = DispatchQueue(label: "Serial queue")
        let sourceQueue = context.scheduler

        let source = PassthroughSubject<Void, Never>()

        // Each tick waits for its value to be shown, so the chart's times are the same on every run.
        let gate = DeliveryGate()
        let subscription = sourceQueue.schedule(after: sourceQueue.now, interval: .seconds(1)) {
            source.send()
            gate.waitForDelivery()
        }

        let shown = ThreadSafeCount()
        source
            .scan(0) { counter, _ in counter + 1 }
            .drawn("source", on: io)
            .recordThread(using: recorder)
            .receive(on: serialQueue, options: DispatchQueue.SchedulerOptions(qos: .userInteractive))
            .recordThread(using: recorder)
            .drawn("shown", on: io, isOutput: true) { "\($0.value)" }
            .sink { trail in
                recorder.show(trail)
                gate.signal()
                if shown.increment() == 4 { io.finish() }
            }
            .store(in: &io.subscriptions)

        sourceQueue.schedule(after: sourceQueue.now.advanced(by: .seconds(4))) {
            subscription.cancel()
        }
        io.whenFinished { subscription.cancel() }
    }
}

/// Values delivered concurrently, collected as they arrive.
final class ArrivedValues: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var values: [Int] = []

    /// Adds `value` and returns every value that has arrived so far.
    func append(_ value: Int) -> [Int] {
        lock.withLock {
            values.append(value)
            return values
        }
    }
}

/// A counter values delivered concurrently can bump (an OperationQueue runs the sink on several
/// threads at once).
final class ThreadSafeCount: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    /// Adds one and returns the new count.
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

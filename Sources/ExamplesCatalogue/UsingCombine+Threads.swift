import Combine
import Dispatch
import Foundation

// "Using Combine", developing with Combine: pipelines and threads. The section has no listing of
// its own; this example puts its statements in one pipeline and prints where each stage runs.

/// Names the thread or queue a stage runs on, by the role it plays in the example rather than by
/// a number the system picks: the main thread (or the main queue), the run loop thread standing
/// in for `RunLoop.main`, or the label of the example's queue running the work.
final class StagePlaces: @unchecked Sendable {
    // @unchecked: every stored property is a constant.
    private let key = DispatchSpecificKey<String>()
    private let mainQueueKey = DispatchSpecificKey<Bool>()
    private let runLoopThread: ExampleRunLoopThread

    init(runLoopThread: ExampleRunLoopThread) {
        self.runLoopThread = runLoopThread
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    }

    /// Makes `queue` known by `name`.
    func name(_ queue: DispatchQueue, _ name: String) {
        queue.setSpecific(key: key, value: name)
    }

    /// Where the caller is running.
    var current: String {
        if runLoopThread.isCurrent { return "the run loop's thread" }
        if let name = DispatchQueue.getSpecific(key: key) { return name }
        if Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true { return "the main thread" }
        return "another thread"
    }
}

extension Catalogue {
    static var usingCombineThreads: [Example] { [
        Example(
            "pipelines-and-threads",
            title: "pipelines and threads",
            source: "Using Combine, developing with Combine: pipelines and threads",
            book: .notPrinted,
            timing: .asynchronous,
            operators: ["receive(on:)", "subscribe(on:)", "delay", "RunLoop", "DispatchQueue", "Thread"]
        ) { io in
            // `RunLoop.main` is a run loop of the example's own thread: a test process never
            // turns the main run loop.
            let mainRunLoop = ExampleRunLoopThread(name: "main run loop stand-in", stoppingWith: io)
            let places = StagePlaces(runLoopThread: mainRunLoop)
            // Serial queues, as the book recommends for Combine work off the main thread.
            let backgroundQueue = DispatchQueue(label: "background queue")
            let timingQueue = DispatchQueue(label: "delay's queue")
            places.name(backgroundQueue, "background queue")
            places.name(timingQueue, "delay's queue")

            let pipeline = Deferred { () -> Just<Int> in
                io.print("Deferred makes its publisher on \(places.current)")
                return Just(5)
            }
            .map { value -> Int in
                io.print("map before subscribe(on:) gets \(value) on \(places.current)")
                return value * 2
            }
            // Moves what comes before it (the subscription, and so Just's delivery) to the queue.
            .subscribe(on: backgroundQueue)
            .map { value -> Int in
                io.print("map after subscribe(on:) gets \(value) on \(places.current)")
                return value + 1
            }
            // An operator taking a scheduler moves itself and everything after it there.
            .delay(for: .milliseconds(10), scheduler: timingQueue)
            .map { value -> String in
                io.print("map after delay gets \(value) on \(places.current)")
                return "value \(value)"
            }
            // Moves everything after it to the run loop, as the book does for UI updates.
            .receive(on: mainRunLoop.runLoop)
            io.print("sink subscribes on \(places.current)")
            let subscription = pipeline
                .sink { value in
                    io.print("sink receives \(value) on \(places.current)")
                    io.finish()
                }
            io.whenFinished { subscription.cancel() }
        },
    ] }
}

import Foundation

/// A dedicated `Thread` that keeps running its own `RunLoop`, for tests of run-loop scheduling.
///
/// Under `swift test` nobody runs `RunLoop.main` (the main thread belongs to the test runner), so
/// tests that need a live run loop use one of these instead. The loop is kept alive by a far-future
/// timer (a run loop with no timers or sources returns from `run` at once) and stops on `stop()`.
public final class RunLoopThread: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _runLoop: RunLoop?
    private var _thread: Thread?
    private var stopping = false

    /// Starts the thread and waits until its run loop is running.
    public init(name: String = "RunLoopThread") {
        let thread = Thread { [unowned self] in self.main() }
        thread.name = name
        _thread = thread
        thread.start()
        ready.wait()
    }

    /// The thread's run loop; schedule work onto it from any thread.
    public var runLoop: RunLoop { lock.withLock { _runLoop! } }

    /// The thread itself, to check where work ran.
    public var thread: Thread { lock.withLock { _thread! } }

    private func main() {
        let loop = RunLoop.current
        // Keeps `run(mode:before:)` from returning immediately for lack of input sources.
        let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
        loop.add(keepAlive, forMode: .default)
        lock.withLock { _runLoop = loop }
        ready.signal()
        while !lock.withLock({ stopping }) {
            _ = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
        keepAlive.invalidate()
        finished.signal()
    }

    /// Stops the loop and waits for the thread to leave it.
    public func stop() {
        lock.withLock { stopping = true }
        finished.wait()
    }
}

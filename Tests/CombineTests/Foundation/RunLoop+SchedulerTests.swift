import Combine
import Foundation
import TestSupport
import Testing

@Suite("RunLoop+Scheduler")
struct RunLoopSchedulerTests {
    typealias Stride = RunLoop.SchedulerTimeType.Stride
    typealias Time = RunLoop.SchedulerTimeType

    @Test func strideIsInSeconds() throws {
        let two: Stride = 2
        let half: Stride = 0.5
        #expect(two.timeInterval == 2)
        #expect(half.magnitude == 0.5)
        #expect(Stride.seconds(3).timeInterval == 3)
        #expect(Stride.seconds(0.25).timeInterval == 0.25)
        #expect(Stride.milliseconds(100).timeInterval == 0.1)
        #expect(Stride.microseconds(5).timeInterval == 0.000_005)
        #expect(Stride.nanoseconds(5).timeInterval == 0.000_000_005)
        #expect(Stride(exactly: 7) == 7)
        #expect(Stride.seconds(1) + .milliseconds(500) == 1.5)
        #expect(Stride.seconds(1) < .seconds(2))
        let data = try JSONEncoder().encode(Stride.seconds(2))
        #expect(try JSONDecoder().decode(Stride.self, from: data) == .seconds(2))
        #expect(Set([Stride(1), Stride(1.0)]).count == 1)
    }

    @Test func timeTypeWrapsADate() throws {
        // Kodeco ch. 11, RunLoop: `runLoop.schedule(after: .init(Date(timeIntervalSinceNow:
        // 3.0)))`.
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let time = Time(date)
        #expect(time.date == date)
        #expect(time.advanced(by: .seconds(2)).date == Date(timeIntervalSinceReferenceDate: 1002))
        #expect(time.distance(to: Time(Date(timeIntervalSinceReferenceDate: 999))) == -1)
        let data = try JSONEncoder().encode(time)
        #expect(try JSONDecoder().decode(Time.self, from: data) == time)
        #expect(RunLoop.main.minimumTolerance == 0)
    }

    @Test func runsWorkOnTheThreadOfItsRunLoopInOrder() async {
        let loopThread = RunLoopThread(name: "runloop.scheduler.order")
        defer { loopThread.stop() }
        let runLoop = loopThread.runLoop
        let expectedThread = loopThread.thread
        let subject = PassthroughSubject<Int, Never>()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<([Int], Bool), Never>) in
            var received: [Int] = []
            var allOnLoopThread = true
            var cancellable: AnyCancellable?
            cancellable = subject.receive(on: runLoop).sink(
                receiveCompletion: { _ in
                    continuation.resume(returning: (received, allOnLoopThread))
                    _ = cancellable
                },
                receiveValue: {
                    allOnLoopThread = allOnLoopThread && Thread.current == expectedThread
                    received.append($0)
                })
            for value in 1...200 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(result.0 == Array(1...200))
        #expect(result.1)
    }

    @Test func delayedWorkWaitsForItsDate() async {
        let loopThread = RunLoopThread(name: "runloop.scheduler.delay")
        defer { loopThread.stop() }
        let runLoop = loopThread.runLoop
        let start = Date()
        let elapsed = await withCheckedContinuation { (continuation: CheckedContinuation<TimeInterval, Never>) in
            runLoop.schedule(after: .init(Date(timeIntervalSinceNow: 0.1)), tolerance: .milliseconds(10)) {
                continuation.resume(returning: Date().timeIntervalSince(start))
            }
        }
        #expect(elapsed >= 0.09)
    }

    @Test func bookExampleRepeatingScheduleStopsWhenCancelled() async throws {
        // Kodeco ch. 11, RunLoop: `runLoop.schedule(after: runLoop.now, interval: .seconds(1),
        // tolerance: .milliseconds(100)) { print("Timer fired") }`, cancelled after 3 s by a
        // one-shot `schedule(after:)`. Scaled down: 50 ms interval, cancelled after 300 ms.
        let loopThread = RunLoopThread(name: "runloop.scheduler.repeat")
        defer { loopThread.stop() }
        let runLoop = loopThread.runLoop
        let lines = Locked<[String]>([])
        let subscription = runLoop.schedule(after: runLoop.now, interval: .milliseconds(50), tolerance: .milliseconds(5)) {
            lines.append("Timer fired")
        }
        let boxed = UncheckedBox(subscription)
        runLoop.schedule(after: .init(Date(timeIntervalSinceNow: 0.3))) { boxed.value.cancel() }
        try await Task.sleep(for: .milliseconds(600))
        let count = lines.current.count
        // Normally 6 or 7; a loaded machine makes a repeating run-loop timer skip missed firings.
        #expect(count >= 2 && count <= 8)
        #expect(Set(lines.current) == ["Timer fired"])
        try await Task.sleep(for: .milliseconds(150))
        #expect(lines.current.count == count)
    }

    /// A negative interval does not trap: a run-loop timer with no positive interval fires once.
    @Test func negativeIntervalsDoNotTrap() async {
        let loopThread = RunLoopThread(name: "runloop.scheduler.negative")
        defer { loopThread.stop() }
        let runLoop = loopThread.runLoop
        let runs = Locked(0)
        let cancellable = runLoop.schedule(after: runLoop.now, interval: .seconds(-1)) { runs.increment() }
        runLoop.schedule(after: runLoop.now.advanced(by: .seconds(-1))) { runs.increment() }
        #expect(await eventually { runs.current >= 2 })
        cancellable.cancel()
    }

    /// `RunLoop.main` works as a scheduler when something runs the main run loop. A command-line
    /// program does that with `RunLoop.main.run()` (or `run(until:)`); running the main run loop
    /// also drains `DispatchQueue.main`. Under `swift test` the main thread belongs to the runner,
    /// so nothing scheduled here runs: the test checks what can be seen without running the loop,
    /// that `RunLoop.main` keeps wall-clock time and that cancelling a repeating schedule on it
    /// lets go of the action at once (the run loop's timer list would otherwise keep it).
    @Test func mainRunLoopAcceptsWorkAndCancelReleasesIt() {
        let before = Date()
        let now = RunLoop.main.now.date
        #expect(now >= before && now.timeIntervalSince(before) < 5)
        weak var weakToken: CaptureToken?
        let ran = Locked(false)
        do {
            let token = CaptureToken()
            weakToken = token
            let cancellable = RunLoop.main.schedule(
                after: RunLoop.main.now.advanced(by: .seconds(3600)), interval: .seconds(1)
            ) {
                _ = token
                ran.withLock { $0 = true }
            }
            cancellable.cancel()
        }
        #expect(weakToken == nil)
        #expect(!ran.current)
    }
}

import Combine
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("DispatchQueue+Scheduler")
struct DispatchQueueSchedulerTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride
    typealias Time = DispatchQueue.SchedulerTimeType

    @Test func strideLiteralsAndUnitsAreNanoseconds() {
        let two: Stride = 2
        let half: Stride = 0.5
        #expect(two.magnitude == 2_000_000_000)
        #expect(half.magnitude == 500_000_000)
        #expect(Stride.seconds(1).magnitude == 1_000_000_000)
        #expect(Stride.seconds(1.25).magnitude == 1_250_000_000)
        #expect(Stride.milliseconds(3).magnitude == 3_000_000)
        #expect(Stride.microseconds(3).magnitude == 3_000)
        #expect(Stride.nanoseconds(3).magnitude == 3)
        #expect(Stride(.milliseconds(7)) == .milliseconds(7))
        #expect(Stride(.never).magnitude == Int.max)
        #expect(Stride.seconds(2).timeInterval == .nanoseconds(2_000_000_000))
        // Using Combine, pattern: retrying on transient failure: `Stride(integerLiteral:
        // Int.random(in: 1..<5))` is seconds.
        #expect(Stride(integerLiteral: 3) == .seconds(3))
        #expect(Stride(exactly: 4) == .seconds(4))
        #expect(Stride(exactly: Int.max) == nil)
    }

    @Test func strideArithmeticComparisonCodableHashable() throws {
        var stride: Stride = .seconds(1)
        stride += .milliseconds(500)
        #expect(stride == .milliseconds(1500))
        stride -= .seconds(2)
        #expect(stride == .milliseconds(-500))
        #expect(Stride.seconds(1) < .seconds(2))
        #expect(Stride.nanoseconds(3) * Stride.nanoseconds(4) == .nanoseconds(12))
        let data = try JSONEncoder().encode(Stride.milliseconds(5))
        #expect(try JSONDecoder().decode(Stride.self, from: data) == .milliseconds(5))
        #expect(Set([Stride.seconds(1), .milliseconds(1000), .seconds(2)]).count == 2)
    }

    @Test func timeTypeStridesAndCodable() throws {
        let start = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let later = start.advanced(by: .microseconds(5))
        #expect(later.dispatchTime.uptimeNanoseconds == 15_000)
        #expect(start.distance(to: later) == .microseconds(5))
        #expect(later.distance(to: start) == .microseconds(-5))
        #expect(later.advanced(by: .microseconds(-5)) == start)
        #expect(start < later)
        let data = try JSONEncoder().encode(later)
        #expect(try JSONDecoder().decode(Time.self, from: data) == later)
        #expect(Set([start, later, start]).count == 2)
        #expect(DispatchQueue.main.minimumTolerance == .nanoseconds(0))
    }

    /// Spec §25: Apple's stride encodes its nanoseconds under `_nanoseconds`.
    @Test func strideEncodesUnderApplesKey() throws {
        let data = try JSONEncoder().encode(Stride.nanoseconds(42))
        #expect(String(decoding: data, as: UTF8.self) == #"{"_nanoseconds":42}"#)
        #expect(try JSONDecoder().decode(Stride.self, from: Data(#"{"_nanoseconds":7}"#.utf8)) == .nanoseconds(7))
    }

    /// Spec §25: distances involving the distant future saturate both ways; the longest stride
    /// reaches the distant future; going back past the start stops at the first nanosecond.
    @Test func timeArithmeticSaturatesAsApples() {
        let start = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let future = Time(.distantFuture)
        let nearFuture = Time(DispatchTime(uptimeNanoseconds: DispatchTime.distantFuture.uptimeNanoseconds - 1000))
        #expect(start.distance(to: future) == .nanoseconds(.max))
        #expect(future.distance(to: start) == .nanoseconds(.max))
        #expect(nearFuture.distance(to: start) == .nanoseconds(.max))
        #expect(start.advanced(by: .nanoseconds(.max)) == future)
        #expect(start.advanced(by: .nanoseconds(-20_000)).dispatchTime.uptimeNanoseconds == 1)
    }

    /// Spec §25: the saturation leaves a time's distance to itself alone: `0`, even within
    /// 1,024 ns of the distant future.
    @Test func aTimeNearTheDistantFutureIsNoDistanceFromItself() {
        let end = DispatchTime.distantFuture.uptimeNanoseconds
        for offset: UInt64 in [1, 1000, 1024] {
            let time = Time(DispatchTime(uptimeNanoseconds: end - offset))
            #expect(time.distance(to: time) == .nanoseconds(0))
        }
        let nearFuture = Time(DispatchTime(uptimeNanoseconds: end - 1000))
        let closerStill = Time(DispatchTime(uptimeNanoseconds: end - 10))
        #expect(nearFuture.distance(to: closerStill) == .nanoseconds(.max))
    }

    @Test func schedulesOnTheQueueNowAndLater() async {
        let queue = DispatchQueue(label: "dispatch.scheduler.test")
        let start = queue.now
        let elapsed = await withCheckedContinuation { (continuation: CheckedContinuation<Stride, Never>) in
            queue.schedule(after: queue.now.advanced(by: .milliseconds(50))) {
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: start.distance(to: queue.now))
            }
        }
        #expect(elapsed >= .milliseconds(50))
        let group = DispatchGroup()
        var ran = false
        queue.schedule(options: .init(qos: .userInitiated, group: group)) { ran = true }
        group.wait()
        #expect(ran)
    }

    @Test func repeatingScheduleReallyStopsWhenCancelled() async throws {
        // Kodeco ch. 11, DispatchQueue: `queue.schedule(after: queue.now, interval: .seconds(1)) {
        // … }` starts at once and returns a Cancellable; here with a 20 ms interval.
        let queue = DispatchQueue(label: "dispatch.repeat")
        let counter = Locked(0)
        let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(20)) {
            counter.increment()
        }
        try await Task.sleep(for: .milliseconds(150))
        cancellable.cancel()
        queue.sync {}
        let atCancel = counter.current
        #expect(atCancel >= 2)
        try await Task.sleep(for: .milliseconds(100))
        #expect(counter.current == atCancel)
    }

    @Test func bookExampleTimerEmitsThroughASubject() async throws {
        // Kodeco ch. 11, DispatchQueue: a repeating schedule feeding a PassthroughSubject prints
        // "Timer emitted 0", "Timer emitted 1", …
        let queue = DispatchQueue(label: "dispatch.timer.subject")
        let source = PassthroughSubject<Int, Never>()
        let lines = Locked<[String]>([])
        let subscription = source.sink { lines.append("Timer emitted \($0)") }
        var counter = 0
        let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(10)) {
            source.send(counter)
            counter += 1
        }
        try await Task.sleep(for: .milliseconds(200))
        cancellable.cancel()
        queue.sync {}
        let printed = lines.current
        #expect(printed.count >= 3)
        #expect(Array(printed.prefix(3)) == ["Timer emitted 0", "Timer emitted 1", "Timer emitted 2"])
        subscription.cancel()
    }

    @Test func bookChallengeStopTheTimerWithAOneShotSchedule() async throws {
        // Kodeco ch. 17, challenge 1: stop a repeating schedule with
        // `serialQueue.schedule(after: serialQueue.now.advanced(by: .seconds(4)))`; scaled to 100 ms.
        let serialQueue = DispatchQueue(label: "Serial queue")
        let counter = Locked(0)
        let subscription = serialQueue.schedule(after: serialQueue.now, interval: .milliseconds(20)) {
            counter.increment()
        }
        serialQueue.schedule(after: serialQueue.now.advanced(by: .milliseconds(100))) {
            subscription.cancel()
        }
        try await Task.sleep(for: .milliseconds(200))
        let stopped = counter.current
        #expect(stopped >= 2 && stopped <= 7)
        try await Task.sleep(for: .milliseconds(100))
        #expect(counter.current == stopped)
    }

    /// `DispatchQueue.main` delivers on the main queue. Under `swift test` the test runner's
    /// `async` entry point calls `dispatchMain()`, so the main queue is serviced. On Linux
    /// `dispatchMain()` parks the main thread and drains the main queue from a Dispatch worker
    /// thread, so the check is "on the main queue", not `Thread.isMainThread`. A command-line
    /// program must call `dispatchMain()` or run `RunLoop.main` for the same effect.
    @Test func mainQueueDeliversOnTheMainQueue() async {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let label = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            var cancellable: AnyCancellable?
            cancellable = Just(1).receive(on: DispatchQueue.main).sink { _ in
                dispatchPrecondition(condition: .onQueue(.main))
                continuation.resume(returning: DispatchQueue.getSpecific(key: key))
                _ = cancellable
            }
        }
        #expect(label == "main")
    }

    /// Negative intervals. Dispatch cannot repeat backwards (Apple's Dispatch overlay stops the
    /// process converting the interval), so the repeating form traps, naming the API, as do the
    /// operators that arm a repeating timer (`debounce`, `timeout`) on a dispatch queue.
    @Test func aNegativeRepeatingIntervalTrapsNamingTheAPI() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = DispatchQueue(label: "negative.interval")
            _ = queue.schedule(after: queue.now, interval: .seconds(-1)) {}
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("DispatchQueue.schedule(after:interval:tolerance:options:_:)"))
        #expect(text.contains("negative interval"))
    }

    @Test func aNegativeToleranceTrapsNamingTheAPI() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = DispatchQueue(label: "negative.tolerance")
            _ = queue.schedule(after: queue.now, interval: .seconds(1), tolerance: .seconds(-1)) {}
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("DispatchQueue.schedule(after:interval:tolerance:options:_:)"))
        #expect(text.contains("negative tolerance"))
    }

    @Test func debounceWithANegativeDueTimeTrapsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.debounce(for: .seconds(-1), scheduler: DispatchQueue(label: "debounce")).sink { _ in }
            subject.send(1)
            cancellable.cancel()
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("negative interval"))
    }

    @Test func timeoutWithANegativeIntervalTrapsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cancellable = PassthroughSubject<Int, Never>()
                .timeout(.seconds(-1), scheduler: DispatchQueue(label: "timeout")).sink { _ in }
            cancellable.cancel()
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("negative interval"))
    }

    /// One-shot work at a date in the past runs at once, as Dispatch runs it: `delay` and
    /// `throttle` with a negative interval deliver.
    @Test func delayAndThrottleWithANegativeIntervalDeliver() async {
        let queue = DispatchQueue(label: "negative.one-shot")
        let delayed = Locked<[Int]>([])
        let throttled = Locked<[Int]>([])
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.delay(for: .seconds(-1), scheduler: queue).sink { delayed.append($0) }
        let second = subject.throttle(for: .seconds(-1), scheduler: queue, latest: true).sink { throttled.append($0) }
        subject.send(1)
        #expect(await eventually { delayed.current == [1] && throttled.current == [1] })
        subject.send(2)
        #expect(await eventually { delayed.current == [1, 2] && throttled.current == [1, 2] })
        first.cancel()
        second.cancel()
    }

    /// `Stride` arithmetic that overflows traps naming the type and the operation, in release
    /// builds too.
    @Test func strideOverflowTrapsNamingTheAPI() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let big = Stride.nanoseconds(Int(ProcessInfo.processInfo.environment["NEVER_SET"] ?? "\(Int.max)")!)
            _ = big + .nanoseconds(1)
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("DispatchQueue.SchedulerTimeType.Stride"))
        #expect(text.contains("overflow"))
    }
}

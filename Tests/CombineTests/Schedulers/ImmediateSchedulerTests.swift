import Combine
import Foundation
import TestSupport
import Testing

@Suite("ImmediateScheduler")
struct ImmediateSchedulerTests {
    @Test func runsEveryActionAtOnceOnTheCallingThread() {
        let scheduler = ImmediateScheduler.shared
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log.append("after") }
        let cancellable = scheduler.schedule(after: scheduler.now, interval: 1) { log.append("repeating") }
        cancellable.cancel()
        #expect(log == ["now", "after", "repeating"])
    }

    @Test func timeNeverPasses() {
        let scheduler = ImmediateScheduler.shared
        let now = scheduler.now
        #expect(now.distance(to: now.advanced(by: 5)) == 0)
        #expect(scheduler.minimumTolerance == 0)
    }

    @Test func strideLiteralsConversionsAndArithmetic() throws {
        typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
        let five: Stride = 5
        let truncated: Stride = 2.9
        #expect(five.magnitude == 5)
        #expect(truncated.magnitude == 2)
        #expect(Stride(3) + Stride(4) == 7)
        #expect(Stride(3) - Stride(4) == -1)
        #expect(Stride(3) * Stride(4) == 12)
        #expect(Stride(exactly: UInt8(9)) == 9)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride.seconds(2) < Stride.seconds(3))
        #expect([Stride.milliseconds(1), .microseconds(1), .nanoseconds(1), .seconds(1.5)].map(\.magnitude) == [1, 1, 1, 1])
        let data = try JSONEncoder().encode(Stride(42))
        #expect(try JSONDecoder().decode(Stride.self, from: data) == 42)
        #expect(Set([Stride(1), Stride(1), Stride(2)]).count == 2)
    }

    @Test func bookExampleReceiveOnImmediateStaysOnTheCurrentThread() {
        // Kodeco ch. 17, ImmediateScheduler: with `receive(on: ImmediateScheduler.shared)` values
        // arrive on the thread that sent them, synchronously.
        let subject = PassthroughSubject<Int, Never>()
        var receivedOn: [Thread] = []
        let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { _ in receivedOn.append(Thread.current) }
        subject.send(1)
        subject.send(2)
        #expect(receivedOn == [Thread.current, Thread.current])
        cancellable.cancel()
    }

    /// Spec §25: the repeating schedule runs the action once and hands back the empty
    /// subscription, described "Empty".
    @Test func repeatingScheduleReturnsTheEmptySubscription() {
        var runs = 0
        let token = ImmediateScheduler.shared.schedule(
            after: ImmediateScheduler.shared.now, interval: .seconds(1), tolerance: .zero, options: nil
        ) { runs += 1 }
        #expect(runs == 1)
        #expect(String(describing: token) == "Empty")
        #expect(token is any Subscription)
    }

    /// `Stride` arithmetic that overflows traps naming the type and the operation, in release
    /// builds too.
    @Test func strideOverflowTrapsNamingTheAPI() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let big = ImmediateScheduler.SchedulerTimeType.Stride(
                Int(ProcessInfo.processInfo.environment["NEVER_SET"] ?? "\(Int.max)")!)
            _ = big * 2
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("ImmediateScheduler.SchedulerTimeType.Stride *"))
    }
}

import Combine
import CombineTesting
import Foundation
import Testing
import Tributary

/// A scheduler that records every call it receives, to prove `AnyScheduler` forwards each
/// requirement unchanged.
private final class SpyScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = String

    enum Call: Equatable {
        case now
        case minimumTolerance
        case immediate(options: String?)
        case after(date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?)
        case repeating(
            date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
            options: String?)
        case cancel
    }

    private let lock = NSLock()
    private var _calls: [Call] = []
    var calls: [Call] { lock.withLock { _calls } }
    private func record(_ call: Call) { lock.withLock { _calls.append(call) } }

    private struct Token: Cancellable {
        let spy: SpyScheduler
        func cancel() { spy.record(.cancel) }
    }

    var now: SchedulerTimeType {
        record(.now)
        return 42
    }

    var minimumTolerance: SchedulerTimeType.Stride {
        record(.minimumTolerance)
        return 7
    }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        record(.immediate(options: options))
        action()
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?,
        _ action: @escaping () -> Void
    ) {
        record(.after(date: date, tolerance: tolerance, options: options))
        action()
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: String?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        record(.repeating(date: date, interval: interval, tolerance: tolerance, options: options))
        action()
        return Token(spy: self)
    }
}

@Suite("AnyScheduler")
struct AnySchedulerTests {
    @Test func forwardsNowAndToleranceOnEveryAccess() {
        let spy = SpyScheduler()
        let erased = spy.eraseToAnyScheduler()
        #expect(erased.now == 42)
        #expect(erased.minimumTolerance == 7)
        #expect(erased.now == 42)
        #expect(spy.calls == [.now, .minimumTolerance, .now])
    }

    @Test func forwardsEveryScheduleVariantWithItsArguments() {
        let spy = SpyScheduler()
        let erased = AnyScheduler(spy)
        nonisolated(unsafe) var ran = 0
        erased.schedule(options: "o1") { ran += 1 }
        erased.schedule { ran += 1 }
        erased.schedule(after: 5, tolerance: 2, options: "o2") { ran += 1 }
        erased.schedule(after: 6, tolerance: 3) { ran += 1 }
        let token = erased.schedule(after: 8, interval: 4, tolerance: 1, options: "o3") { ran += 1 }
        token.cancel()
        #expect(ran == 5)
        #expect(
            spy.calls == [
                .immediate(options: "o1"),
                .immediate(options: nil),
                .after(date: 5, tolerance: 2, options: "o2"),
                .after(date: 6, tolerance: 3, options: nil),
                .repeating(date: 8, interval: 4, tolerance: 1, options: "o3"),
                .cancel,
            ])
    }

    @Test func convenienceOverloadsUseTheWrappedMinimumTolerance() {
        let spy = SpyScheduler()
        let erased = spy.eraseToAnyScheduler()
        erased.schedule(after: 9) {}
        _ = erased.schedule(after: 10, interval: 2) {}
        #expect(
            spy.calls == [
                .minimumTolerance, .after(date: 9, tolerance: 7, options: nil),
                .minimumTolerance, .repeating(date: 10, interval: 2, tolerance: 7, options: nil),
            ])
    }

    @Test func drivesATestSchedulerThroughTheErasure() {
        let scheduler = TestScheduler()
        let erased = scheduler.eraseToAnyScheduler()
        nonisolated(unsafe) var fired: [Int] = []
        erased.schedule(after: erased.now.advanced(by: 3)) { fired.append(erased.now.ticks) }
        let token = erased.schedule(after: 1, interval: 2) { fired.append(-erased.now.ticks) }
        scheduler.advance(by: 5)
        token.cancel()
        scheduler.advance(by: 5)
        #expect(fired == [-1, 3, -3, -5])
    }

    @Test func immediateRunsOnTheSpot() {
        let erased = AnyScheduler<TestScheduler.SchedulerTimeType, Never>.immediate
        nonisolated(unsafe) var fired: [String] = []
        erased.schedule { fired.append("now") }
        erased.schedule(after: 1_000) { fired.append("after") }
        let token = erased.schedule(after: 1_000, interval: 5) { fired.append("repeating") }
        token.cancel()
        #expect(fired == ["now", "after", "repeating"])
        #expect(erased.now == 0)
        #expect(erased.minimumTolerance == 0)
    }

    @Test func immediateWithACustomClock() {
        nonisolated(unsafe) var clock = 3
        let erased = AnyScheduler<TestScheduler.SchedulerTimeType, String>.immediate(now: { .init(ticks: clock) })
        #expect(erased.now == 3)
        clock = 9
        #expect(erased.now == 9)
    }
}

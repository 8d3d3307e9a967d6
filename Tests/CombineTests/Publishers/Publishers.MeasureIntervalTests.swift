import Combine
import CombineTesting
import Foundation
import TestSupport
import Testing

@Suite("Publishers.MeasureInterval")
struct PublishersMeasureIntervalTests {
    @Test func measuresFromSubscriptionThenBetweenValues() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>()
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: 5)
        subject.send("a")
        scheduler.advance(by: 7)
        subject.send("b")
        subject.send("c")
        subject.send(completion: .finished)
        #expect(subscriber.values.map(\.ticks) == [5, 7, 0])
        #expect(subscriber.completions == [.finished])
    }

    @Test func dispatchQueueStrideIsInNanoseconds() async throws {
        // Using Combine, reference: measureInterval: `measureInterval(using: q)` gives
        // DispatchQueue strides whose magnitude is nanoseconds.
        let queue = DispatchQueue(label: "measureInterval")
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Never>()
        let before = DispatchTime.now().uptimeNanoseconds
        subject.measureInterval(using: queue).subscribe(subscriber)
        try await Task.sleep(for: .milliseconds(50))
        subject.send(1)
        let elapsed = DispatchTime.now().uptimeNanoseconds - before
        let first = try #require(subscriber.values.first)
        // Bounded by the wall time measured around it (a loaded machine, or a sanitizer run, can
        // stretch the 50 ms sleep to seconds), so the check is on the unit, not on the load.
        #expect(first.magnitude >= 40_000_000)
        #expect(UInt64(first.magnitude) <= elapsed)
        #expect(first.timeInterval == .nanoseconds(first.magnitude))
    }

    /// Spec §6 and §12: a cancel or a completion before the subscription does nothing; after a
    /// cancel a value is ignored without reading the clock.
    @Test func earlyCancelIsANoOpAndACancelGates() {
        let scheduler = CallRecordingScheduler()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(initialDemand: .max(5))
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.cancelSubscriber()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(5)])
        subscriber.cancel()
        scheduler.clearCalls()
        #expect(upstream.send(1) == .none)
        #expect(scheduler.calls == [])
        #expect(subscriber.values == [])
    }

    /// Spec §20: a value returns `.none`, and the subscriber's answer is requested upstream
    /// after the delivery; values the upstream sends from inside that request are delivered too.
    @Test func requestsTheSubscribersAnswerAfterDelivering() {
        let scheduler = TestScheduler()
        let upstream = SendingOnRequestUpstream(reentrantSends: 5)
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(
            initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(upstream.send() == .none)
        #expect(subscriber.values.count == 6)
        #expect(upstream.requests == Array(repeating: .max(1), count: 7))
        #expect(upstream.returned == Array(repeating: .none, count: 6))
    }
}

/// An upstream that sends a value from inside `request(_:)`, `reentrantSends` times, once the test
/// has sent the first; it records every request and what each `receive` returned.
private final class SendingOnRequestUpstream: Publisher, Subscription {
    typealias Output = Int
    typealias Failure = Never

    private var subscriber: AnySubscriber<Int, Never>?
    private var remaining: Int
    private var armed = false
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var returned: [Subscribers.Demand] = []

    init(reentrantSends: Int) { remaining = reentrantSends }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: self)
    }

    /// Sends the first value; the rest come from the requests it causes.
    func send() -> Subscribers.Demand {
        armed = true
        return deliver()
    }

    private func deliver() -> Subscribers.Demand {
        let demand = subscriber?.receive(returned.count) ?? .none
        returned.append(demand)
        return demand
    }

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
        guard armed, remaining > 0 else { return }
        remaining -= 1
        _ = deliver()
    }

    func cancel() { subscriber = nil }
}

import Combine
import CombineTesting
import Foundation
import TestSupport
import Testing

@Suite("Publishers.ReceiveOn", .tags(.concurrency))
struct PublishersReceiveOnTests {
    @Test func subscriptionIsSynchronousValuesAndCompletionAreScheduledInOrder() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ReceiveOn")])
        #expect(upstream.calls == [.request(.unlimited)])  // demand is not moved
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [])
        scheduler.advance()
        #expect(subscriber.events == [.subscription("ReceiveOn"), .value(1), .value(2), .completion(.finished)])
    }

    @Test func demandReturnedFromReceiveGoesUpstream() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        #expect(upstream.calls == [.request(.max(1)), .request(.max(1))])
    }

    @Test func cancelDropsPendingDeliveries() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance()
        #expect(subscriber.values == [])
        #expect(upstream.isCancelled)
    }

    @Test func immediateSchedulerDeliversOnTheSpot() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2, 3].publisher.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions == [.finished])
    }

    @Test func concurrentQueueStillDeliversOneAtATimeInOrder() async {
        for _ in 0..<20 {
            let subscriber = SerializationCheckingSubscriber<Int, Never>()
            let finished = DispatchSemaphore(value: 0)
            let pipeline = (1...500).publisher
                .merge(with: (501...1000).publisher)
                .receive(on: DispatchQueue.global())
                .handleEvents(receiveCompletion: { _ in finished.signal() })
            pipeline.subscribe(subscriber)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    finished.wait()
                    continuation.resume()
                }
            }
            // The handler runs just before the completion is handed to the subscriber.
            let deadline = Date().addingTimeInterval(30)
            while subscriber.completions.isEmpty && Date() < deadline { usleep(100) }
            #expect(subscriber.overlaps == 0)
            #expect(subscriber.values == Array(1...1000))
            #expect(subscriber.completions.count == 1)
            #expect(subscriber.eventsAfterCompletion == 0)
        }
    }

    @Test func serialDispatchQueueKeepsOrder() async {
        let queue = DispatchQueue(label: "receiveOn.serial")
        let values = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            var received: [Int] = []
            var cancellable: AnyCancellable?
            cancellable = (1...1000).publisher
                .receive(on: queue)
                .sink(
                    receiveCompletion: { _ in
                        continuation.resume(returning: received)
                        _ = cancellable
                    },
                    receiveValue: {
                        dispatchPrecondition(condition: .onQueue(queue))
                        received.append($0)
                    })
        }
        #expect(values == Array(1...1000))
    }

    /// Each event is a work item of its own on the queue, with or without options: work that the
    /// user submits between two sends runs between their deliveries.
    @Test(arguments: [nil, DispatchQueue.SchedulerOptions(qos: .userInitiated)])
    func eachEventIsItsOwnWorkItemOnADispatchQueue(options: DispatchQueue.SchedulerOptions?) {
        let queue = DispatchQueue(label: "receiveOn.interleaving")
        let log = Locked<[String]>([])
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject
            .receive(on: queue, options: options)
            .sink(receiveCompletion: { _ in log.append("finished") },
                  receiveValue: { value in log.append("value \(value)") })
        queue.suspend()
        subject.send(1)
        queue.async { log.append("user") }
        subject.send(2)
        subject.send(completion: .finished)
        queue.resume()
        queue.sync {}
        #expect(log.current == ["value 1", "user", "value 2", "finished"])
        cancellable.cancel()
    }

    /// A stage whose subscriber cancelled goes once the queue has run its pending work items.
    @Test func aCancelledStageIsReleasedOnceTheQueueHasRunItsWorkItems() {
        let queue = DispatchQueue(label: "receiveOn.release")
        let subject = PassthroughSubject<Int, Never>()
        weak var weakStage: AnyObject?
        let subscriber = ReleasingTestSubscriber<Int, Never>()
        subject.receive(on: queue).subscribe(subscriber)
        weakStage = subscriber.subscription as AnyObject
        queue.suspend()
        subject.send(1)
        subject.send(2)
        subscriber.cancel()
        #expect(weakStage != nil, "the pending work items keep the stage")
        queue.resume()
        queue.sync {}
        #expect(weakStage == nil)
        #expect(subscriber.values.isEmpty)
    }

    // MARK: ImmediateScheduler (lock-free stage)

    @Test func immediateForwardsDemandAndReturnedDemandUpstream() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandAfterValue: { $0 == 1 ? .max(3) : .none })
        upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ReceiveOn")])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.calls == [.request(.max(2)), .request(.max(3))])
        #expect(subscriber.values == [1, 2])
    }

    @Test func immediateStopsAfterCancelAndAfterCompletion() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription("ReceiveOn"), .value(1)])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        subscriber.subscription?.request(.max(1))  // after cancel: ignored
        #expect(upstream.calls == [.request(.unlimited), .cancel])

        let second = TestUpstream<Int, Never>()
        let other = TrackingSubscriber<Int, Never>()
        second.receive(on: ImmediateScheduler.shared).subscribe(other)
        second.send(completion: .finished)
        second.send(3)
        second.send(completion: .finished)
        #expect(other.events == [.subscription("ReceiveOn"), .completion(.finished)])
        other.subscription?.request(.max(1))
        #expect(second.calls == [.request(.unlimited)])
    }

    @Test func immediateCancelsASecondSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        let stage = subject.receive(on: ImmediateScheduler.shared)
        stage.subscribe(subscriber)
        let extra = TestUpstream<Int, Never>()
        // Hand the stage a second subscription by subscribing the stage itself elsewhere.
        guard let received = subscriber.subscription as? any Subscriber<Int, Never> else {
            Issue.record("the stage is its upstream's subscriber")
            return
        }
        extra.subscribe(received)
        #expect(extra.calls == [.cancel])
        subject.send(5)
        #expect(subscriber.values == [5])
    }

    @Test func immediateReleasesEverythingAfterCancelAndAfterCompletion() {
        weak var weakSubscriber: ReleasingTestSubscriber<Int, Never>?
        weak var weakStage: AnyObject?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
            weakStage = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakStage == nil)

        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: .finished)
            #expect(subscriber.completions == [.finished])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func immediateConcurrentCancelWhileDelivering() async {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            weak var weakSubscriber: ReleasingTestSubscriber<Int, Never>?
            weak var weakStage: AnyObject?
            do {
                let subscriber = ReleasingTestSubscriber<Int, Never>()
                weakSubscriber = subscriber
                subject.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
                weakStage = subscriber.subscription as AnyObject?
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { for value in 0..<200 { subject.send(value) } }
                    group.addTask { subscriber.cancel() }
                }
                let countAfterCancel = subscriber.values.count
                subject.send(-1)
                #expect(subscriber.values.count == countAfterCancel)
                #expect(subscriber.values == Array(0..<countAfterCancel))
            }
            #expect(weakSubscriber == nil)
            #expect(weakStage == nil)
        }
    }

    /// Spec §6 and §8: before the subscription a cancel and a completion do nothing and a value is
    /// ignored; the late subscription goes downstream.
    @Test func earlyEventsBeforeTheSubscription() {
        let scheduler = TestScheduler()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(upstream.send(7) == .none)
        upstream.send(completion: .finished)
        upstream.cancelSubscriber()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        scheduler.run()
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(1)])
        #expect(subscriber.events == [.subscription("ReceiveOn")])
    }

    /// The same on an immediate scheduler, where nothing is scheduled.
    @Test func earlyEventsBeforeTheSubscriptionOnImmediateScheduler() {
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        upstream.send(7)
        upstream.send(completion: .finished)
        upstream.cancelSubscriber()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        upstream.send(8)
        #expect(late.cancelCount == 0)
        #expect(subscriber.events == [.subscription("ReceiveOn"), .value(8)])
    }

    /// Spec §21: a queued delivery keeps the subscriber alive until it runs; the cancel stops the
    /// delivery, not the retention.
    @Test func queuedDeliveryKeepsTheSubscriberUntilItRuns() {
        expectScheduledDeliveryKeepsTheSubscriberUntilItRuns { $0.receive(on: $1) }
    }

    /// Every value is its own `schedule(options:_:)` call, and a cancelled subscriber outlives the
    /// cancel until the last of the actions pending at that moment has run, not just the first.
    @Test func eachValueIsOneScheduleCallAndTheLastPendingActionReleasesTheSubscriber() {
        let scheduler = StepScheduler()
        let upstream = TestUpstream<Int, Never>()
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.receive(on: scheduler).subscribe(subscriber)
            upstream.send(1)
            upstream.send(2)
            upstream.send(3)
            #expect(scheduler.pendingCount == 3)
            scheduler.runNext()
            #expect(subscriber.values == [1])
            subscriber.cancel()
        }
        #expect(weakSubscriber != nil)
        scheduler.runNext()
        #expect(weakSubscriber != nil, "released before the last pending action ran")
        scheduler.runNext()
        #expect(weakSubscriber == nil, "still alive after the last pending action ran")
        #expect(scheduler.pendingCount == 0)
    }

    /// A scheduler that lets go of its actions without running them: the cancelled subscriber
    /// (one that lets go of its subscription, as `sink` does) is released with the stage, once
    /// neither the dropped actions nor the upstream hold it.
    @Test func actionsDroppedUnrunReleaseTheCancelledSubscriber() {
        let scheduler = StepScheduler()
        weak var weakSubscriber: LettingGoSubscriber?
        do {
            let upstream = ReleasingTestUpstream<Int, Never>()
            let subscriber = LettingGoSubscriber()
            weakSubscriber = subscriber
            upstream.receive(on: scheduler).subscribe(subscriber)
            _ = upstream.send(1)
            _ = upstream.send(2)
            subscriber.cancel()
            #expect(upstream.calls.last == .cancel)
            #expect(!upstream.hasSubscriber)
        }
        #expect(weakSubscriber != nil, "released before the pending actions went")
        scheduler.dropAll()
        #expect(weakSubscriber == nil)
    }

    /// Demand that the subscriber returns from a delivery goes upstream, and values the upstream
    /// sends in answer from inside that request are each scheduled and delivered in order.
    @Test func valuesSentFromInsideADeliveryAreScheduledInOrder() {
        let scheduler = StepScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.runNext()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(scheduler.pendingCount == 2)
        scheduler.runNext()
        scheduler.runNext()
        #expect(subscriber.events == [.subscription("ReceiveOn"), .value(1), .value(2), .completion(.finished)])
    }

    /// A subscriber that cancels from inside its own delivery is let go of once that delivery
    /// has returned, or, with actions still pending, once the last of them has run; nothing more
    /// reaches it.
    @Test(arguments: [1, 2])
    func aSubscriberCancellingInsideADeliveryIsReleasedAfterTheLastPendingAction(sent: Int) {
        let scheduler = StepScheduler()
        let upstream = TestUpstream<Int, Never>()
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(onValue: { _ in weakSubscriber?.cancel() })
            weakSubscriber = subscriber
            upstream.receive(on: scheduler).subscribe(subscriber)
        }
        for value in 1...sent { upstream.send(value) }
        scheduler.runNext()
        #expect(upstream.isCancelled)
        if sent > 1 {
            #expect(weakSubscriber != nil, "released before the last pending action ran")
            #expect(weakSubscriber?.values == [1])
            scheduler.runNext()
        }
        #expect(weakSubscriber == nil, "still alive after the last action ran")
        #expect(scheduler.pendingCount == 0)
    }

    /// As Apple's stage, it lets go of the upstream's subscription before delivering the
    /// completion, and of the subscriber right after the delivery.
    @Test func theUpstreamGoesBeforeTheCompletionIsDeliveredAndTheSubscriberRightAfter() {
        let scheduler = StepScheduler()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        weak var weakSubscription: RecordingSubscription?
        weak var weakSubscriber: CompletionProbe?
        var subscriptionHeldAtCompletion: Bool?
        do {
            let probe = CompletionProbe { subscriptionHeldAtCompletion = weakSubscription != nil }
            weakSubscriber = probe
            upstream.receive(on: scheduler).subscribe(probe)
            let subscription = RecordingSubscription()
            weakSubscription = subscription
            upstream.send(subscription: subscription)
        }
        upstream.send(1)
        upstream.send(completion: .finished)
        scheduler.runNext()
        #expect(weakSubscription != nil, "let go of before the completion's turn")
        #expect(weakSubscriber?.values == [1])
        scheduler.runNext()
        #expect(subscriptionHeldAtCompletion == false)
        #expect(weakSubscriber == nil)
    }

    /// A cancel while the upstream's completion waits to be delivered drops it; the upstream,
    /// which has completed, is not cancelled, and the subscriber stays until the pending actions
    /// have run.
    @Test func aCancelWhileTheCompletionWaitsDropsItWithoutCancellingTheUpstream() {
        let scheduler = StepScheduler()
        let upstream = TestUpstream<Int, Never>()
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.receive(on: scheduler).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: .finished)
            subscriber.cancel()
        }
        #expect(upstream.calls == [.request(.unlimited)])
        scheduler.runNext()
        #expect(weakSubscriber != nil, "released before the last pending action ran")
        #expect(weakSubscriber?.events == [.subscription("ReceiveOn")])
        scheduler.runNext()
        #expect(weakSubscriber == nil)
    }
}

/// Keeps the actions handed to it until the test runs them, one at a time, or drops them unrun.
private final class StepScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let clock = TestScheduler()
    private let lock = NSLock()
    private var actions: [() -> Void] = []

    var now: SchedulerTimeType { clock.now }
    var minimumTolerance: SchedulerTimeType.Stride { clock.minimumTolerance }
    var pendingCount: Int { lock.withLock { actions.count } }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        lock.withLock { actions.append(action) }
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        schedule(options: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(options: nil, action)
        return AnyCancellable {}
    }

    /// Runs the oldest pending action, outside the lock.
    func runNext() {
        let action = lock.withLock { actions.removeFirst() }
        action()
    }

    /// Lets go of every pending action without running it (outside the lock).
    func dropAll() {
        let dropped = lock.withLock { () -> [() -> Void] in
            defer { actions = [] }
            return actions
        }
        _ = dropped
    }
}

/// Lets go of its subscription when it cancels it.
private final class LettingGoSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    private let lock = NSLock()
    private var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Never>) {}

    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            defer { self.subscription = nil }
            return self.subscription
        }
        subscription?.cancel()
    }
}

/// Records values and runs `onCompletion` when the completion arrives; lets go of its
/// subscription then, as `sink` does.
private final class CompletionProbe: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    private let onCompletion: () -> Void
    private var subscription: (any Subscription)?
    private(set) var values: [Int] = []

    init(onCompletion: @escaping () -> Void) {
        self.onCompletion = onCompletion
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        onCompletion()
        subscription = nil
    }
}

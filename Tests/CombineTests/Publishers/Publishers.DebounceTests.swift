import Combine
import CombineTesting
import TestSupport
import Testing

@Suite("Publishers.Debounce")
struct PublishersDebounceTests {
    @Test func publishesOnlyAfterAQuietWindow() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.debounce(for: 10, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Debounce")])

        subject.send(1)
        scheduler.advance(by: 5)
        subject.send(2)  // restarts the window: 1 is dropped
        scheduler.advance(by: 9)
        #expect(subscriber.values == [])
        scheduler.advance(by: 1)
        #expect(subscriber.values == [2])

        subject.send(3)
        scheduler.advance(by: 10)
        #expect(subscriber.values == [2, 3])
        scheduler.advance(by: 100)
        #expect(subscriber.values == [2, 3])
    }

    /// Apple's documentation example: indices sent at 0, 0.25, 1, 1.25, 1.5 and 2 s through a
    /// 0.5 s debounce print "Received index 1", "Received index 4", "Received index 5".
    @Test func appleDocumentationBounces() {
        let scheduler = TestScheduler()
        let bounces: [(Int, Int)] = [(0, 0), (1, 250), (2, 1000), (3, 1250), (4, 1500), (5, 2000)]
        let subject = PassthroughSubject<Int, Never>()
        var printed: [String] = []
        let cancellable = subject
            .debounce(for: .seconds(0.5), scheduler: scheduler)
            .sink { index in printed.append("Received index \(index)") }
        // Index 5 arrives exactly when index 4's quiet window ends. Apple's output shows the window
        // ending first; here each send is scheduled by the previous one (after it armed its
        // debounce timer), so at that shared instant the timer comes first, as documented.
        func send(_ remaining: ArraySlice<(Int, Int)>) {
            guard let (index, milliseconds) = remaining.first else { return }
            scheduler.schedule(after: .init(ticks: milliseconds * 1_000_000)) {
                subject.send(index)
                send(remaining.dropFirst())
            }
        }
        send(bounces[...])
        scheduler.run()
        #expect(printed == ["Received index 1", "Received index 4", "Received index 5"])
        cancellable.cancel()
    }

    @Test func completionIsScheduledAndDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        scheduler.advance()
        #expect(subscriber.events == [.subscription("Debounce"), .completion(.finished)])
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values == [])
    }

    @Test func valueDueWithoutDemandIsDropped() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.debounce(for: 5, scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: 5)
        subscriber.request(.max(1))
        subject.send(2)
        scheduler.advance(by: 5)
        #expect(subscriber.values == [2])
    }

    @Test func cancelStopsDeliveryAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let upstream = TestUpstream<Int, Never>()
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.debounce(for: 5, scheduler: scheduler).subscribe(subscriber)
            upstream.send(1)
            subscriber.cancel()
            scheduler.advance(by: 10)
            #expect(subscriber.values == [])
        }
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        scheduler.run()
        #expect(weakSubscriber == nil)
    }

    /// Spec §20: each value arms a repeating timer; the previous token is cancelled once the new
    /// one exists, and released; the token whose timer emitted is cancelled and released too.
    @Test func schedulerCallsFollowApple() {
        let scheduler = CallRecordingScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.debounce(for: 5, scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        scheduler.clock.advance(by: 5)
        #expect(subscriber.values == [2])
        #expect(scheduler.calls == [
            "now", "minTol", "schedEvery(5, 5, 7) -> token#1",
            "now", "minTol", "schedEvery(5, 5, 7) -> token#2", "token#1.cancel", "token#1 released",
            "token#2.cancel", "token#2 released",
        ])
        subscriber.cancel()
    }

    /// Spec §6: a cancel before the subscription arrives does nothing.
    @Test func cancelBeforeSubscriptionIsANoOp() {
        let scheduler = TestScheduler()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        upstream.debounce(for: 5, scheduler: scheduler).subscribe(TrackingSubscriber<Int, Never>())
        upstream.cancelSubscriber()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.unlimited])
    }

    /// A scheduler that runs actions inside `schedule` fires each value's timer at once: every
    /// value is published as it arrives, on the sender's thread.
    @Test func aSchedulerThatRunsActionsAtOncePublishesEveryValue() {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.debounce(for: 5, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [1, 2])
        upstream.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
    }

    /// A value the upstream sends after the subscriber cancelled arms no timer.
    @Test func aValueAfterACancelArmsNoTimer() {
        let scheduler = CallRecordingScheduler()
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.debounce(for: 5, scheduler: scheduler).subscribe(subscriber)
        subscriber.cancel()
        upstream.send(1)
        #expect(scheduler.calls == [])
        #expect(subscriber.values == [])
    }
}

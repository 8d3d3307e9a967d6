import Combine
import Foundation
import TestSupport
import Testing

@Suite("Timer.TimerPublisher")
struct TimerTimerPublisherTests {
    @Test func publishesNothingUntilConnected() async throws {
        let loopThread = RunLoopThread(name: "timer.connect")
        defer { loopThread.stop() }
        let publisher = Timer.publish(every: 0.02, on: loopThread.runLoop, in: .default)
        #expect(publisher.interval == 0.02)
        #expect(publisher.tolerance == nil)
        #expect(publisher.mode == .default)
        let subscriber = TrackingSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        try await Task.sleep(for: .milliseconds(100))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.events.count == 1)  // just the subscription

        let connection = publisher.connect()
        try await Task.sleep(for: .milliseconds(200))
        connection.cancel()
        try await Task.sleep(for: .milliseconds(50))
        let ticks = subscriber.values
        #expect(ticks.count >= 2)
        #expect(ticks == ticks.sorted())
        try await Task.sleep(for: .milliseconds(100))
        #expect(subscriber.values.count == ticks.count)  // really stopped
        #expect(subscriber.completions.isEmpty)  // a timer never completes
    }

    /// Apple's timer publisher delivers its first date one interval after `connect()`, not at
    /// once (swift-corelibs-foundation's `Timer(timeInterval:repeats:block:)` fires at once).
    @Test func firstTickComesOneIntervalAfterConnect() async throws {
        let loopThread = RunLoopThread(name: "timer.first")
        defer { loopThread.stop() }
        let interval = 0.3
        let publisher = Timer.publish(every: interval, on: loopThread.runLoop, in: .default)
        let subscriber = TrackingSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        let connectedAt = Date()
        let connection = publisher.connect()
        defer { connection.cancel() }
        // Wall-clock sleeps stretch on a loaded machine, so only the first date is checked: with
        // the corelibs default it would be (almost) the connect time.
        for _ in 0..<500 where subscriber.values.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        let first = try #require(subscriber.values.first)
        #expect(first.timeIntervalSince(connectedAt) >= interval * 0.9)
    }

    /// Using Combine, reference: Timer: subscribe with `sink`, then `connect()`; and a bounded
    /// subscriber only receives the ticks it asked for.
    @Test func sharesOneTimerAndHonoursDemand() async throws {
        let loopThread = RunLoopThread(name: "timer.demand")
        defer { loopThread.stop() }
        let timerPublisher = Timer.publish(every: 0.01, tolerance: 0.001, on: loopThread.runLoop, in: .common)
        let lines = Locked<[String]>([])
        let cancellableSink = timerPublisher.sink { _ in lines.append("passed through") }
        let bounded = TrackingSubscriber<Date, Never>(initialDemand: .max(2))
        timerPublisher.subscribe(bounded)
        let cancellablePublisher = timerPublisher.connect()
        try await Task.sleep(for: .milliseconds(200))
        cancellablePublisher.cancel()
        #expect(lines.current.count >= 3)
        #expect(bounded.values.count == 2)
        cancellableSink.cancel()
    }

    @Test func keepsTickingWhileConnectedEvenIfThePublisherIsNotHeld() async throws {
        let loopThread = RunLoopThread(name: "timer.lifetime")
        defer { loopThread.stop() }
        let subscriber = TrackingSubscriber<Date, Never>()
        weak var weakPublisher: Timer.TimerPublisher?
        var connection: (any Cancellable)?
        do {
            let publisher = Timer.publish(every: 0.02, on: loopThread.runLoop, in: .default)
            weakPublisher = publisher
            publisher.subscribe(subscriber)
            connection = publisher.connect()
        }
        try await Task.sleep(for: .milliseconds(150))
        #expect(subscriber.values.count >= 2)
        #expect(weakPublisher != nil)
        connection?.cancel()
        connection = nil
        subscriber.cancel()
        try await Task.sleep(for: .milliseconds(50))
        #expect(weakPublisher == nil)
    }

    @Test func counterExampleOnAThreadRunLoop() async throws {
        // Kodeco ch. 11, the Timer class: `Timer.publish(every: 1.0, on: .main, in:
        // .common).autoconnect().scan(0) {…}` prints "Counter is 1", "Counter is 2", … — here
        // connected by hand (autoconnect is another person's work) on a dedicated thread's run
        // loop.
        let loopThread = RunLoopThread(name: "timer.counter")
        defer { loopThread.stop() }
        let publisher = Timer.publish(every: 0.02, on: loopThread.runLoop, in: .common)
        let lines = Locked<[String]>([])
        let subscription = publisher
            .scan(0) { counter, _ in counter + 1 }
            .sink { counter in lines.append("Counter is \(counter)") }
        let connection = publisher.connect()
        try await Task.sleep(for: .milliseconds(150))
        connection.cancel()
        subscription.cancel()
        #expect(Array(lines.current.prefix(3)) == ["Counter is 1", "Counter is 2", "Counter is 3"])
    }

    /// Spec §28: the timer's subscription and connection have no description, mirror or
    /// playground description, and the subscription is not an `NSObject`.
    @Test func subscriptionAndConnectionHaveNoReflectionShape() throws {
        let publisher = Timer.publish(every: 60, on: .current, in: .default)
        var received: (any Subscription)?
        publisher.subscribe(AnySubscriber<Date, Never>(receiveSubscription: { received = $0 }))
        let subscription = try #require(received)
        #expect(!(subscription is CustomStringConvertible))
        #expect(!(subscription is CustomReflectable))
        #expect(!(subscription is CustomPlaygroundDisplayConvertible))
        #expect(!(subscription is NSObject))
        let connection = publisher.connect()
        #expect(!(connection is CustomStringConvertible))
        #expect(!(connection is CustomReflectable))
        connection.cancel()
        subscription.cancel()
    }
}

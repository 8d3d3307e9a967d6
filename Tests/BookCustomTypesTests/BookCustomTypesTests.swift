import Combine
import Foundation
import TestSupport
import Testing

@Suite("Book custom types (Kodeco ch. 18)")
struct BookCustomTypesTests {
    @Test func shareReplayPlaygroundScenario() {
        var logger = TextLog()
        let subject = PassthroughSubject<Int, Never>()
        let publisher = subject.shareReplay(capacity: 2)
        subject.send(0)

        let subscription1 = publisher.sink(
            receiveCompletion: { print("subscription1 completed: \($0)", to: &logger) },
            receiveValue: { print("subscription1 received \($0)", to: &logger) })
        subject.send(1)
        subject.send(2)
        subject.send(3)

        let subscription2 = publisher.sink(
            receiveCompletion: { print("subscription2 completed: \($0)", to: &logger) },
            receiveValue: { print("subscription2 received \($0)", to: &logger) })

        subject.send(4)
        subject.send(5)
        subject.send(completion: .finished)

        // The book subscribes a third time one second later on the main queue; the timing does not
        // matter, only that the upstream has completed.
        print("Subscribing to shareReplay after upstream completed", to: &logger)
        let subscription3 = publisher.sink(
            receiveCompletion: { print("subscription3 completed: \($0)", to: &logger) },
            receiveValue: { print("subscription3 received \($0)", to: &logger) })

        #expect(logger.lines == [
            "subscription1 received 1",
            "subscription1 received 2",
            "subscription1 received 3",
            "subscription2 received 2",
            "subscription2 received 3",
            "subscription1 received 4",
            "subscription2 received 4",
            "subscription1 received 5",
            "subscription2 received 5",
            "subscription1 completed: finished",
            "subscription2 completed: finished",
            "Subscribing to shareReplay after upstream completed",
            "subscription3 received 4",
            "subscription3 received 5",
            "subscription3 completed: finished",
        ])
        _ = (subscription1, subscription2, subscription3)
    }

    @Test func pausableSinkWithoutResumer() {
        var log: [String] = []
        let subscription = [1, 2, 3, 4, 5, 6]
            .publisher
            .pausableSink(receiveCompletion: { completion in
                log.append("Pausable subscription completed: \(completion)")
            }) { value -> Bool in
                log.append("Receive value: \(value)")
                if value % 2 == 1 {
                    log.append("Pausing")
                    return false
                }
                return true
            }
        #expect(log == ["Receive value: 1", "Pausing"])
        #expect(subscription.paused)
        subscription.cancel()
    }

    @Test func pausableSinkResumedLikeTheTimer() {
        var log: [String] = []
        let subscription = [1, 2, 3, 4, 5, 6]
            .publisher
            .pausableSink(receiveCompletion: { completion in
                log.append("Pausable subscription completed: \(completion)")
            }) { value -> Bool in
                log.append("Receive value: \(value)")
                if value % 2 == 1 {
                    log.append("Pausing")
                    return false
                }
                return true
            }
        // The book resumes from a `Timer.publish(every: 1, …)` sink; each tick does this.
        for _ in 0..<5 {
            guard subscription.paused else { continue }
            log.append("Subscription is paused, resuming")
            subscription.resume()
        }
        #expect(log == [
            "Receive value: 1",
            "Pausing",
            "Subscription is paused, resuming",
            "Receive value: 2",
            "Receive value: 3",
            "Pausing",
            "Subscription is paused, resuming",
            "Receive value: 4",
            "Receive value: 5",
            "Pausing",
            "Subscription is paused, resuming",
            "Receive value: 6",
            "Pausable subscription completed: finished",
        ])
    }

    @Test func dispatchTimerEmitsExactlySixValues() async {
        let logger = TextLog()
        // The book uses one-second ticks; 20 ms keeps the test short with the same behaviour.
        let publisher = Publishers.timer(interval: .milliseconds(20), times: .max(6))
        let start = DispatchTime.now()
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            nonisolated(unsafe) var subscription: AnyCancellable?
            subscription = publisher.sink(
                receiveCompletion: { _ in
                    continuation.resume(returning: true)
                    subscription = nil
                },
                receiveValue: { time in
                    var output = logger
                    print("Timer emits: \(time)", to: &output)
                })
            _ = subscription
        }
        #expect(finished)
        // Give a misbehaving timer the chance to tick again: the Sink must ignore it.
        try? await Task.sleep(nanoseconds: 100_000_000)
        #expect(logger.lines.count == 6)
        #expect(logger.lines.allSatisfy { $0.hasPrefix("Timer emits: DispatchTime(rawValue: ") })
        // The first value comes one interval after subscribing, not immediately.
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 6 * 20_000_000)
    }

    @Test func dispatchTimerStopsWhenCancelled() async {
        let logger = TextLog()
        let publisher = Publishers.timer(interval: .milliseconds(20))
        // The book cancels after 3.5 intervals and sees three values; cancelling from the sink
        // right after the third value gives the same count without depending on timing.
        nonisolated(unsafe) var subscription: AnyCancellable?
        subscription = publisher.sink { time in
            var output = logger
            print("Timer emits: \(time)", to: &output)
            if logger.lines.count == 3 { subscription?.cancel() }
        }
        try? await Task.sleep(nanoseconds: 300_000_000)
        #expect(logger.lines.count == 3)
        _ = subscription
    }
}

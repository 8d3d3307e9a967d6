import Combine
import Foundation

// Examples of this group whose operators have not landed in Combine yet.

extension Catalogue {
    static var customPublishersPending: [Example] { [
        Example(
            "share-replay",
            title: "shareReplay",
            source: "Kodeco ch. 18, a ShareReplay operator",
            duration: 1,
            body: ShareReplayScenario(printUpstream: false)
        ),

        Example(
            "share-replay-print",
            title: "shareReplay",
            source: "Kodeco ch. 18, a ShareReplay operator, verified with print",
            duration: 1,
            body: ShareReplayScenario(printUpstream: true)
        ),

        Example(
            "pausable-sink",
            title: "pausableSink",
            source: "Kodeco ch. 18, a pausable sink resumed by a timer",
            duration: 3,
            body: PausableSinkScenario()
        ),
    ] }
}

/// The `shareReplay(capacity: 2)` playground run: two early subscribers, then a third one second
/// after the upstream completed. With `printUpstream`, the upstream is logged with `print` (sent to
/// the example's output rather than the console) to show it is subscribed once.
struct ShareReplayScenario: ScheduledExampleBody {
    let printUpstream: Bool

    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        var logger = TimeLogger(io, sinceOrigin: true)
        let subject = PassthroughSubject<Int, Never>()
        let publisher = printUpstream
            ? subject.print("shareReplay", to: ExampleStream(io)).eraseToAnyPublisher().shareReplay(capacity: 2)
            : subject.eraseToAnyPublisher().shareReplay(capacity: 2)
        subject.send(0)

        let subscription1 = publisher.sink(
            receiveCompletion: {
                print("subscription1 completed: \($0)", to: &logger)
            },
            receiveValue: {
                print("subscription1 received \($0)", to: &logger)
            }
        )
        subject.send(1)
        subject.send(2)
        subject.send(3)

        let subscription2 = publisher.sink(
            receiveCompletion: {
                print("subscription2 completed: \($0)", to: &logger)
            },
            receiveValue: {
                print("subscription2 received \($0)", to: &logger)
            }
        )

        subject.send(4)
        subject.send(5)
        subject.send(completion: .finished)

        var subscription3: Cancellable? = nil

        context.scheduler.schedule(after: context.scheduler.now.advanced(by: .seconds(1))) {
            io.print("Subscribing to shareReplay after upstream completed")
            subscription3 = publisher.sink(
                receiveCompletion: {
                    print("subscription3 completed: \($0)", to: &logger)
                    io.finish()
                },
                receiveValue: {
                    print("subscription3 received \($0)", to: &logger)
                }
            )
        }
        io.whenFinished {
            subscription1.cancel()
            subscription2.cancel()
            subscription3?.cancel()
        }
    }
}

/// The pausable sink's test: it pauses on odd values; a one-second timer resumes it.
struct PausableSinkScenario: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let subscription = [1, 2, 3, 4, 5, 6]
            .publisher
            .pausableSink(receiveCompletion: { completion in
                io.print("Pausable subscription completed: \(completion)")
                io.finish()
            }) { value -> Bool in
                io.print("Receive value: \(value)")
                if value % 2 == 1 {
                    io.print("Pausing")
                    return false
                }
                return true
            }

        context.timer(every: .seconds(1))
            .sink { _ in
                guard subscription.paused else { return }
                io.print("Subscription is paused, resuming")
                subscription.resume()
            }
            .store(in: &io.subscriptions)
        io.whenFinished { subscription.cancel() }
    }
}

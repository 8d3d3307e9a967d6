import Combine
import Foundation

// *Using Combine* (Joseph Heckman), its reference chapter: snippets whose output the book gives.
// The book discards some cancellables with `let _ =`, which cancels at once; they are kept here so
// the output is the one the book describes.

extension Catalogue {
    /// *Using Combine*'s reference chapter: the first three entries here, the others by group.
    static var usingCombine: [Example] {
        usingCombineFirstEntries + referencePublishers + referenceOperators + referenceCombining
            + referenceTiming + referenceSubscribers
    }

    static var usingCombineFirstEntries: [Example] { [
        Example("scan", title: "scan", source: "Using Combine, reference: scan", book: .same) { io in
            (0...5)
                .publisher
                .scan(0, { return $0 + $1 })
                .sink(receiveValue: { io.print("\($0)", terminator: " ") })
                .store(in: &io.subscriptions)
        },

        Example("catch", title: "catch", source: "Using Combine, reference: catch", book: .same) { io in
            enum TestFailureCondition: Error {
                case invalidServerResponse
            }

            let simplePublisher = PassthroughSubject<String, Error>()

            simplePublisher
                .catch { err in
                    // must return a Publisher
                    return Just("replacement value")
                }
                .sink(receiveCompletion: { fini in
                    io.print(".sink() received the completion:", String(describing: fini))
                }, receiveValue: { stringValue in
                    io.print(".sink() received \(stringValue)")
                })
                .store(in: &io.subscriptions)

            simplePublisher.send("oneValue")
            simplePublisher.send("twoValue")
            simplePublisher.send(completion: Subscribers.Completion.failure(TestFailureCondition.invalidServerResponse))
            simplePublisher.send("redValue")
            simplePublisher.send("blueValue")
            simplePublisher.send(completion: .finished)
        },

        Example(
            "switch-to-latest",
            title: "switchToLatest",
            source: "Using Combine, reference: switchToLatest",
            book: .same,
            duration: 0,
            body: SwitchToLatestDemo()
        ),
    ] }
}

/// The `switchToLatest` demo: five values sent from the main queue (`index / 10` is integer
/// division, so every delay is zero), each mapped to a `Just` and flattened.
struct SwitchToLatestDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        let subject = PassthroughSubject<Int, Never>()
        var received = 0
        subject
            .drawn("subject", on: io)
            .setFailureType(to: URLError.self)
            .map() { index -> Just<Int> in
                return Just(index)
            }
            .switchToLatest()
            .drawn("output", on: io, isOutput: true)
            .sink(receiveCompletion: { result in
                io.print("Complete: \(result)")
            }, receiveValue: { value in
                io.print("Value: \(value)")
                received += 1
                if received == 5 { io.finish() }
            })
            .store(in: &io.subscriptions)

        for index in 1...5 {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(index / 10))) {
                subject.send(index)
            }
        }
    }
}

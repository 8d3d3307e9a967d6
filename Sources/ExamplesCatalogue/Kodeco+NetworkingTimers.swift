import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Kodeco, part 3: chapter 9 "Networking", chapter 10 "Debugging" (handleEvents), chapter 11
// "Timers", chapter 12's ObservableObject and chapter 13's share() pitfalls. The requests are
// answered in-process by `KodecoURLProtocol`; the timers run on the example's scheduler, which
// is virtual time in the `examples` command, so the book's seconds take no time.

/// Chapter 9 decodes "some JSON" into a `MyType` it never shows; this is the document's shape.
struct MyType: Codable {
    let id: Int
    let title: String
}

extension Catalogue {
    static var kodecoNetworkingAndTimers: [Example] { [
        Example(
            "data-task-publisher",
            title: "dataTaskPublisher",
            source: "Kodeco ch. 9, URLSession extensions",
            book: .notPrinted,
            timing: .asynchronous,
            operators: ["dataTaskPublisher", "URLSession"]
        ) { io in
            guard let url = URL(string: "https://mysite.com/mydata.json") else {
                return
            }

            let subscription = KodecoURLProtocol.session
                .dataTaskPublisher(for: url)
                .sink(receiveCompletion: { completion in
                    if case .failure(let err) = completion {
                        io.print("Retrieving data failed with error \(err)")
                    }
                    io.finish()
                }, receiveValue: { data, response in
                    io.print("Retrieved data of size \(data.count), response = \(BookResponse(response))")
                })
            io.whenFinished { subscription.cancel() }
        },

        Example(
            "data-task-try-map-decode",
            title: "decoding with tryMap",
            source: "Kodeco ch. 9, Codable support (tryMap)",
            book: .notPrinted,
            timing: .asynchronous,
            operators: ["tryMap", "dataTaskPublisher", "JSONDecoder"]
        ) { io in
            let url = URL(string: "https://mysite.com/mydata.json")!
            let subscription = KodecoURLProtocol.session
                .dataTaskPublisher(for: url)
                .tryMap { data, _ in
                    try JSONDecoder().decode(MyType.self, from: data)
                }
                .sink(receiveCompletion: { completion in
                    if case .failure(let err) = completion {
                        io.print("Retrieving data failed with error \(err)")
                    }
                    io.finish()
                }, receiveValue: { object in
                    io.print("Retrieved object \(object)")
                })
            io.whenFinished { subscription.cancel() }
        },

        Example(
            "data-task-decode",
            title: "decode(type:decoder:)",
            source: "Kodeco ch. 9, Codable support (decode)",
            book: .notPrinted,
            timing: .asynchronous,
            operators: ["decode", "map", "dataTaskPublisher"]
        ) { io in
            let url = URL(string: "https://mysite.com/mydata.json")!
            let subscription = KodecoURLProtocol.session
                .dataTaskPublisher(for: url)
                .map(\.data)
                .decode(type: MyType.self, decoder: JSONDecoder())
                .sink(receiveCompletion: { completion in
                    if case .failure(let err) = completion {
                        io.print("Retrieving data failed with error \(err)")
                    }
                    io.finish()
                }, receiveValue: { object in
                    io.print("Retrieved object \(object)")
                })
            io.whenFinished { subscription.cancel() }
        },

        Example(
            "data-task-multicast",
            title: "multicast",
            source: "Kodeco ch. 9, publishing network data to multiple subscribers",
            book: .notPrinted,
            timing: .asynchronous,
            operators: ["multicast", "connect", "dataTaskPublisher"]
        ) { io in
            let url = URL(string: "https://www.raywenderlich.com")!
            let publisher = KodecoURLProtocol.session
                .dataTaskPublisher(for: url)
                .map(\.data)
                .multicast { PassthroughSubject<Data, URLError>() }

            var finished = 0
            func done() {
                finished += 1
                if finished == 2 { io.finish() }
            }

            let subscription1 = publisher
                .sink(receiveCompletion: { completion in
                    if case .failure(let err) = completion {
                        io.print("Sink1 Retrieving data failed with error \(err)")
                    }
                    done()
                }, receiveValue: { object in
                    io.print("Sink1 Retrieved object \(object)")
                })

            let subscription2 = publisher
                .sink(receiveCompletion: { completion in
                    if case .failure(let err) = completion {
                        io.print("Sink2 Retrieving data failed with error \(err)")
                    }
                    done()
                }, receiveValue: { object in
                    io.print("Sink2 Retrieved object \(object)")
                })

            let subscription = publisher.connect()
            io.whenFinished {
                subscription1.cancel()
                subscription2.cancel()
                subscription.cancel()
            }
        },

        Example(
            "handle-events-forgotten",
            title: "handleEvents",
            source: "Kodeco ch. 10, handleEvents: the forgotten cancellable",
            book: .same,
            operators: ["handleEvents", "AnyCancellable"]
        ) { io in
            let request = KodecoURLProtocol.session
                .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com/")!)

            // The book's bug: the cancellable `sink` returns is not kept, so it is released, and
            // the subscription cancelled, as soon as the statement ends. (`_ =` only silences
            // the unused-result warning the book's playground shows.)
            _ = request
                .handleEvents(receiveSubscription: { _ in
                    io.print("Network request will start")
                }, receiveOutput: { _ in
                    io.print("Network request data received")
                }, receiveCancel: {
                    io.print("Network request cancelled")
                })
                .sink(receiveCompletion: { completion in
                    io.print("Sink received completion: \(completion)")
                }) { (data, _) in
                    io.print("Sink received data: \(data)")
                }
        },

        Example(
            "handle-events-kept",
            title: "handleEvents",
            source: "Kodeco ch. 10, handleEvents with the subscription kept",
            book: .same,
            timing: .asynchronous,
            operators: ["handleEvents", "dataTaskPublisher"]
        ) { io in
            let request = KodecoURLProtocol.session
                .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com/")!)

            let subscription = request
                .handleEvents(receiveSubscription: { _ in
                    io.print("Network request will start")
                }, receiveOutput: { _ in
                    io.print("Network request data received")
                }, receiveCancel: {
                    io.print("Network request cancelled")
                })
                .sink(receiveCompletion: { completion in
                    io.print("Sink received completion: \(completion)")
                    io.finish()
                }) { (data, _) in
                    io.print("Sink received data: \(data)")
                }
            io.whenFinished { subscription.cancel() }
        },

        Example(
            "run-loop-timer",
            title: "RunLoop timer",
            source: "Kodeco ch. 11, timers with RunLoop",
            book: .notPrinted,
            duration: 3,
            operators: ["RunLoop", "schedule", "Timer", "Cancellable"],
            body: RunLoopTimer()
        ),

        Example(
            "timer-publisher",
            title: "Timer publisher",
            source: "Kodeco ch. 11, the Timer class",
            book: .notPrinted(
                note: "The book's timer keeps counting as long as the playground runs; the example "
                    + "takes the first three counts."
            ),
            duration: 3,
            operators: ["Timer", "autoconnect", "scan"],
            body: TimerCounter()
        ),

        Example(
            "dispatch-queue-timer",
            title: "DispatchQueue timer",
            source: "Kodeco ch. 11, timers with DispatchQueue",
            book: .notPrinted(
                note: "The book's timer keeps firing as long as the playground runs; the example stops "
                    + "after three values."
            ),
            duration: 3,
            operators: ["DispatchQueue", "schedule", "Timer", "PassthroughSubject"],
            body: DispatchQueueTimer()
        ),

        Example(
            "published-instead-of-kvo",
            title: "KVO-compliant property",
            source: "Kodeco ch. 12, your own KVO-compliant property (with @Published)",
            book: .same,
            operators: ["Published", "KVO", "publisher(for:)"]
        ) { io in
            // The book observes `@objc dynamic var integerProperty` on an NSObject subclass with
            // `obj.publisher(for: \.integerProperty)`. Key-value observing needs the Objective-C
            // runtime, which Linux does not have; a @Published property is the Swift-only way to
            // the same stream (the current value first, then each change) and the same output.
            class TestObject {
                @Published var integerProperty: Int = 0
            }

            let obj = TestObject()

            let subscription = obj.$integerProperty
                .sink {
                    io.print("integerProperty changes to \($0)")
                }

            obj.integerProperty = 100
            obj.integerProperty = 200
            subscription.cancel()
        },

        Example(
            "observable-object",
            title: "ObservableObject",
            source: "Kodeco ch. 12, ObservableObject",
            book: .notPrinted,
            operators: ["ObservableObject", "objectWillChange", "Published"]
        ) { io in
            class MonitorObject: ObservableObject {
                @Published var someProperty = false
                @Published var someOtherProperty = ""
            }

            let object = MonitorObject()
            let subscription = object.objectWillChange.sink {
                io.print("object will change")
            }

            // The book stops at the subscription; two changes show it firing once per change.
            object.someProperty = true
            object.someOtherProperty = "Hello world"
            subscription.cancel()
        },

        Example(
            "share-removed",
            title: "share",
            source: "Kodeco ch. 13, the same pipeline without share()",
            book: .same,
            timing: .asynchronous,
            operators: ["share", "print", "dataTaskPublisher"]
        ) { io in
            let shared = StaggeredKodecoURLProtocol.makeSession()
                .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com")!)
                .map(\.data)
                .print("shared", to: ExampleStream(io))
                // .share()

            io.print("subscribing first")

            var finished = 0
            let subscription1 = shared.sink(
                receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                receiveValue: { io.print("subscription1 received: '\($0)'") }
            )

            io.print("subscribing second")

            let subscription2 = shared.sink(
                receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                receiveValue: { io.print("subscription2 received: '\($0)'") }
            )
            io.whenFinished {
                subscription1.cancel()
                subscription2.cancel()
            }
        },

        Example(
            "share-late-subscriber",
            title: "share",
            source: "Kodeco ch. 13, a second subscriber after the request completed",
            book: .same,
            asynchronousBody: ShareLateSubscriber(),
            operators: ["share", "print", "dataTaskPublisher"]
        ),
    ] }
}

/// Prints a URL response the way the book's console shows one, without the memory address
/// Foundation's description starts with: `<HTTPURLResponse 200 https://…>`.
struct BookResponse: CustomStringConvertible {
    let response: URLResponse
    init(_ response: URLResponse) { self.response = response }

    var description: String {
        let status = (response as? HTTPURLResponse).map { " \($0.statusCode)" } ?? ""
        return "<\(type(of: response))\(status) \(response.url?.absoluteString ?? "")>"
    }
}

/// Chapter 11's RunLoop timer: a repeating action from now, every second, cancelled after three
/// seconds. The book schedules on `RunLoop.main`; the example's scheduler stands in for it.
struct RunLoopTimer: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let runLoop = context.scheduler

        let subscription = runLoop.schedule(
            after: runLoop.now,
            interval: .seconds(1),
            tolerance: .milliseconds(100)
        ) {
            io.marbles.draw("timer fired", value: "f", isOutput: true)
            io.print("Timer fired")
        }

        runLoop.schedule(after: runLoop.now.advanced(by: .seconds(3))) {
            subscription.cancel()
            io.finish()
        }
    }
}

/// Chapter 11's counter: `Timer.publish(every: 1.0, on: .main, in: .common).autoconnect()`
/// scanned into a count. The timer runs on the example's scheduler (``ExampleContext/timer(every:)``);
/// the book lets it run forever, the example stops it after three ticks.
struct TimerCounter: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let subscription = context.timer(every: .seconds(1))
            .drawn("timer", on: io) { _ in "t" }
            .scan(0) { counter, _ in counter + 1 }
            .drawn("counter", on: io, isOutput: true)
            .sink { counter in
                io.print("Counter is \(counter)")
                if counter == 3 { io.finish() }
            }
        io.whenFinished { subscription.cancel() }
    }
}

/// Chapter 11's DispatchQueue timer: a repeating scheduled action sending a counter into a
/// subject. The action starts at once, so the first value is 0. Stopped after three values.
struct DispatchQueueTimer: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let queue = context.scheduler

        let source = PassthroughSubject<Int, Never>()

        var counter = 0

        let cancellable = queue.schedule(
            after: queue.now,
            interval: .seconds(1)
        ) {
            source.send(counter)
            counter += 1
        }

        let subscription = source.drawn("source", on: io, isOutput: true).sink {
            io.print("Timer emitted \($0)")
            if $0 == 2 { io.finish() }
        }
        io.whenFinished {
            cancellable.cancel()
            subscription.cancel()
        }
    }
}

/// Chapter 13's late subscriber: the shared request completes before the second subscriber
/// arrives, five seconds later, so that subscriber receives only the completion.
///
/// The book waits five seconds with `DispatchQueue.main.asyncAfter` and counts on the request
/// being done by then; here the five seconds run on the example's virtual clock from the moment
/// the request completes, which is the situation the book sets up. The book's first `print
/// ("subscribing second")` is left in place, as in its output.
struct ShareLateSubscriber: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        let shared = KodecoURLProtocol.session
            .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com")!)
            .map(\.data)
            .drawn("shared", on: io) { "\($0.count) bytes" }
            .print("shared", to: ExampleStream(io))
            .share()

        io.print("subscribing first")

        var subscription2: AnyCancellable? = nil
        let subscription1 = shared.drawn("subscription1", on: io, isOutput: true) { "\($0.count) bytes" }.sink(
            receiveCompletion: { _ in
                scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {
                    io.print("subscribing second")

                    subscription2 = shared.drawn("subscription2", on: io, isOutput: true) { "\($0.count) bytes" }.sink(
                        receiveCompletion: { io.print("subscription2 completion \($0)"); io.finish() },
                        receiveValue: { io.print("subscription2 received: '\($0)'") }
                    )
                }
            },
            receiveValue: { io.print("subscription1 received: '\($0)'") }
        )

        io.print("subscribing second")

        io.whenFinished {
            subscription1.cancel()
            subscription2?.cancel()
        }
    }
}

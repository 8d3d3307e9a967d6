import Combine
import Foundation

// Kodeco, part 3: chapter 10 "Debugging" and chapter 13
// "Resource management". `print` normally writes to the console; here it is given the example's
// output stream (`print(_:to:)`), which is the same operator with the same text.

extension Catalogue {
    static var debuggingAndResources: [Example] { [

        Example("future", title: "Future", source: "Kodeco ch. 13, Future", book: .notPrinted, operators: ["Future"]) { io in
            func performSomeWork() throws -> Int {
                io.print("Performing some work and returning a result")
                return 5
            }

            let future = Future<Int, Error> { fulfill in
                do {
                    let result = try performSomeWork()
                    fulfill(.success(result))
                } catch {
                    fulfill(.failure(error))
                }
            }

            io.print("Subscribing to future...")

            let subscription1 = future
                .sink(
                    receiveCompletion: { _ in io.print("subscription1 completed") },
                    receiveValue: { io.print("subscription1 received: '\($0)'") }
                )

            let subscription2 = future
                .sink(
                    receiveCompletion: { _ in io.print("subscription2 completed") },
                    receiveValue: { io.print("subscription2 received: '\($0)'") }
                )
            io.whenFinished {
                subscription1.cancel()
                subscription2.cancel()
            }
        },
        Example("print", title: "print", source: "Kodeco ch. 10, printing events", book: .same, operators: ["print"]) { io in
            let subscription = (1...3).publisher
                .print("publisher", to: ExampleStream(io))
                .sink { _ in }
            io.whenFinished { subscription.cancel() }
        },

        Example("print-time-logger", title: "print(_:to:)", source: "Kodeco ch. 10, a TimeLogger stream", book: .differs(
            "The times are on the catalogue's virtual clock, on which these synchronous steps "
                + "take no time, so every line shows +0.00000s; the book's real clock shows fractions "
                + "of a millisecond between lines (+0.00111s, +0.03485s…), different on every run."
        ), operators: ["print", "TextOutputStream"]) { io in
            let subscription = (1...3).publisher
                .print("publisher", to: TimeLogger(io))
                .sink { _ in }
            io.whenFinished { subscription.cancel() }
        },
    ] }
}

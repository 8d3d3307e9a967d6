import Combine
import Foundation

// Examples of this group whose operators have not landed in Combine yet.

extension Catalogue {
    static var debuggingAndResourcesPending: [Example] { [
        Example("print", title: "print", source: "Kodeco ch. 10, printing events") { io in
            let subscription = (1...3).publisher
                .print("publisher", to: ExampleStream(io))
                .sink { _ in }
            io.whenFinished { subscription.cancel() }
        },

        Example("print-time-logger", title: "print(_:to:)", source: "Kodeco ch. 10, a TimeLogger stream") { io in
            let subscription = (1...3).publisher
                .print("publisher", to: TimeLogger(io))
                .sink { _ in }
            io.whenFinished { subscription.cancel() }
        },
    ] }
}

import Combine
import Foundation

// Kodeco, "Combine: Asynchronous Programming with Swift", chapter 16 "Error handling"
// (spec source-003.md §1). The code follows the book; where the book's playground relies on
// something Linux lacks (UIImage, the playground's global `subscriptions`), a small stand-in of the
// same shape is used and noted.

/// The book's playground-level error for the `setFailureType` and `assertNoFailure` examples.
enum MyError: Error {
    case ohNo
}

/// The `tryMap` example's error. The book declares it inside the example closure; it is declared
/// here at file scope so that its printed name (`ExamplesCatalogue.NameError`) does not carry a
/// compiler-generated local context.
enum NameError: Error {
    case tooShort(String)
    case unknown
}

extension Catalogue {
    static var errorHandling: [Example] { [
        Example("never-sink", title: "Never sink", source: "Kodeco ch. 16, Never") { io in
            Just("Hello")
                .sink(receiveValue: { io.print($0) })
                .store(in: &io.subscriptions)
        },

        Example("set-failure-type", title: "setFailureType", source: "Kodeco ch. 16, setFailureType") { io in
            Just("Hello")
                .setFailureType(to: MyError.self)
                .sink(
                    receiveCompletion: { completion in
                        switch completion {
                        case .failure(.ohNo):
                            io.print("Finished with Oh No!")
                        case .finished:
                            io.print("Finished successfully!")
                        }
                    },
                    receiveValue: { value in
                        io.print("Got value: \(value)")
                    }
                )
                .store(in: &io.subscriptions)
        },

        Example("try-map-map", title: "tryMap", source: "Kodeco ch. 16, try* operators (with map)") { io in
            let names = ["Marin", "Shai", "Florent"].publisher

            names
                .map { value in
                    return value.count
                }
                .sink(
                    receiveCompletion: { io.print("Completed with \($0)") },
                    receiveValue: { io.print("Got value: \($0)") }
                )
                .store(in: &io.subscriptions)
        },

        // The book prints "Got value: 5" twice here: its playground used a fourth name. With the
        // three names shown, the pipeline fails on "Shai" right after "Marin" (spec, Appendix B 1).
        Example("try-map", title: "tryMap", source: "Kodeco ch. 16, try* operators (with tryMap)") { io in
            let names = ["Marin", "Shai", "Florent"].publisher

            names
                .tryMap { value -> Int in
                    let length = value.count
                    guard length >= 5 else {
                        throw NameError.tooShort(value)
                    }
                    return value.count
                }
                .sink(
                    receiveCompletion: { io.print("Completed with \($0)") },
                    receiveValue: { io.print("Got value: \($0)") }
                )
                .store(in: &io.subscriptions)
        },

        Example("map-vs-try-map", title: "map vs tryMap", source: "Kodeco ch. 16, mapping errors") { io in
            Just("Hello")
                .setFailureType(to: NameError.self)
                .map { $0 + " World!" }
                .sink(
                    receiveCompletion: { completion in
                        switch completion {
                        case .finished:
                            io.print("Done!")
                        case .failure(.tooShort(let name)):
                            io.print("\(name) is too short!")
                        case .failure(.unknown):
                            io.print("An unknown name error occurred")
                        }
                    },
                    receiveValue: { io.print("Got value \($0)") }
                )
                .store(in: &io.subscriptions)
        },

        Example(
            "map-vs-try-map-throwing",
            title: "map vs tryMap",
            source: "Kodeco ch. 16, mapping errors (throwing tryMap)"
        ) { io in
            Just("Hello")
                .setFailureType(to: NameError.self)
                .tryMap { throw NameError.tooShort($0) }
                .mapError { $0 as? NameError ?? .unknown }
                .sink(
                    receiveCompletion: { completion in
                        switch completion {
                        case .finished:
                            io.print("Done!")
                        case .failure(.tooShort(let name)):
                            io.print("\(name) is too short!")
                        case .failure(.unknown):
                            io.print("An unknown name error occurred")
                        }
                    },
                    receiveValue: { io.print("Got value \($0)") }
                )
                .store(in: &io.subscriptions)
        },
    ] }
}


import Combine
import Foundation

// Kodeco, "Combine: Asynchronous Programming with Swift", chapter 16 "Error handling"
// (Kodeco ch. 16). The code follows the book; where the book's playground relies on
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
        Example("never-sink", title: "Never sink", source: "Kodeco ch. 16, Never", book: .same, operators: ["Just", "sink", "Never"]) { io in
            Just("Hello")
                .sink(receiveValue: { io.print($0) })
                .store(in: &io.subscriptions)
        },

        Example("set-failure-type", title: "setFailureType", source: "Kodeco ch. 16, setFailureType", book: .same, operators: ["setFailureType", "Just"]) { io in
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

        Example("try-map-map", title: "tryMap", source: "Kodeco ch. 16, try* operators (with map)", book: .same) { io in
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
        // three names shown, the pipeline fails on "Shai" right after "Marin" (an erratum of the book).
        Example("try-map", title: "tryMap", source: "Kodeco ch. 16, try* operators (with tryMap)", book: .differs(
            "The book's listing shows 'Got value: 5' twice, from a playground with one more name, "
                + "and writes the error's module path as '...'; here it is this package's module, "
                + "ExamplesCatalogue."
        )) { io in
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

        Example("map-vs-try-map", title: "map vs tryMap", source: "Kodeco ch. 16, mapping errors", book: .same, operators: ["map", "tryMap", "mapError"]) { io in
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
            source: "Kodeco ch. 16, mapping errors (throwing tryMap)",
            book: .same,
            operators: ["map", "tryMap", "mapError"]
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

        Example("assign-to-on", title: "assign(to:on:)", source: "Kodeco ch. 16, assign(to:on:)", book: .same, operators: ["assign"]) { io in
            final class Person {
                let id = UUID()
                var name = "Unknown"
            }

            let person = Person()
            io.print("1", person.name)

            Just("Shai")
                .handleEvents(
                    receiveCompletion: { _ in io.print("2", person.name) }
                )
                .assign(to: \.name, on: person)
                .store(in: &io.subscriptions)
        },

        Example(
            "assign-to",
            title: "assign(to:on:) strong capture",
            source: "Kodeco ch. 16, assign(to:) (fixed version)",
            book: .same,
            duration: 3,
            operators: ["assign(to:)", "Published", "Timer", "prefix"],
            body: AssignToPublished()
        ),

        Example("assert-no-failure", title: "assertNoFailure", source: "Kodeco ch. 16, assertNoFailure", book: .same, operators: ["assertNoFailure"]) { io in
            Just("Hello")
                .setFailureType(to: MyError.self)
                .assertNoFailure()
                .sink(receiveValue: { io.print("Got value: \($0) ") })
                .store(in: &io.subscriptions)
        },

        Example("catching-low", title: "Catching and retrying", source: "Kodeco ch. 16, low quality", book: .differs(BookNote.imageAddress), operators: ["catch", "sink"]) { io in
            let photoService = PhotoService()
            photoService
                .fetchPhoto(quality: .low)
                .sink(
                    receiveCompletion: { io.print("\($0)") },
                    receiveValue: { image in
                        io.print("Got image: \(image)")
                    }
                )
                .store(in: &io.subscriptions)
        },

        Example("catching-high", title: "Catching and retrying", source: "Kodeco ch. 16, high quality", book: .same, operators: ["catch", "sink"]) { io in
            let photoService = PhotoService()
            photoService
                .fetchPhoto(quality: .high)
                .sink(
                    receiveCompletion: { io.print("\($0)") },
                    receiveValue: { image in
                        io.print("Got image: \(image)")
                    }
                )
                .store(in: &io.subscriptions)
        },

        Example("retry", title: "Catching and retrying", source: "Kodeco ch. 16, retry(3)", book: .same, operators: ["retry", "handleEvents"]) { io in
            let photoService = PhotoService()
            photoService
                .fetchPhoto(quality: .high)
                .handleEvents(
                    receiveSubscription: { _ in io.print("Trying ...") },
                    receiveCompletion: {
                        guard case .failure(let error) = $0 else { return }
                        io.print("Got error: \(error)")
                    }
                )
                .retry(3)
                .sink(
                    receiveCompletion: { io.print("\($0)") },
                    receiveValue: { image in
                        io.print("Got image: \(image)")
                    }
                )
                .store(in: &io.subscriptions)
        },

        Example(
            "retry-succeeds",
            title: "Catching and retrying",
            source: "Kodeco ch. 16, retry(3) with failingTimes: 2",
            book: .differs(BookNote.imageAddress),
            operators: ["retry", "handleEvents"]
        ) { io in
            let photoService = PhotoService()
            photoService
                .fetchPhoto(quality: .high, failingTimes: 2)
                .handleEvents(
                    receiveSubscription: { _ in io.print("Trying ...") },
                    receiveCompletion: {
                        guard case .failure(let error) = $0 else { return }
                        io.print("Got error: \(error)")
                    }
                )
                .retry(3)
                .sink(
                    receiveCompletion: { io.print("\($0)") },
                    receiveValue: { image in
                        io.print("Got image: \(image)")
                    }
                )
                .store(in: &io.subscriptions)
        },

        Example(
            "replace-error",
            title: "Catching and retrying",
            source: "Kodeco ch. 16, retry + replaceError(with:)",
            book: .differs(BookNote.imageAddress),
            operators: ["retry", "replaceError", "handleEvents"]
        ) { io in
            let photoService = PhotoService()
            photoService
                .fetchPhoto(quality: .high)
                .handleEvents(
                    receiveSubscription: { _ in io.print("Trying ...") },
                    receiveCompletion: {
                        guard case .failure(let error) = $0 else { return }
                        io.print("Got error: \(error)")
                    }
                )
                .retry(3)
                .replaceError(with: UIImage(named: "na.jpg")!)
                .sink(
                    receiveCompletion: { io.print("\($0)") },
                    receiveValue: { image in
                        io.print("Got image: \(image)")
                    }
                )
                .store(in: &io.subscriptions)
        },

        Example(
            "catch-fallback",
            title: "Catching and retrying",
            source: "Kodeco ch. 16, retry + catch + replaceError(with:)",
            book: .differs(BookNote.imageAddress),
            operators: ["retry", "catch", "replaceError", "handleEvents"]
        ) { io in
            let photoService = PhotoService()
            photoService
                .fetchPhoto(quality: .high)
                .handleEvents(
                    receiveSubscription: { _ in io.print("Trying ...") },
                    receiveCompletion: {
                        guard case .failure(let error) = $0 else { return }
                        io.print("Got error: \(error)")
                    }
                )
                .retry(3)
                .catch { _ -> PhotoService.Publisher in
                    io.print("Failed fetching high quality, falling back to low quality")
                    return photoService.fetchPhoto(quality: .low)
                }
                .replaceError(with: UIImage(named: "na.jpg")!)
                .sink(
                    receiveCompletion: { io.print("\($0)") },
                    receiveValue: { image in
                        io.print("Got image: \(image)")
                    }
                )
                .store(in: &io.subscriptions)
        },
    ] }
}

/// The fixed `assign(to:)` example: a view model whose `@Published` date is driven by a timer
/// through `assign(to: &$currentDate)`, so no retain cycle forms and no cancellable is stored.
struct AssignToPublished: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let ticks = context.timer(every: .seconds(1)).drawn("timer", on: io) { _ in "t" }.eraseToAnyPublisher()
        let vm = MyViewModel(now: io.now(), ticks: ticks)
        var printed = 0
        vm.$currentDate
            .drawn("currentDate", on: io, isOutput: true) { "\(BookDate($0))" }
            .sink(receiveValue: {
                io.print(BookDate($0))
                printed += 1
                if printed == 4 { io.finish() }
            })
            .store(in: &io.subscriptions)
        // The view model lives as long as the example (the playground keeps it alive globally).
        io.whenFinished { _ = vm }
    }
}

/// The book's view model (its `Timer.publish` comes in as `ticks`, built on the example's scheduler).
private final class MyViewModel: ObservableObject {
    @Published var currentDate: Date

    init(now: Date, ticks: AnyPublisher<Date, Never>) {
        currentDate = now
        ticks
            .prefix(3)
            .assign(to: &$currentDate)
    }
}

/// Prints a date the way the book's playground console does: `2021-08-21 12:43:32 +0000`.
struct BookDate: CustomStringConvertible {
    let date: Date
    init(_ date: Date) { self.date = date }

    var description: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.string(from: date)
    }
}

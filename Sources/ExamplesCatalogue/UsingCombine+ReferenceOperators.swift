import Combine
import Foundation

// "Using Combine", reference: the operators that work on one stream — mapping, filtering,
// reducing, mathematics, matching criteria and sequence operations. The book gives one-line
// fragments (`.compactMap { return $0 }`); each is completed with a small input that shows what
// the entry says the operator does, and prints in the book's `.sink()` wording.

/// The type the map entry pulls `isValid` from.
struct ReferenceValidity {
    var isValid: Bool = true
}

/// The record the `removeDuplicates(by:)` and `max(by:)` entries compare by a property.
struct ReferenceItem: CustomStringConvertible {
    let id: Int
    let property1: Int
    var description: String { "item \(id) (property1: \(property1))" }
}

/// The placeholder-decoding type of the flatMap entry.
struct ReferenceYourType: Decodable, CustomStringConvertible {
    let name: String
    static let placeholder = ReferenceYourType(name: "placeholder")
    var description: String { "YourType(name: \(name))" }
}

extension ExampleIO {
    /// The two-closure sink most reference entries end with, in the book's wording.
    func referenceSink<P: Publisher>(_ publisher: P) {
        publisher
            .sink(receiveCompletion: { completion in
                self.print(".sink() received the completion:", String(describing: completion))
            }, receiveValue: { value in
                self.print(".sink() received \(value)")
            })
            .store(in: &subscriptions)
    }
}

extension Catalogue {
    static var referenceOperators: [Example] { [
        // MARK: Mapping elements

        Example(
            "ref-scan-count",
            title: "scan counting characters",
            source: "Using Combine, reference: scan",
            book: .notPrinted
        ) { io in
            io.referenceSink(
                ["one", "two", "three"].publisher
                    .scan(0, { prevVal, newValueFromPublisher -> Int in
                        return prevVal + newValueFromPublisher.count
                    })
            )
        },

        Example("ref-try-scan", title: "tryScan", source: "Using Combine, reference: tryScan", book: .notPrinted) { io in
            io.referenceSink(
                [1, 2, 3, -1, 5].publisher
                    .tryScan(0, { runningTotal, newValue -> Int in
                        if newValue < 0 {
                            throw ReferenceError.invalidValue
                        }
                        return runningTotal + newValue
                    })
            )
        },

        Example("ref-map", title: "map", source: "Using Combine, reference: map", book: .notPrinted) { io in
            io.referenceSink(
                Just(ReferenceValidity())
                    .map { inValue -> Bool in
                        inValue.isValid
                    }
            )
        },

        Example("ref-try-map", title: "tryMap", source: "Using Combine, reference: tryMap", book: .notPrinted) { io in
            for input in [5, 3] {
                io.print("Just(\(input)):")
                io.referenceSink(
                    Just(input)
                        .tryMap { inValue -> Int in
                            if inValue < 5 {
                                throw ReferenceError.notBigEnough
                            }
                            return inValue
                        }
                )
            }
        },

        Example("ref-flat-map", title: "flatMap", source: "Using Combine, reference: flatMap", book: .notPrinted) { io in
            let dataSource = PassthroughSubject<Data, Never>()
            io.referenceSink(
                dataSource
                    .flatMap { data in
                        return Just(data)
                            .decode(type: ReferenceYourType.self, decoder: JSONDecoder())
                            .catch { _ in
                                return Just(ReferenceYourType.placeholder)
                            }
                    }
            )
            dataSource.send(Data(#"{"name": "first"}"#.utf8))
            dataSource.send(Data("not JSON".utf8))
            dataSource.send(Data(#"{"name": "third"}"#.utf8))
            dataSource.send(completion: .finished)
        },

        Example(
            "ref-set-failure-type",
            title: "setFailureType",
            source: "Using Combine, reference: setFailureType",
            book: .notPrinted
        ) { io in
            let apiResults = PassthroughSubject<String, ReferenceError>()
            io.referenceSink(
                Just("cached value")
                    .setFailureType(to: ReferenceError.self)
                    .append(apiResults)
            )
            apiResults.send("fresh value")
            apiResults.send(completion: .failure(.invalidServerResponse))
        },

        // MARK: Filtering elements

        Example("ref-compact-map", title: "compactMap", source: "Using Combine, reference: compactMap", book: .notPrinted) { io in
            io.referenceSink(
                ["one", nil, "three", nil].publisher
                    .compactMap {
                        return $0
                    }
            )
        },

        Example(
            "ref-try-compact-map",
            title: "tryCompactMap",
            source: "Using Combine, reference: tryCompactMap",
            book: .notPrinted
        ) { io in
            io.referenceSink(
                ["one", nil, "two", "boom", "three"].publisher
                    .tryCompactMap { someVal -> String? in
                        if someVal == "boom" {
                            throw ReferenceError.example
                        }
                        return someVal
                    }
            )
        },

        Example("ref-filter", title: "filter", source: "Using Combine, reference: filter", book: .notPrinted) { io in
            io.referenceSink(
                (1...6).publisher
                    .filter { $0 % 2 == 0 }
            )
        },

        Example("ref-try-filter", title: "tryFilter", source: "Using Combine, reference: tryFilter", book: .notPrinted) { io in
            io.referenceSink(
                [2, 3, 4, -1, 6].publisher
                    .tryFilter { value -> Bool in
                        if value < 0 {
                            throw ReferenceError.invalidValue
                        }
                        return value % 2 == 0
                    }
            )
        },

        Example(
            "ref-remove-duplicates",
            title: "removeDuplicates",
            source: "Using Combine, reference: removeDuplicates",
            book: .notPrinted
        ) { io in
            io.print("removeDuplicates():")
            io.referenceSink(
                ["a", "a", "b", "a", "a"].publisher
                    .removeDuplicates()
            )
            io.print("removeDuplicates(by:):")
            let items = [
                ReferenceItem(id: 1, property1: 10), ReferenceItem(id: 1, property1: 11),
                ReferenceItem(id: 2, property1: 12), ReferenceItem(id: 1, property1: 13),
            ]
            io.referenceSink(
                items.publisher
                    .removeDuplicates(by: { first, second -> Bool in
                        first.id == second.id
                    })
            )
        },

        Example(
            "ref-try-remove-duplicates",
            title: "tryRemoveDuplicates",
            source: "Using Combine, reference: tryRemoveDuplicates",
            book: .notPrinted
        ) { io in
            io.referenceSink(
                ["a", "a", "b", "boom", "c"].publisher
                    .tryRemoveDuplicates(by: { first, second -> Bool in
                        if second == "boom" {
                            throw ReferenceError.invalidValue
                        }
                        return first == second
                    })
            )
        },

        Example(
            "ref-replace-empty",
            title: "replaceEmpty",
            source: "Using Combine, reference: replaceEmpty",
            book: .notPrinted
        ) { io in
            io.print("an empty stream that finishes:")
            io.referenceSink(
                Empty<String, Never>()
                    .replaceEmpty(with: "-replacement-")
            )
            io.print("a stream with values:")
            io.referenceSink(
                ["one"].publisher
                    .replaceEmpty(with: "-replacement-")
            )
            io.print("an empty stream that fails:")
            io.referenceSink(
                Fail<String, ReferenceError>(error: .exampleFailure)
                    .replaceEmpty(with: "-replacement-")
            )
        },

        Example(
            "ref-replace-error",
            title: "replaceError",
            source: "Using Combine, reference: replaceError",
            book: .notPrinted
        ) { io in
            let failing = ["one"].publisher
                .setFailureType(to: ReferenceError.self)
                .append(Fail(error: .exampleFailure))
            io.print("replaceError(with:):")
            io.referenceSink(
                failing
                    .replaceError(with: "foo")
            )
            io.print("catch:")
            io.referenceSink(
                failing
                    .catch { err in
                        return Just("foo")
                    }
            )
        },

        Example("ref-replace-nil", title: "replaceNil", source: "Using Combine, reference: replaceNil", book: .notPrinted) { io in
            // A subject, not `["one", nil].publisher`: on a Publishers.Sequence, replaceNil is
            // Apple's Sequence-returning overload, whose elements stay Optional.
            let upstream = PassthroughSubject<String?, Never>()
            io.referenceSink(
                upstream
                    .replaceNil(with: "-replacement-")
            )
            upstream.send("one")
            upstream.send(nil)
            upstream.send("three")
            upstream.send(completion: .finished)
        },

        // MARK: Reducing elements

        Example("ref-collect", title: "collect", source: "Using Combine, reference: collect", book: .notPrinted) { io in
            io.print("collect():")
            io.referenceSink(
                ["one", "two", "three", "four", "five", "six", "seven"].publisher
                    .collect()
            )
            io.print("collect(3):")
            io.referenceSink(
                ["one", "two", "three", "four", "five", "six", "seven"].publisher
                    .collect(3)
            )
            io.print("collect() on a failing stream:")
            io.referenceSink(
                ["one", "two"].publisher
                    .setFailureType(to: ReferenceError.self)
                    .append(Fail(error: .exampleFailure))
                    .collect()
            )
        },

        Example(
            "ref-collect-by-time",
            title: "collect by time",
            source: "Using Combine, reference: collect",
            book: .notPrinted,
            duration: 4,
            body: ReferenceCollectByTimeDemo()
        ),

        Example(
            "ref-ignore-output",
            title: "ignoreOutput",
            source: "Using Combine, reference: ignoreOutput",
            book: .notPrinted
        ) { io in
            var finishReceived = false
            ["one", "two", "three"].publisher
                .ignoreOutput()
                .sink(receiveCompletion: { completion in
                    io.print(".sink() received the completion", String(describing: completion))
                    switch completion {
                    case .finished:
                        finishReceived = true
                    case .failure(let anError):
                        io.print("received error: ", anError)
                    }
                }, receiveValue: { _ in
                    io.print(".sink() data received")
                })
                .store(in: &io.subscriptions)
            io.print("finishReceived: \(finishReceived)")
        },

        Example("ref-reduce", title: "reduce", source: "Using Combine, reference: reduce", book: .notPrinted) { io in
            let subject = PassthroughSubject<String, Never>()
            io.referenceSink(
                subject
                    .reduce("", { prevVal, newValueFromPublisher -> String in
                        return prevVal + newValueFromPublisher
                    })
            )
            for value in ["Hello", ", ", "Combine"] {
                io.print("sending \"\(value)\"")
                subject.send(value)
            }
            io.print("sending .finished")
            subject.send(completion: .finished)
        },

        Example("ref-try-reduce", title: "tryReduce", source: "Using Combine, reference: tryReduce", book: .notPrinted) { io in
            for input in [["Hello", ", ", "Combine"], ["Hello", "boom", "Combine"]] {
                io.print("\(input):")
                io.referenceSink(
                    input.publisher
                        .tryReduce("", { prevVal, newValueFromPublisher -> String in
                            if newValueFromPublisher == "boom" {
                                throw ReferenceError.invalidValue
                            }
                            return prevVal + newValueFromPublisher
                        })
                )
            }
        },

        // MARK: Mathematic operations on elements

        Example("ref-max", title: "max", source: "Using Combine, reference: max, tryMax", book: .notPrinted) { io in
            io.print("max():")
            io.referenceSink([3, 9, 1, 7].publisher.max())
            io.print("max(by:):")
            let items = [
                ReferenceItem(id: 1, property1: 4), ReferenceItem(id: 2, property1: 12),
                ReferenceItem(id: 3, property1: 8),
            ]
            io.referenceSink(
                items.publisher
                    .max { (struct1, struct2) -> Bool in
                        return struct1.property1 < struct2.property1
                    }
            )
            io.print("tryMax(by:):")
            io.referenceSink(
                items.publisher
                    .tryMax { (struct1, struct2) -> Bool in
                        if struct2.property1 > 10 {
                            throw ReferenceError.invalidValue
                        }
                        return struct1.property1 < struct2.property1
                    }
            )
        },

        Example("ref-min", title: "min", source: "Using Combine, reference: min, tryMin", book: .notPrinted) { io in
            io.print("min():")
            io.referenceSink([3, 9, 1, 7].publisher.min())
            io.print("min(by:):")
            let items = [
                ReferenceItem(id: 1, property1: 4), ReferenceItem(id: 2, property1: 12),
                ReferenceItem(id: 3, property1: 8),
            ]
            io.referenceSink(
                items.publisher
                    .min { (struct1, struct2) -> Bool in
                        return struct1.property1 < struct2.property1
                    }
            )
            io.print("min() on a failing stream:")
            io.referenceSink(
                [3, 9].publisher
                    .setFailureType(to: ReferenceError.self)
                    .append(Fail(error: .exampleFailure))
                    .min()
            )
        },

        Example("ref-count", title: "count", source: "Using Combine, reference: count", book: .notPrinted) { io in
            io.referenceSink(["one", "two", "three"].publisher.count())
            io.print("count() on a failing stream:")
            io.referenceSink(
                ["one", "two"].publisher
                    .setFailureType(to: ReferenceError.self)
                    .append(Fail(error: .exampleFailure))
                    .count()
            )
        },

        // MARK: Applying matching criteria to elements

        Example(
            "ref-all-satisfy",
            title: "allSatisfy",
            source: "Using Combine, reference: allSatisfy, tryAllSatisfy",
            book: .notPrinted(
                note: "The book says allSatisfy answers only when the upstream finishes; Apple's "
                    + "Combine answers false, and finishes, at the first value that fails the test "
                    + "(here before 4 is sent); true still waits for the finish."
            )
        ) { io in
            let upstream = PassthroughSubject<Int, Never>()
            io.referenceSink(
                upstream
                    .allSatisfy { $0 > 0 }
            )
            for value in [1, 2, -3, 4] {
                io.print("sending \(value)")
                upstream.send(value)
            }
            upstream.send(completion: .finished)
            io.print("all positive:")
            io.referenceSink([1, 2, 3].publisher.allSatisfy { $0 > 0 })
            io.print("tryAllSatisfy throwing:")
            io.referenceSink(
                [1, 2, 3].publisher
                    .tryAllSatisfy { value -> Bool in
                        if value == 2 {
                            throw ReferenceError.invalidValue
                        }
                        return value > 0
                    }
            )
        },

        Example("ref-contains", title: "contains", source: "Using Combine, reference: contains", book: .notPrinted) { io in
            let upstream = PassthroughSubject<String, Never>()
            io.referenceSink(
                upstream
                    .contains("two")
            )
            for value in ["one", "two", "three"] {
                io.print("sending \(value)")
                upstream.send(value)
            }
            io.print("no match before .finished:")
            io.referenceSink(["one", "three"].publisher.contains("two"))
        },

        Example(
            "ref-contains-where",
            title: "contains(where:)",
            source: "Using Combine, reference: containsWhere, tryContainsWhere",
            book: .notPrinted
        ) { io in
            io.referenceSink(
                ["one", "two", "three", "four"].publisher
                    .contains { $0.count > 3 }
            )
            io.referenceSink(
                ["one", "two"].publisher
                    .contains { $0.count > 3 }
            )
            io.print("tryContains(where:):")
            io.referenceSink(
                ["one", "boom", "three"].publisher
                    .tryContains { value -> Bool in
                        if value == "boom" {
                            throw ReferenceError.invalidValue
                        }
                        return value.count > 3
                    }
            )
        },

        // MARK: Applying sequence operations to elements

        Example("ref-first", title: "first", source: "Using Combine, reference: first, firstWhere, tryFirstWhere", book: .notPrinted) { io in
            let words = ["one", "two", "three", "four"]
            io.print("first():")
            io.referenceSink(words.publisher.first())
            io.print("first() of an empty stream:")
            io.referenceSink(Empty<String, Never>().first())
            io.print("first(where:):")
            io.referenceSink(
                words.publisher
                    .first { (incomingobject) -> Bool in
                        return incomingobject.count > 3
                    }
            )
            io.print("tryFirst(where:):")
            io.referenceSink(
                ["one", "boom", "three"].publisher
                    .tryFirst { (incomingobject) -> Bool in
                        if incomingobject == "boom" {
                            throw ReferenceError.invalidValue
                        }
                        return incomingobject.count > 3
                    }
            )
        },

        Example("ref-last", title: "last", source: "Using Combine, reference: last, lastWhere, tryLastWhere", book: .notPrinted) { io in
            let words = ["one", "three", "two", "four", "six"]
            io.print("last():")
            io.referenceSink(words.publisher.last())
            io.print("last(where:):")
            io.referenceSink(
                words.publisher
                    .last { (incomingobject) -> Bool in
                        return incomingobject.count > 3
                    }
            )
            io.print("last(where:) with no match:")
            io.referenceSink(
                ["one", "two"].publisher
                    .last { (incomingobject) -> Bool in
                        return incomingobject.count > 3
                    }
            )
            io.print("tryLast(where:):")
            io.referenceSink(
                ["three", "boom", "four"].publisher
                    .tryLast { (incomingobject) -> Bool in
                        if incomingobject == "boom" {
                            throw ReferenceError.invalidValue
                        }
                        return incomingobject.count > 3
                    }
            )
        },

        Example(
            "ref-drop-until-output",
            title: "drop(untilOutputFrom:)",
            source: "Using Combine, reference: dropUntilOutput",
            book: .notPrinted
        ) { io in
            let upstream = PassthroughSubject<String, Never>()
            let triggerPublisher = PassthroughSubject<Void, Never>()
            io.referenceSink(
                upstream
                    .drop(untilOutputFrom: triggerPublisher)
            )
            upstream.send("one")
            upstream.send("two")
            io.print("trigger sends a value")
            triggerPublisher.send(())
            upstream.send("three")
            upstream.send("four")
            upstream.send(completion: .finished)
        },

        Example(
            "ref-drop-while",
            title: "drop(while:)",
            source: "Using Combine, reference: dropWhile, tryDropWhile",
            book: .notPrinted
        ) { io in
            let words = ["three", "four", "one", "seven", "two"]
            io.referenceSink(
                words.publisher
                    .drop { upstreamValue -> Bool in
                        return upstreamValue.count > 3
                    }
            )
            io.print("tryDrop(while:):")
            io.referenceSink(
                ["three", "boom", "one"].publisher
                    .tryDrop { upstreamValue -> Bool in
                        if upstreamValue == "boom" {
                            throw ReferenceError.invalidValue
                        }
                        return upstreamValue.count > 3
                    }
            )
        },

        Example("ref-prepend", title: "prepend", source: "Using Combine, reference: prepend", book: .notPrinted) { io in
            let firstPublisher = ["one", "two"].publisher
            let secondPublisher = ["three", "four"].publisher
            io.print("Publishers.Concatenate(prefix:suffix:):")
            io.referenceSink(Publishers.Concatenate(prefix: firstPublisher, suffix: secondPublisher))
            io.print("secondPublisher.prepend(firstPublisher):")
            io.referenceSink(secondPublisher.prepend(firstPublisher))
            io.print("prepend([\"one\", \"two\"]):")
            io.referenceSink(secondPublisher.prepend(["one", "two"]))
            io.print("prepend(\"one\"):")
            io.referenceSink(secondPublisher.prepend("one"))

            io.print("the suffix fails before the prefix completes:")
            let prefix = PassthroughSubject<String, ReferenceError>()
            let suffix = PassthroughSubject<String, ReferenceError>()
            io.referenceSink(suffix.prepend(prefix))
            suffix.send(completion: .failure(.exampleFailure))
            prefix.send("one")
            prefix.send("two")
            io.print("prefix completes")
            prefix.send(completion: .finished)
        },

        Example("ref-drop-first", title: "dropFirst", source: "Using Combine, reference: drop", book: .notPrinted) { io in
            let words = ["one", "two", "three", "four", "five"]
            io.print("dropFirst():")
            io.referenceSink(words.publisher.dropFirst())
            io.print("dropFirst(3):")
            io.referenceSink(words.publisher.dropFirst(3))
        },

        Example(
            "ref-prefix-until-output",
            title: "prefix(untilOutputFrom:)",
            source: "Using Combine, reference: prefixUntilOutput",
            book: .notPrinted
        ) { io in
            let upstream = PassthroughSubject<String, Never>()
            let secondPublisher = PassthroughSubject<Void, Never>()
            io.referenceSink(
                upstream
                    .prefix(untilOutputFrom: secondPublisher)
            )
            upstream.send("one")
            upstream.send("two")
            io.print("second publisher sends a value")
            secondPublisher.send(())
            upstream.send("three")
        },

        Example(
            "ref-prefix-while",
            title: "prefix(while:)",
            source: "Using Combine, reference: prefixWhile, tryPrefixWhile",
            book: .notPrinted
        ) { io in
            io.referenceSink(
                ["three", "four", "one", "seven"].publisher
                    .prefix { upstreamValue -> Bool in
                        return upstreamValue.count > 3
                    }
            )
            io.print("tryPrefix(while:):")
            io.referenceSink(
                ["three", "boom", "seven"].publisher
                    .tryPrefix { upstreamValue -> Bool in
                        if upstreamValue == "boom" {
                            throw ReferenceError.invalidValue
                        }
                        return upstreamValue.count > 3
                    }
            )
        },

        Example("ref-output", title: "output", source: "Using Combine, reference: output", book: .notPrinted) { io in
            let words = ["zero", "one", "two", "three", "four"]
            io.print("output(at: 3):")
            io.referenceSink(words.publisher.output(at: 3))
            io.print("output(in: 2...3):")
            io.referenceSink(words.publisher.output(in: 2...3))
            io.print("output(at: 7), upstream finishes first:")
            io.referenceSink(words.publisher.output(at: 7))
        },
    ] }
}

/// `collect(.byTime)` and `collect(.byTimeOrCount)` on the example's scheduler (the book's
/// `DispatchQueue(label:)`): seven values over 2.5 seconds, grouped every second, and with
/// byTimeOrCount also whenever three are waiting.
struct ReferenceCollectByTimeDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let start = io.now()
        let q = context.scheduler
        let publisher = PassthroughSubject<Int, Never>()

        // Drawn once: both pipelines below see the same sends.
        publisher
            .drawn("publisher", on: io)
            .collect(.byTime(q, .seconds(1.0)))
            .drawn("byTime", on: io, isOutput: true)
            .sink(receiveCompletion: { completion in
                io.print("byTime: completion \(completion) at \(context.referenceElapsed(since: start))")
            }, receiveValue: { values in
                io.print("byTime: \(values) at \(context.referenceElapsed(since: start))")
            })
            .store(in: &io.subscriptions)

        publisher
            .collect(.byTimeOrCount(q, .seconds(1.0), 3))
            .drawn("byTimeOrCount", on: io, isOutput: true)
            .sink(receiveCompletion: { completion in
                io.print("byTimeOrCount: completion \(completion) at \(context.referenceElapsed(since: start))")
                io.finish()
            }, receiveValue: { values in
                io.print("byTimeOrCount: \(values) at \(context.referenceElapsed(since: start))")
            })
            .store(in: &io.subscriptions)

        for (value, time) in [(1, 0.1), (2, 0.2), (3, 0.3), (4, 0.4), (5, 1.5), (6, 2.1), (7, 2.2)] {
            context.referenceAt(time) { publisher.send(value) }
        }
        context.referenceAt(2.5) { publisher.send(completion: .finished) }
    }
}

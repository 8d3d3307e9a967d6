import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The networking examples: Kodeco ch. 16's "Joke API" (designing a fallible API with
// `mapError`) and ch. 13's `share()`/`multicast(subject:)` over one data task. They run against
// `FixtureURLProtocol` instead of the internet; their pipelines are the book's.

/// The book's dad-jokes client, final version: errors wrapped in its own `Error` type, a 404 in
/// the JSON body turned into `jokeDoesntExist`, and ids without letters rejected up front.
final class DadJokes {
    struct Joke: Codable {
        let id: String
        let joke: String
    }

    enum Error: Swift.Error, CustomStringConvertible {
        case network
        case jokeDoesntExist(id: String)
        case parsing
        case unknown

        var description: String {
            switch self {
            case .network:
                return "Request to API Server failed"
            case .parsing:
                return "Failed parsing response from server"
            case .jokeDoesntExist(let id):
                return "Joke with ID \(id) doesn't exist"
            case .unknown:
                return "An unknown error occurred"
            }
        }
    }

    private let session: URLSession

    init(session: URLSession = FixtureURLProtocol.session) {
        self.session = session
    }

    func getJoke(id: String) -> AnyPublisher<Joke, Error> {
        guard id.rangeOfCharacter(from: .letters) != nil else {
            return Fail<Joke, Error>(
                error: .jokeDoesntExist(id: id)
            )
            .eraseToAnyPublisher()
        }

        let url = URL(string: "https://icanhazdadjoke.com/j/\(id)")!
        var request = URLRequest(url: url)
        request.allHTTPHeaderFields = ["Accept": "application/json"]

        return session
            .dataTaskPublisher(for: request)
            .tryMap { data, _ -> Data in
                guard let obj = try? JSONSerialization.jsonObject(with: data),
                      let dict = obj as? [String: Any],
                      dict["status"] as? Int == 404 else {
                    return data
                }

                throw DadJokes.Error.jokeDoesntExist(id: id)
            }
            .decode(type: Joke.self, decoder: JSONDecoder())
            .mapError { error -> DadJokes.Error in
                switch error {
                case is URLError:
                    return .network
                case is DecodingError:
                    return .parsing
                default:
                    return error as? DadJokes.Error ?? .unknown
                }
            }
            .eraseToAnyPublisher()
    }
}

extension Catalogue {
    static var networking: [Example] { [
        Example("joke-api", title: "Joke API", source: "Kodeco ch. 16, designing a fallible API", book: .same, timing: .asynchronous, operators: ["dataTaskPublisher", "tryMap", "decode", "mapError", "Fail"]) { io in
            let api = DadJokes()
            let jokeID = "9prWnjyImyd"

            api
                .getJoke(id: jokeID)
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print("Got joke: \($0)") })
                .store(in: &io.subscriptions)
        },

        Example(
            "joke-api-bad-id",
            title: "Joke API",
            source: "Kodeco ch. 16, a bad id, rejected before any request",
            book: .same,
            timing: .asynchronous,
            operators: ["Fail", "mapError"]
        ) { io in
            let api = DadJokes()
            let badJokeID = "123456"

            api
                .getJoke(id: badJokeID)
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print("Got joke: \($0)") })
                .store(in: &io.subscriptions)
        },

        Example(
            "joke-api-unknown-id",
            title: "Joke API",
            source: "Kodeco ch. 16, an unknown id, a 404 in the response body",
            book: .notPrinted,
            timing: .asynchronous,
            operators: ["tryMap", "decode", "mapError"]
        ) { io in
            let api = DadJokes()

            api
                .getJoke(id: "notAJoke42")
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print("Got joke: \($0)") })
                .store(in: &io.subscriptions)
        },

        Example(
            "operation-queue",
            title: "OperationQueue",
            source: "Kodeco ch. 17, receive(on:) an OperationQueue with maxConcurrentOperationCount = 1",
            book: .differs(
                "At this point the book's code also prints each value's thread ('Received 1 on "
                    + "thread 3'…); the example keeps the page's first print, without threads, since "
                    + "which pool thread runs each operation changes from run to run. The order, the "
                    + "page's point, is the book's."
            ),
            timing: .asynchronous,
            operators: ["receive(on:)", "OperationQueue"]
        ) { io in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1

            var received = 0
            let subscription = (1...10).publisher
                .receive(on: queue)
                .sink { value in
                    io.print("Received \(value)")
                    received += 1
                    if received == 10 { io.finish() }
                }
            io.whenFinished { subscription.cancel() }
        },

        Example("share", title: "share", source: "Kodeco ch. 13, share()", book: .same, timing: .asynchronous, operators: ["share", "print", "dataTaskPublisher"]) { io in
            let shared = FixtureURLProtocol.session
                .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com")!)
                .map(\.data)
                .print("shared", to: ExampleStream(io))
                .share()

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

        Example("multicast", title: "multicast", source: "Kodeco ch. 13, multicast(subject:)", book: .same, timing: .asynchronous, operators: ["multicast", "connect", "print", "dataTaskPublisher"]) { io in
            let subject = PassthroughSubject<Data, URLError>()

            let multicasted = FixtureURLProtocol.session
                .dataTaskPublisher(for: URL(string: "https://www.raywenderlich.com")!)
                .map(\.data)
                .print("multicast", to: ExampleStream(io))
                .multicast(subject: subject)

            var finished = 0
            let subscription1 = multicasted
                .sink(
                    receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                    receiveValue: { io.print("subscription1 received: '\($0)'") }
                )

            let subscription2 = multicasted
                .sink(
                    receiveCompletion: { _ in finished += 1; if finished == 2 { io.finish() } },
                    receiveValue: { io.print("subscription2 received: '\($0)'") }
                )

            let cancellable = multicasted.connect()
            io.whenFinished {
                subscription1.cancel()
                subscription2.cancel()
                cancellable.cancel()
            }
        },
    ] }
}

import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Kodeco ch. 16, "Designing your fallible APIs": the two stages between the first `DadJokes`
// client and the final one (in Networking.swift). Both ask for the bad id `123456`, which the
// API answers with HTTP 200 and a JSON body saying 404.

/// Stage two: the errors wrapped in `DadJokes.Error` by a `mapError` whose default branch maps
/// anything else to `.unknown`; the response is still decoded straight away, so the 404 body
/// fails to decode.
final class DadJokesMapError {
    struct Joke: Codable {
        let id: String
        let joke: String
    }

    typealias Error = DadJokes.Error

    private let session = FixtureURLProtocol.session

    func getJoke(id: String) -> AnyPublisher<Joke, Error> {
        let url = URL(string: "https://icanhazdadjoke.com/j/\(id)")!
        var request = URLRequest(url: url)
        request.allHTTPHeaderFields = ["Accept": "application/json"]

        return session
            .dataTaskPublisher(for: request)
            .map(\.data)
            .decode(type: Joke.self, decoder: JSONDecoder())
            .mapError { error -> DadJokes.Error in
                switch error {
                case is URLError:
                    return .network
                case is DecodingError:
                    return .parsing
                default:
                    return .unknown
                }
            }
            .eraseToAnyPublisher()
    }
}

/// Stage three: a `tryMap` that throws `jokeDoesntExist` for the 404 body, under the same
/// `mapError`, whose default branch turns that already-typed error into `.unknown`.
final class DadJokesTryMap {
    struct Joke: Codable {
        let id: String
        let joke: String
    }

    typealias Error = DadJokes.Error

    private let session = FixtureURLProtocol.session

    func getJoke(id: String) -> AnyPublisher<Joke, Error> {
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
                    return .unknown
                }
            }
            .eraseToAnyPublisher()
    }
}

extension Catalogue {
    static var kodecoFallibleAPI: [Example] { [
        Example(
            "joke-api-map-error",
            title: "Joke API",
            source: "Kodeco ch. 16, fallible APIs: DadJokes.Error and mapError",
            book: .same,
            timing: .asynchronous,
            operators: ["mapError", "decode"]
        ) { io in
            let api = DadJokesMapError()
            let badJokeID = "123456"

            api
                .getJoke(id: badJokeID)
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print("Got joke: \($0)") })
                .store(in: &io.subscriptions)
        },

        Example(
            "joke-api-try-map-404",
            title: "Joke API",
            source: "Kodeco ch. 16, fallible APIs: a tryMap for the 404 body",
            book: .same,
            timing: .asynchronous,
            operators: ["tryMap", "mapError"]
        ) { io in
            let api = DadJokesTryMap()
            let badJokeID = "123456"

            api
                .getJoke(id: badJokeID)
                .sink(receiveCompletion: { io.print($0); io.finish() },
                      receiveValue: { io.print("Got joke: \($0)") })
                .store(in: &io.subscriptions)
        },
    ] }
}

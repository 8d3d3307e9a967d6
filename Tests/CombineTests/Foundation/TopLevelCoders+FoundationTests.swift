import Combine
import Foundation
import Testing

@Suite("TopLevelCoders+Foundation")
struct TopLevelCodersFoundationTests {
    struct User: Codable, Equatable {
        let id: String
    }

    private func roundTrip<E: TopLevelEncoder, D: TopLevelDecoder>(
        _ value: User, encoder: E, decoder: D
    ) throws -> User where E.Output == D.Input {
        try decoder.decode(User.self, from: try encoder.encode(value))
    }

    @Test func jsonAndPropertyListCodersAreTopLevelCoders() throws {
        #expect(try roundTrip(User(id: "123"), encoder: JSONEncoder(), decoder: JSONDecoder()) == User(id: "123"))
        #expect(try roundTrip(User(id: "9"), encoder: PropertyListEncoder(), decoder: PropertyListDecoder()) == User(id: "9"))
        let data: Data = try JSONEncoder().encode(User(id: "1"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":"1"}"#)
    }
}

import Combine
import Foundation
import Testing

@Suite("Subscribers.Demand")
struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func descriptions() {
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(3).description == "max(3)")
        #expect(Demand.none.description == "max(0)")
        #expect(Demand.none == .max(0))
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.max(7).max == 7)
    }

    @Test func additionSaturatesToUnlimited() {
        #expect(Demand.max(1) + .max(2) == .max(3))
        #expect(Demand.unlimited + .max(2) == .unlimited)
        #expect(Demand.max(2) + .unlimited == .unlimited)
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(5) + 3 == .max(8))
        #expect(Demand.max(5) + -3 == .max(2))
        #expect(Demand.unlimited + -3 == .unlimited)
        var demand = Demand.max(1)
        demand += .max(1)
        demand += 2
        #expect(demand == .max(4))
    }

    @Test func subtractionClampsAtZero() {
        #expect(Demand.max(5) - .max(2) == .max(3))
        #expect(Demand.max(2) - .max(5) == .none)
        #expect(Demand.unlimited - .max(5) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.max(5) - 7 == .none)
        #expect(Demand.max(5) - 2 == .max(3))
        #expect(Demand.unlimited - 2 == .unlimited)
        var demand = Demand.max(3)
        demand -= 1
        demand -= .max(1)
        #expect(demand == .max(1))
    }

    @Test func multiplication() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.unlimited * 4 == .unlimited)
        #expect(Demand.max(Int.max) * 2 == .unlimited)
        var demand = Demand.max(2)
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func comparisons() {
        #expect(Demand.unlimited > .max(Int.max))
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(2) <= .max(2))
        #expect(Demand.unlimited > 1_000)
        #expect(Demand.unlimited >= 1_000)
        #expect(!(Demand.unlimited < 1_000))
        #expect(!(Demand.unlimited <= 1_000))
        #expect(1_000 < Demand.unlimited)
        #expect(!(1_000 > Demand.unlimited))
        #expect(Demand.max(3) == 3)
        #expect(3 == Demand.max(3))
        #expect(Demand.unlimited != 3)
        #expect(Demand.max(3) > 2)
        #expect(Demand.max(3) >= 3)
        #expect(2 < Demand.max(3))
        #expect(4 > Demand.max(3))
        #expect(3 >= Demand.max(3))
        #expect(3 <= Demand.max(3))
    }

    @Test func codableRoundTrip() throws {
        for demand in [Demand.none, .max(42), .unlimited] {
            let data = try JSONEncoder().encode([demand])
            #expect(try JSONDecoder().decode([Demand].self, from: data) == [demand])
        }
    }

    @Test func codableFormIsOneUnsignedInteger() throws {
        let data = try JSONEncoder().encode([Demand.max(7), .unlimited])
        #expect(String(decoding: data, as: UTF8.self) == "[7,9223372036854775808]")
    }

    @Test func decodingAboveIntMaxGivesUnlimited() throws {
        for text in ["[9223372036854775808]", "[9223372036854775809]", "[18446744073709551615]"] {
            #expect(try JSONDecoder().decode([Demand].self, from: Data(text.utf8)) == [.unlimited])
        }
        #expect(try JSONDecoder().decode([Demand].self, from: Data("[9223372036854775807]".utf8)) == [.max(Int.max)])
    }

    @Test func decodingANegativeNumberFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Demand].self, from: Data("[-1]".utf8))
        }
    }

    @Test func negativeMaxTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Subscribers.Demand.max(-1)
        }
    }
}

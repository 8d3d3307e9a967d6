import Combine
import TestSupport
import Testing

@Suite("Optional.Publisher operator specialisations")
struct OptionalPublisherOperatorsTests {
    @Test func resultTypesMatchApple() {
        let o = Optional(4).publisher
        let _: Optional<Bool>.Publisher = o.allSatisfy { $0 > 0 }
        let _: Optional<[Int]>.Publisher = o.collect()
        let _: Optional<String>.Publisher = o.compactMap { "\($0)" }
        let _: Optional<Bool>.Publisher = o.contains(4)
        let _: Optional<Bool>.Publisher = o.contains { $0 == 4 }
        let _: Optional<Int>.Publisher = o.count()
        let _: Optional<Int>.Publisher = o.drop { $0 > 0 }
        let _: Optional<Int>.Publisher = o.dropFirst(1)
        let _: Optional<Int>.Publisher = o.filter { $0 > 0 }
        let _: Optional<Int>.Publisher = o.first()
        let _: Optional<Int>.Publisher = o.first { $0 > 0 }
        let _: Empty<Int, Never> = o.ignoreOutput()
        let _: Optional<Int>.Publisher = o.last()
        let _: Optional<Int>.Publisher = o.last { $0 > 0 }
        let _: Optional<String>.Publisher = o.map { "\($0)" }
        let _: Optional<Int>.Publisher = o.max()
        let _: Optional<Int>.Publisher = o.max(by: <)
        let _: Optional<Int>.Publisher = o.min()
        let _: Optional<Int>.Publisher = o.min(by: <)
        let _: Optional<Int>.Publisher = o.output(at: 0)
        let _: Optional<Int>.Publisher = o.output(in: 0...1)
        let _: Optional<Int>.Publisher = o.prefix(2)
        let _: Optional<Int>.Publisher = o.prefix { $0 > 0 }
        let _: Optional<Int>.Publisher = o.reduce(0, +)
        let _: Optional<Int>.Publisher = o.removeDuplicates()
        let _: Optional<Int>.Publisher = o.removeDuplicates(by: ==)
        let _: Just<Int> = o.replaceEmpty(with: 0)
        let _: Optional<Int>.Publisher = o.scan(0, +)
    }

    @Test func presentAndAbsentValues() {
        let some = Optional(4).publisher, none = Optional<Int>.none.publisher
        #expect(syncEvents(some.map { $0 + 1 }) == ["5", "finished"])
        #expect(syncEvents(none.map { $0 + 1 }) == ["finished"])
        #expect(syncEvents(some.filter { $0 > 10 }) == ["finished"])
        #expect(syncEvents(none.replaceEmpty(with: 9)) == ["9", "finished"])
        #expect(syncEvents(some.reduce(1, +)) == ["5", "finished"])
        #expect(syncEvents(none.count()) == ["finished"])
        #expect(syncEvents(some.dropFirst()) == ["finished"])
        #expect(syncEvents(some.output(in: 1...5)) == ["finished"])
        #expect(syncEvents(some.output(in: 0..<3)) == ["4", "finished"])
    }

    @Test func collectOfNothingPublishesAnEmptyArray() {
        // §24: as on Apple's platforms, an empty optional publisher collects into [].
        #expect(Optional<Int>.none.publisher.collect().output == [])
        #expect(Optional(13).publisher.collect().output == [13])
    }
}

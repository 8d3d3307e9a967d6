import Combine
import TestSupport
import Testing

@Suite("Publishers.Sequence operator specialisations")
struct PublishersSequenceOperatorsTests {
    enum E: Error { case boom }

    @Test func resultTypesMatchApple() {
        let s = [3, 1, 2].publisher
        let _: Optional<Int>.Publisher = s.min(by: <)
        let _: Optional<Int>.Publisher = s.max(by: <)
        let _: Optional<Int>.Publisher = s.first { $0 > 1 }
        let _: Result<Bool, Never>.Publisher = s.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = s.tryAllSatisfy { $0 > 0 }
        let _: Result<[Int], Never>.Publisher = s.collect()
        let _: Publishers.Sequence<[String], Never> = s.compactMap { "\($0)" }
        let _: Result<Bool, Never>.Publisher = s.contains { $0 == 1 }
        let _: Result<Bool, any Error>.Publisher = s.tryContains { $0 == 1 }
        let _: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = s.drop { $0 > 2 }
        let _: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = s.dropFirst()
        let _: Publishers.Sequence<[Int], Never> = s.filter { $0 > 1 }
        let _: Empty<Int, Never> = s.ignoreOutput()
        let _: Publishers.Sequence<[String], Never> = s.map { "\($0)" }
        let _: Publishers.Sequence<PrefixSequence<[Int]>, Never> = s.prefix(2)
        let _: Publishers.Sequence<[Int], Never> = s.prefix { $0 > 2 }
        let _: Result<Int, Never>.Publisher = s.reduce(0, +)
        let _: Result<Int, any Error>.Publisher = s.tryReduce(0, +)
        let _: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)
        let _: Publishers.Sequence<[Int], Never> = s.scan(0, +)
        let _: Publishers.Sequence<[Int], E> = s.setFailureType(to: E.self)
        let _: Publishers.Sequence<[Int], Never> = s.removeDuplicates()
        let _: Result<Bool, Never>.Publisher = s.contains(2)
        let _: Optional<Int>.Publisher = s.min()
        let _: Optional<Int>.Publisher = s.max()
        let _: Optional<Int>.Publisher = s.first()
        let _: Optional<Int>.Publisher = s.output(at: 1)
        let _: Just<Int> = s.count()
        let _: Result<Int, E>.Publisher = s.setFailureType(to: E.self).count()
        let _: Result<Int, Never>.Publisher = Set([1]).publisher.count()
        let _: Publishers.Sequence<[Int], Never> = s.output(in: 0..<2)
        let _: Optional<Int>.Publisher = s.last()
        let _: Optional<Int>.Publisher = s.last { $0 > 1 }
        let _: Publishers.Sequence<[Int], Never> = s.prepend(0).append(9)
        let _: Publishers.Sequence<[Int], Never> = s.append([7]).prepend(s)
    }

    @Test func eagerResults() {
        let s = [3, 1, 1, 2].publisher
        #expect(syncEvents(s.map { $0 * 2 }) == ["6", "2", "2", "4", "finished"])
        #expect(syncEvents(s.removeDuplicates()) == ["3", "1", "2", "finished"])
        #expect(syncEvents(s.scan(0, +)) == ["3", "4", "5", "7", "finished"])
        #expect(syncEvents(s.min()) == ["1", "finished"])
        #expect(syncEvents(s.output(in: 2..<10)) == ["1", "2", "finished"])
        #expect(syncEvents(s.output(at: 9)) == ["finished"])
        #expect(syncEvents(s.tryReduce(0) { _, _ -> Int in throw E.boom }) == ["failure(boom)"])
        #expect(syncEvents(s.count()) == ["4", "finished"])
        #expect(syncEvents([1, nil, 3].publisher.replaceNil(with: 0)) == ["Optional(1)", "Optional(0)", "Optional(3)", "finished"])
    }

    // The books' sequence examples through the specialised overloads.
    @Test func bookExamplesThroughSpecialisations() {
        var line = ""
        _ = (0...5).publisher.scan(0, { $0 + $1 }).sink { line += "\($0) " }
        #expect(line == "0 1 3 6 10 15 ")
        #expect(syncEvents([1, 2, 3, 4].publisher.filter { $0 % 2 == 0 }) == ["2", "4", "finished"])
        #expect(syncEvents([1, 2, 3, 4].publisher.reduce(1, { $0 * $1 })) == ["24", "finished"])
        #expect(syncEvents([1, 2, 3, 4].publisher.scan(1, { $0 * $1 })) == ["1", "2", "6", "24", "finished"])
    }
}

import Combine
import TestSupport
import Testing

@Suite("Just operator specialisations")
struct JustOperatorsTests {
    enum E: Error, Equatable { case boom }

    static func neverToE(_ never: Never) -> E {}

    @Test func resultTypesMatchApple() {
        let j = Just(3)
        let _: Just<Int> = j.min()
        let _: Just<Int> = j.max()
        let _: Just<Bool> = j.contains(3)
        let _: Just<Int> = j.removeDuplicates()
        let _: Just<Bool> = j.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = j.tryAllSatisfy { $0 > 0 }
        let _: Just<[Int]> = j.collect()
        let _: Optional<String>.Publisher = j.compactMap { "\($0)" }
        let _: Just<Int> = j.min(by: <)
        let _: Just<Int> = j.max(by: <)
        let _: Publishers.Sequence<[Int], Never> = j.prepend(1, 2)
        let _: Publishers.Sequence<[Int], Never> = j.append([4, 5])
        let _: Just<Bool> = j.contains { $0 == 3 }
        let _: Result<Bool, any Error>.Publisher = j.tryContains { $0 == 3 }
        let _: Just<Int> = j.count()
        let _: Optional<Int>.Publisher = j.dropFirst()
        let _: Optional<Int>.Publisher = j.drop { $0 > 5 }
        let _: Just<Int> = j.first()
        let _: Optional<Int>.Publisher = j.first { $0 > 5 }
        let _: Just<Int> = j.last()
        let _: Optional<Int>.Publisher = j.last { $0 > 5 }
        let _: Optional<Int>.Publisher = j.filter { $0 > 5 }
        let _: Empty<Int, Never> = j.ignoreOutput()
        let _: Just<String> = j.map { "\($0)" }
        let _: Result<String, any Error>.Publisher = j.tryMap { "\($0)" }
        let _: Result<Int, E>.Publisher = j.mapError(Self.neverToE)
        let _: Optional<Int>.Publisher = j.output(at: 0)
        let _: Optional<Int>.Publisher = j.output(in: 0..<2)
        let _: Optional<Int>.Publisher = j.prefix(1)
        let _: Optional<Int>.Publisher = j.prefix { $0 > 0 }
        let _: Result<Int, Never>.Publisher = j.reduce(0, +)
        let _: Result<Int, any Error>.Publisher = j.tryReduce(0, +)
        let _: Just<Int> = j.removeDuplicates(by: ==)
        let _: Result<Int, any Error>.Publisher = j.tryRemoveDuplicates(by: ==)
        let _: Just<Int> = j.replaceEmpty(with: 0)
        let _: Result<Int, Never>.Publisher = j.scan(0, +)
        let _: Result<Int, any Error>.Publisher = j.tryScan(0, +)
        let _: Result<Int, E>.Publisher = j.setFailureType(to: E.self)
    }

    @Test func valuesAreComputedLikeTheGenericOperators() {
        #expect(syncEvents(Just(3).map { $0 * 2 }) == ["6", "finished"])
        #expect(syncEvents(Just(3).filter { $0 > 5 }) == ["finished"])
        #expect(syncEvents(Just(3).contains(3)) == ["true", "finished"])
        #expect(syncEvents(Just(3).dropFirst()) == ["finished"])
        #expect(syncEvents(Just(3).dropFirst(0)) == ["3", "finished"])
        #expect(syncEvents(Just(3).output(at: 1)) == ["finished"])
        #expect(syncEvents(Just(3).output(in: ...0)) == ["3", "finished"])
        #expect(syncEvents(Just(3).prefix(0)) == ["finished"])
        #expect(syncEvents(Just(3).prepend(1, 2).append(4)) == ["1", "2", "3", "4", "finished"])
        #expect(syncEvents(Just(3).reduce(10, +)) == ["13", "finished"])
        #expect(syncEvents(Just(3).collect()) == ["[3]", "finished"])
        #expect(syncEvents(Just(3).count()) == ["1", "finished"])
        #expect(syncEvents(Just(3).ignoreOutput()) == ["finished"])
        #expect(syncEvents(Just(3).tryMap { _ -> Int in throw E.boom }) == ["failure(boom)"])
        #expect(syncEvents(Just(3).tryScan(0) { _, _ -> Int in throw E.boom }) == ["failure(boom)"])
    }

    /// Apple's `Just.output(in:)` never traps and looks only at where the range starts, taken
    /// relative to `0..<Int.max`.
    @Test func outputInRangePublishesTheValueOnlyForARangeStartingAtZero() {
        #expect(syncEvents(Just(3).output(in: -10..<10)) == ["finished"])
        #expect(syncEvents(Just(3).output(in: 0..<0)) == ["3", "finished"])
        #expect(syncEvents(Just(3).output(in: 0...0)) == ["3", "finished"])
        #expect(syncEvents(Just(3).output(in: 1..<10)) == ["finished"])
        #expect(syncEvents(Just(3).output(in: 0...)) == ["3", "finished"])
        #expect(syncEvents(Just(3).output(in: ..<5)) == ["3", "finished"])
    }

    @Test func tryRemoveDuplicatesCallsTheClosureOnce() {
        // §24: Apple calls the closure once, with the value twice; a throw becomes the failure.
        var calls: [[Int]] = []
        let kept = Just(7).tryRemoveDuplicates { calls.append([$0, $1]); return true }
        #expect(calls == [[7, 7]])
        #expect(syncEvents(kept) == ["7", "finished"])
        let failed = Just(7).tryRemoveDuplicates { _, _ in throw E.boom }
        #expect((try? failed.result.get()) == nil)
    }
}

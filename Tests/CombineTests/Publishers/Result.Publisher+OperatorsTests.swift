import Combine
import TestSupport
import Testing

@Suite("Result.Publisher operator specialisations")
struct ResultPublisherOperatorsTests {
    enum E: Error, Equatable { case boom, other }

    @Test func resultTypesMatchApple() {
        let r = Result<Int, E>.success(2).publisher
        let _: Result<Bool, E>.Publisher = r.allSatisfy { $0 > 0 }
        let _: Result<[Int], E>.Publisher = r.collect()
        let _: Result<Bool, E>.Publisher = r.contains(2)
        let _: Result<Bool, E>.Publisher = r.contains { $0 == 2 }
        let _: Result<Int, E>.Publisher = r.count()
        let _: Result<Int, E>.Publisher = r.first()
        let _: Empty<Int, E> = r.ignoreOutput()
        let _: Result<Int, E>.Publisher = r.last()
        let _: Result<String, E>.Publisher = r.map { "\($0)" }
        let _: Result<Int, any Error>.Publisher = r.mapError { $0 as any Error }
        let _: Result<Int, E>.Publisher = r.max()
        let _: Result<Int, E>.Publisher = r.max(by: <)
        let _: Result<Int, E>.Publisher = r.min()
        let _: Result<Int, E>.Publisher = r.min(by: <)
        let _: Result<Int, E>.Publisher = r.reduce(0, +)
        let _: Result<Int, E>.Publisher = r.removeDuplicates()
        let _: Result<Int, E>.Publisher = r.removeDuplicates(by: ==)
        let _: Result<Int, E>.Publisher = r.replaceEmpty(with: 0)
        let _: Result<Int, E>.Publisher = r.scan(0, +)
        let _: Result<Bool, any Error>.Publisher = r.tryAllSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = r.tryContains { $0 > 0 }
        let _: Result<Int, any Error>.Publisher = r.tryMap { $0 }
        let _: Result<Int, any Error>.Publisher = r.tryMax(by: <)
        let _: Result<Int, any Error>.Publisher = r.tryMin(by: <)
        let _: Result<Int, any Error>.Publisher = r.tryReduce(0, +)
        let _: Result<Int, any Error>.Publisher = r.tryRemoveDuplicates(by: ==)
        let _: Result<Int, any Error>.Publisher = r.tryScan(0, +)
        let _: Result<Int, E>.Publisher = Result<Int, Never>.success(1).publisher.setFailureType(to: E.self)
    }

    @Test func successAndFailure() {
        let ok = Result<Int, E>.success(2).publisher, bad = Result<Int, E>.failure(.boom).publisher
        #expect(syncEvents(ok.map { $0 * 5 }) == ["10", "finished"])
        #expect(syncEvents(bad.map { $0 * 5 }) == ["failure(boom)"])
        #expect(syncEvents(bad.mapError { _ in E.other }) == ["failure(other)"])
        #expect(syncEvents(ok.tryMap { _ -> Int in throw E.other }) == ["failure(other)"])
        #expect(syncEvents(ok.scan(1, +)) == ["3", "finished"])
        #expect(syncEvents(ok.contains(2)) == ["true", "finished"])
    }

    @Test func tryClosuresAreCalledOnceOnASuccess() {
        // §24: tryMin/tryMax/tryRemoveDuplicates call the closure once with (value, value); a
        // throw becomes the failure; a failure does not call it.
        var calls = 0
        let ok = Result<Int, E>.success(5).publisher
        _ = ok.tryMin { calls += 1; return $0 < $1 }
        _ = ok.tryMax { calls += 1; return $0 < $1 }
        _ = ok.tryRemoveDuplicates { calls += 1; return $0 == $1 }
        #expect(calls == 3)
        let thrown = ok.tryMax { _, _ in throw E.other }
        #expect(throws: E.other) { try thrown.result.get() }
        let failed = Result<Int, E>.failure(.boom).publisher
        _ = failed.tryMin { calls += 1; return $0 < $1 }
        #expect(calls == 3)
    }
}

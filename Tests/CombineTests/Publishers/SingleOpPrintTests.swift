import Combine
import TestSupport
import Testing

/// What `print` shows as the subscription below each single-upstream operator: Apple's names for
/// the operators that wrap the upstream subscription, the upstream itself for those that hand it
/// straight down.
@Suite("Single-upstream operators as print shows them")
struct SingleOpPrintTests {
    private func shown<P: Publisher>(_ publisher: P) -> String? {
        let log = TextLog()
        _ = publisher.print("p", to: log).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        return log.lines.first { $0.contains("receive subscription") }
    }

    /// Runs `make` on a type-erased upstream, so the generic operators (not the specialisations
    /// for `Just`) are used.
    private func generic<Output, Failure, Q: Publisher>(
        _ p: some Publisher<Output, Failure>, _ make: (AnyPublisher<Output, Failure>) -> Q
    ) -> Q { make(p.eraseToAnyPublisher()) }

    @Test func passThroughOperatorsShowTheUpstream() {
        #expect(shown(generic(Just(1)) { $0.map { $0 } }) == "p: receive subscription: (Just)")
        #expect(shown(generic(Just(1)) { $0.setFailureType(to: (any Error).self) }) == "p: receive subscription: (Just)")
        // `Just.setFailureType` is Apple's specialisation returning a `Result.Publisher`, printed as `Once`.
        #expect(shown(generic(Just(1).setFailureType(to: SingleOp.TestError.self)) { $0.mapError { $0 } }) == "p: receive subscription: (Once)")
        #expect(shown(generic(Just(Optional(1))) { $0.replaceNil(with: 0) }) == "p: receive subscription: (Just)")
    }

    @Test func wrappingOperatorsShowApplesNames() {
        let j = Just(1)
        let expectations: [(String?, String)] = [
            (shown(generic(j) { $0.filter { _ in true } }), "Just"),  // hands the upstream subscription through (§5)
            (shown(generic(j) { $0.tryMap { $0 } }), "TryMap"),
            (shown(generic(j) { $0.compactMap { $0 } }), "Just"),  // hands the upstream subscription through (§5)
            (shown(generic(j) { $0.removeDuplicates() }), "RemoveDuplicates"),
            (shown(generic(j) { $0.scan(0, +) }), "Just"),  // hands the upstream subscription through (§5)
            (shown(generic(j) { $0.dropFirst() }), "Drop"),
            (shown(generic(j) { $0.prefix(1) }), "Output"),
            (shown(generic(j) { $0.collect() }), "Collect"),
            (shown(generic(j) { $0.collect(2) }), "CollectByCount"),
            (shown(generic(j) { $0.count() }), "Count"),
            (shown(generic(j) { $0.reduce(0, +) }), "Reduce"),
            (shown(generic(j) { $0.first() }), "First"),
            (shown(generic(j) { $0.last() }), "Last"),
            (shown(generic(j) { $0.contains(1) }), "Contains"),
            (shown(generic(j) { $0.allSatisfy { _ in true } }), "AllSatisfy"),
            (shown(generic(j) { $0.max() }), "Comparison"),
            (shown(generic(j) { $0.ignoreOutput() }), "Just"),  // hands the upstream subscription through (§5)
            (shown(generic(j) { $0.replaceEmpty(with: 0) }), "ReplaceEmpty"),
            (shown(generic(j) { $0.append(2) }), "Concatenate"),
            (shown(generic(j) { $0.drop(untilOutputFrom: Just(0)) }), "DropUntilOutput"),
        ]
        for (line, name) in expectations {
            #expect(line == "p: receive subscription: (\(name))")
        }
    }
}

import Combine
@testable import ExamplesCatalogue
import Foundation
import Testing

/// Runs every catalogue example on virtual time and compares what it prints with the text the
/// books print (``ExpectedOutput``), so the catalogue cannot drift from the books.
/// Collects text written from any thread.
final class LockedCapture: @unchecked Sendable {
    // @unchecked: `text` is only touched under `lock`.
    private let lock = NSLock()
    private var buffer = ""
    var text: String { lock.withLock { buffer } }
    func append(_ string: String) { lock.withLock { buffer += string } }
}

@Suite("Catalogue")
struct CatalogueTests {
    /// Runs `example` the way the `examples` command does (CombineTesting's `TestScheduler` for
    /// its timers, real time only for asynchronous work) and returns what it printed.
    static func output(of example: Example) async -> (text: String, finished: Bool) {
        let captured = LockedCapture()
        let finished = await ExampleRunner.run(example, write: captured.append)
        return (captured.text, finished)
    }

    @Test("every example prints what the book prints", arguments: Catalogue.all.map(\.slug))
    func matchesBook(slug: String) async throws {
        let example = try #require(Catalogue.example(named: slug))
        let expected = try #require(ExpectedOutput.bySlug[slug], "no expected output for \(slug)")
        guard !expected.isEmpty else { return }  // real-time only; checked by its own suite
        let (text, finished) = await Self.output(of: example)
        #expect(finished, "\(slug) did not finish")
        var (actual, book) = (text, expected)
        if ExpectedOutput.threadNumbersVary.contains(slug) {
            (actual, book) = (ExpectedOutput.threadsNormalised(actual), ExpectedOutput.threadsNormalised(book))
        }
        if ExpectedOutput.anyOrder.contains(slug) {
            // Concurrent deliveries: the same lines, in any order.
            #expect(ExpectedOutput.sortedLines(of: actual) == ExpectedOutput.sortedLines(of: book))
        } else {
            #expect(actual == book)
        }
    }

    /// Every example the book order names has an expected output, and every built example is
    /// in the book order.
    @Test func everyBuiltExampleIsInBookOrder() {
        for example in Catalogue.all {
            #expect(Catalogue.bookOrder.contains(example.slug), "\(example.slug) missing from bookOrder")
        }
        for slug in Catalogue.bookOrder {
            #expect(ExpectedOutput.bySlug[slug] != nil, "no expected output for \(slug)")
        }
    }

    @Test func slugsAreUnique() {
        let slugs = Catalogue.all.map(\.slug)
        #expect(Set(slugs).count == slugs.count)
    }

    @Test func everyExampleStartsWithTheBooksHeader() {
        for example in Catalogue.all {
            #expect(example.header == "——— Example of: \(example.title) ———")
        }
    }
}

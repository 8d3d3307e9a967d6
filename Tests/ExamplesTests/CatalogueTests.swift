import Combine
import ExamplesCatalogue
import Foundation
import Testing

/// Runs every catalogue example on virtual time and compares what it prints with the text the
/// books print (``ExpectedOutput``), so the catalogue cannot drift from the books.
@Suite("Catalogue")
struct CatalogueTests {
    /// Runs `example` on a fresh virtual scheduler and returns what it printed.
    static func output(of example: Example) -> (text: String, finished: Bool) {
        let scheduler = VirtualScheduler()
        let captured = CapturedOutput()
        let io = ExampleIO(now: { scheduler.date }, write: captured.append)
        example.run(io: io, scheduler: scheduler)
        scheduler.run()
        let finished = io.isFinished
        io.finish()
        return (captured.text, finished)
    }

    @Test("every example prints what the book prints", arguments: Catalogue.all.map(\.slug))
    func matchesBook(slug: String) throws {
        let example = try #require(Catalogue.example(named: slug))
        let expected = try #require(ExpectedOutput.bySlug[slug], "no expected output for \(slug)")
        guard example.timing != .asynchronous else { return }  // covered by their own tests
        let (text, finished) = Self.output(of: example)
        #expect(finished, "\(slug) did not finish")
        #expect(text == expected)
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

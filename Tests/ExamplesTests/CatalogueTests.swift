import Combine
@testable import ExamplesCatalogue
import Foundation
import Testing

/// Collects text written from any thread.
final class LockedCapture: @unchecked Sendable {
    // @unchecked: `text` is only touched under `lock`.
    private let lock = NSLock()
    private var buffer = ""
    var text: String { lock.withLock { buffer } }
    func append(_ string: String) { lock.withLock { buffer += string } }
}

/// Runs every catalogue example on virtual time and compares what it prints with the books
/// (``ExpectedOutput``): the same lines as the book, or, where the example knowingly differs, its
/// own lines followed by a note saying why. So the catalogue cannot drift from the books, and an
/// example cannot differ from its book without saying so.
@Suite("Catalogue")
struct CatalogueTests {
    /// Runs `example` the way the `examples` command does (CombineTesting's `TestScheduler` for
    /// its timers, real time only for asynchronous work) and returns what it printed.
    static func output(of example: Example) async -> (text: String, finished: Bool, drewMarbles: Bool) {
        let captured = LockedCapture()
        let outcome = await ExampleRunner.run(example, write: captured.append)
        return (captured.text, outcome.finished, outcome.marbleChart != nil)
    }

    /// What `example` prints when it prints `body` after its header: the header, the body, then
    /// its note, if it has one, on a line of its own.
    static func expectedOutput(of example: Example, body: String) -> String {
        var text = example.header + "\n" + body
        if let note = example.noteText {
            if !text.hasSuffix("\n") { text += "\n" }
            text += note
        }
        return text
    }

    /// The example's claim about its book (`book:`) agrees with the book's text: `.same` where
    /// the book prints exactly the example's lines, `.differs` (with a note) where the book
    /// prints other lines, `.notPrinted` where the book prints none.
    @Test("every example says truly how it stands to its book", arguments: Catalogue.all.map(\.slug))
    func claimMatchesTheBook(slug: String) throws {
        let example = try #require(Catalogue.example(named: slug))
        let expected = try #require(ExpectedOutput.bySlug[slug], "no entry for \(slug) in ExpectedOutput")
        switch example.book {
        case .same:
            #expect(expected.kind == .same, "\(slug) claims to print the book's lines, but its entry is \(expected.kind)")
            #expect(expected.book == expected.prints)
        case .differs(let note):
            #expect(expected.kind == .differs, "\(slug) has a note on how it differs, but its entry is \(expected.kind)")
            #expect(expected.book != nil && expected.book != expected.prints, "\(slug)'s note claims a difference its book does not have")
            #expect(!note.isEmpty)
        case .notPrinted(let note):
            #expect(expected.kind == .notPrinted, "\(slug) claims its book prints nothing, but its entry is \(expected.kind)")
            #expect(expected.book == nil)
            #expect(note.map { !$0.isEmpty } ?? true)
        }
    }

    @Test("every example prints what its entry says, and its note", arguments: Catalogue.all.map(\.slug))
    func printsItsEntry(slug: String) async throws {
        let example = try #require(Catalogue.example(named: slug))
        let expected = try #require(ExpectedOutput.bySlug[slug], "no entry for \(slug) in ExpectedOutput")
        guard !ExpectedOutput.realTimeOnly.contains(slug) else { return }
        let (text, finished, drewMarbles) = await Self.output(of: example)
        #expect(finished, "\(slug) did not finish")
        #expect(drewMarbles == example.drawsMarbles, "\(slug): drawsMarbles is \(example.drawsMarbles), its run \(drewMarbles ? "drew" : "did not draw") a chart")
        var (actual, wanted) = (text, Self.expectedOutput(of: example, body: expected.prints))
        if ExpectedOutput.threadNumbersVary.contains(slug) {
            (actual, wanted) = (ExpectedOutput.threadsNormalised(actual), ExpectedOutput.threadsNormalised(wanted))
        }
        #expect(actual == wanted)
    }

    /// The check above must be able to fail: an example printing the book's lines, declared
    /// `.same`, passes; the same example printing one more line fails, and passes once it is
    /// declared `.differs` with a note that it prints.
    @Test func anExampleThatDiffersFromItsBookWithoutANoteIsCaught() async {
        let book = "Hello\n"
        func example(_ claim: Example.BookOutput, printing text: String) -> Example {
            Example("hello", title: "Never sink", source: "test", book: claim) { io in io.print(text, terminator: "") }
        }
        let faithful = example(.same, printing: book)
        #expect(await Self.output(of: faithful).text == Self.expectedOutput(of: faithful, body: book))

        let drifted = example(.same, printing: "Hello\nagain\n")
        #expect(await Self.output(of: drifted).text != Self.expectedOutput(of: drifted, body: book))

        let noted = example(.differs("It says hello twice."), printing: "Hello\nagain\n")
        let text = await Self.output(of: noted).text
        #expect(text == "——— Example of: Never sink ———\nHello\nagain\nNote: It says hello twice.\n")
    }

    @Test func everyEntryIsListedOnce() {
        #expect(ExpectedOutput.duplicateSlugs.isEmpty, "listed more than once: \(ExpectedOutput.duplicateSlugs)")
    }

    /// Every built example is in the book order and has an entry, and every entry is an example.
    @Test func everyBuiltExampleIsInBookOrderWithAnEntry() {
        for example in Catalogue.all {
            #expect(Catalogue.bookOrder.contains(example.slug), "\(example.slug) missing from bookOrder")
            #expect(ExpectedOutput.bySlug[example.slug] != nil, "no entry for \(example.slug)")
        }
        for entry in ExpectedOutput.all {
            #expect(Catalogue.example(named: entry.slug) != nil, "\(entry.slug) has an entry but no example")
        }
    }

    /// The entries are grouped by book, each in its book's order.
    @Test func entriesFollowTheBookOrder() {
        let listed = ExpectedOutput.all.map(\.slug)
        #expect(listed == Catalogue.all.map(\.slug))
    }

    @Test func slugsAreUnique() {
        let slugs = Catalogue.all.map(\.slug)
        #expect(Set(slugs).count == slugs.count)
        #expect(Set(Catalogue.bookOrder).count == Catalogue.bookOrder.count)
    }

    @Test func everyExampleStartsWithTheBooksHeader() {
        for example in Catalogue.all {
            #expect(example.header == "——— Example of: \(example.title) ———")
        }
    }

    /// A note is wrapped at 100 columns, the lines after the first indented under its text.
    @Test func notesAreWrapped() throws {
        for example in Catalogue.all {
            guard let note = example.noteText else { continue }
            let lines = note.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= 100 }, "\(example.slug)'s note has a line over 100 columns")
            #expect(lines.first?.hasPrefix("Note: ") == true)
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("      ") && !$0.hasPrefix("       ") })
        }
    }
}

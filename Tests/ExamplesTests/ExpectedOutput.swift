import Foundation

/// One catalogue example's output next to its book's: the data ``CatalogueTests`` checks every
/// example against.
///
/// The book's text is kept apart from what the example prints, so that an example cannot drift
/// from its book unnoticed: an entry written `.same` makes the example print exactly the book's
/// lines; where the example knowingly prints something else, the entry is `.differs`, holds both
/// texts, and the example must say why in the note it prints after its output
/// (`Example.BookOutput.differs`). `.notPrinted` marks the snippets the book shows without their
/// output. Texts leave out the `——— Example of:` header line, which the tests compare with the
/// example's title.
struct Expected {
    /// How the example's output stands to the book's; matched against the example's own
    /// `Example.BookOutput`.
    enum Kind: Equatable {
        case same
        case differs
        case notPrinted
    }

    let slug: String
    let kind: Kind
    /// What the book prints for the example, `nil` when it prints nothing.
    let book: String?
    /// What the example prints after its header and before its note.
    let prints: String

    /// The book prints `book`, and the example prints the same.
    static func same(_ slug: String, book: String) -> Expected {
        Expected(slug: slug, kind: .same, book: book, prints: book)
    }

    /// The book prints `book`; the example prints `prints` and a note saying why.
    static func differs(_ slug: String, book: String, prints: String) -> Expected {
        Expected(slug: slug, kind: .differs, book: book, prints: prints)
    }

    /// The book prints no output for the example; the example prints `prints`.
    static func notPrinted(_ slug: String, prints: String) -> Expected {
        Expected(slug: slug, kind: .notPrinted, book: nil, prints: prints)
    }
}

/// What the books print for each example, one list per book in the book's order; the comment on
/// each entry names the book's section and, where the example differs, what differs.
enum ExpectedOutput {
    /// Every book's entries.
    static let all: [Expected] = usingCombine + kodeco + masteringIOS14 + marbleDemos + beyondTheBooks

    /// Slugs that have more than one entry: an error (``CatalogueTests`` fails on any), not an
    /// entry silently dropped.
    static var duplicateSlugs: [String] {
        Dictionary(grouping: all, by: \.slug).filter { $0.value.count > 1 }.keys.sorted()
    }

    /// The entries by slug (the first of any duplicates, which the tests report).
    static let bySlug: [String: Expected] = Dictionary(all.map { ($0.slug, $0) }) { first, _ in first }

    /// Examples on real dispatch time whose output the tests do not run (a late tick on a loaded
    /// machine would change it); `DispatchTimerTests` checks their timer instead.
    static let realTimeOnly: Set<String> = ["dispatch-timer", "dispatch-timer-cancelled"]

    /// Examples printing queue threads numbered by first appearance: Dispatch may move a serial
    /// queue's next work item to another pool thread, so every thread number other than 1 is
    /// read as the same.
    static let threadNumbersVary: Set<String> = ["subscribe-on", "receive-on-main"]

    /// `text` with every thread number other than 1 written `thread N`.
    static func threadsNormalised(_ text: String) -> String {
        text.replacingOccurrences(of: #"thread (?!1\b)\d+"#, with: "thread N", options: .regularExpression)
    }
}

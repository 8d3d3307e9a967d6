import Foundation

/// The examples that go beyond the books: a book's `@Published` example rewritten with an
/// `@Observable` model. The book prints no output for these; each prints what the book's version
/// prints, the subscription to the model's property being an `ObservationPublisher` where the
/// book's is a `@Published` property's `PublishedSubject`.
extension ExpectedOutput {
    static let beyondTheBooks: [Expected] = [
        // Mastering iOS 14, sample app 1, with `@Observable`: the same button states at the same
        // times as "signup-button".
        .notPrinted("signup-button-observable", prints: rewritten("signup-button", in: masteringIOS14)),
        // Using Combine, pattern "declarative UI updates from user input" with `debounce`, with
        // `@Observable`: the log of "search-debounce". `[GithubAPIUser]` is not `Equatable`, so
        // assigning the empty answer to the empty property is still a change, as with `@Published`.
        .notPrinted("search-debounce-observable", prints: rewritten("search-debounce", in: usingCombine)),
    ]

    /// What the book's version `slug` prints, with the `@Published` subscription named as the
    /// bridge's.
    private static func rewritten(_ slug: String, in book: [Expected]) -> String {
        guard let original = book.first(where: { $0.slug == slug }) else {
            preconditionFailure("no expected output for \(slug), which \(slug)-observable rewrites")
        }
        return original.prints.replacingOccurrences(of: "(PublishedSubject)", with: "(ObservationPublisher)")
    }
}

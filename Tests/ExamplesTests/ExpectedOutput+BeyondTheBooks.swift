import Foundation

extension ExpectedOutput {
    /// The examples that go beyond the books: a book's `@Published` example rewritten with an
    /// `@Observable` model. Each prints what the book's version prints, under its own title, the
    /// subscription to the model's property being an `ObservationPublisher` where the book's is
    /// a `@Published` property's `PublishedSubject`.
    static let beyondTheBooks: [String: String] = [
        // Mastering iOS 14, sample app 1, with `@Observable`: the same button states at the same
        // times as "signup-button".
        "signup-button-observable": rewritten(
            mastering["signup-button"]!, title: "sign-up button", as: "sign-up button, @Observable"),
        // Using Combine, pattern "declarative UI updates from user input" with `debounce`, with
        // `@Observable`: the log of "search-debounce". `[GithubAPIUser]` is not `Equatable`, so
        // assigning the empty answer to the empty property is still a change, as with `@Published`.
        "search-debounce-observable": rewritten(
            usingCombinePatterns["search-debounce"]!,
            title: "declarative UI updates from user input, debounced",
            as: "declarative UI updates from user input, @Observable"),
    ]

    /// The book's output `text` under the example title `new` instead of `old`, with the
    /// `@Published` subscription named as the bridge's.
    private static func rewritten(_ text: String, title old: String, as new: String) -> String {
        let header = "——— Example of: \(old) ———\n"
        precondition(text.hasPrefix(header), "the rewritten example's book output starts with another title")
        return ("——— Example of: \(new) ———\n" + text.dropFirst(header.count))
            .replacingOccurrences(of: "(PublishedSubject)", with: "(ObservationPublisher)")
    }
}

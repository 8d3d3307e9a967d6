extension ExpectedOutput {
    /// The examples that go beyond the books: a book's `@Published` example rewritten with an
    /// `@Observable` model. Each prints what the book's version prints (see the entry it rewrites),
    /// but for the name of the publisher's subscription.
    static let beyondTheBooks: [String: String] = [
        // Mastering iOS 14, sample app 1, with `@Observable`: the same button states at the same
        // times as "signup-button".
        "signup-button-observable": """
            ——— Example of: sign-up button, @Observable ———
            +0.0s  initialEmail = "abc@email.com"
            +0.5s  repeatedEmail = "abc@email.com"
            +1.0s  signup button isEnabled = true
            +3.0s  initialEmail = "abc@email.co"
            +3.0s  signup button isEnabled = false
            +4.0s  signup button isEnabled = false
            +5.0s  initialEmail = "abc@email.com"
            +5.0s  signup button isEnabled = true
            +6.0s  signup button isEnabled = true

            """,
        // Using Combine, pattern "declarative UI updates from user input" with `debounce`, with
        // `@Observable`: the log of "search-debounce", the subscription to `githubUserData` being
        // an `ObservationPublisher`. `[GithubAPIUser]` is not `Equatable`, so assigning the empty
        // answer to the empty property is still a change, as with `@Published`.
        "search-debounce-observable": """
            ——— Example of: declarative UI updates from user input, @Observable ———
            username pipeline: : receive subscription: (RemoveDuplicates)
            username pipeline: : request unlimited
            github user data: : receive subscription: (ObservationPublisher)
            github user data: : request unlimited
            github user data: : receive value: ([])
            username pipeline: : receive value: ()
            github user data: : receive value: ([])
            Set username to  h
            Set username to  he
            Set username to  hec
            Set username to  heck
            Set username to  heckj
            username pipeline: : receive value: (heckj)
            github user data: : receive value: ([ExamplesCatalogue.UIKit_Combine.GithubAPIUser(login: "heckj", public_repos: 69, avatar_url: "https://avatars0.githubusercontent.com/u/43388?v=4")])
            github user data: : receive cancel
            username pipeline: : receive cancel

            """,
    ]
}

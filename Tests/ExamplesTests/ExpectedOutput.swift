/// What the books print for each example, copied from the spec notes (`/work/shared/spec`);
/// the comment on each entry names the section. Where the book's printed text is wrong or
/// depends on the playground (memory addresses, a different input), the entry follows what the
/// code shown really prints and says so.
enum ExpectedOutput {
    static let bySlug: [String: String] = [
        // source-003 §1.2
        "never-sink": """
            ——— Example of: Never sink ———
            Hello

            """,
        // source-003 §1.3
        "set-failure-type": """
            ——— Example of: setFailureType ———
            Got value: Hello
            Finished successfully!

            """,
        // source-003 §1.4
        "assign-to-on": """
            ——— Example of: assign(to:on:) ———
            1 Unknown
            2 Shai

            """,
        // source-003 §1.5: the initial value, then three timer ticks; the virtual clock starts
        // at the book's first date.
        "assign-to": """
            ——— Example of: assign(to:on:) strong capture ———
            2021-08-21 12:43:32 +0000
            2021-08-21 12:43:33 +0000
            2021-08-21 12:43:34 +0000
            2021-08-21 12:43:35 +0000

            """,
        // source-003 §1.6 (note the trailing space)
        "assert-no-failure": """
            ——— Example of: assertNoFailure ———
            Got value: Hello\u{20}

            """,
        // source-003 §1.7, with map
        "try-map-map": """
            ——— Example of: tryMap ———
            Got value: 5
            Got value: 4
            Got value: 7
            Completed with finished

            """,
        // source-003 §1.7, with tryMap; corrected (the book's duplicated line came from a
        // playground with a fourth name), "..." in the book is the module-qualified type name.
        "try-map": """
            ——— Example of: tryMap ———
            Got value: 5
            Completed with failure(ExamplesCatalogue.NameError.tooShort("Shai"))

            """,
        // source-003 §1.8
        "map-vs-try-map": """
            ——— Example of: map vs tryMap ———
            Got value Hello World!
            Done!

            """,
        "map-vs-try-map-throwing": """
            ——— Example of: map vs tryMap ———
            Hello is too short!

            """,
        // source-003 §1.10; UIImage descriptions without the playground's memory address.
        "catching-low": """
            ——— Example of: Catching and retrying ———
            Got image: <UIImage named(lq.jpg) {300, 300}>
            finished

            """,
        "catching-high": """
            ——— Example of: Catching and retrying ———
            failure(Failed fetching image with high quality)

            """,
        "retry": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            failure(Failed fetching image with high quality)

            """,
        "retry-succeeds": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got image: <UIImage named(hq.jpg) {1835, 2446}>
            finished

            """,
        "replace-error": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Got image: <UIImage named(na.jpg) {200, 200}>
            finished

            """,
        "catch-fallback": """
            ——— Example of: Catching and retrying ———
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Trying ...
            Got error: Failed fetching image with high quality
            Failed fetching high quality, falling back to low quality
            Got image: <UIImage named(lq.jpg) {300, 300}>
            finished

            """,
    ]
}

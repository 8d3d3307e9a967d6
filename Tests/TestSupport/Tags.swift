import Testing

extension Tag {
    /// Tests that race real threads against the library's thread-safe paths (subjects, `sink`,
    /// sequences, `receive(on:)`, the fan-in operators, `flatMap`, `switchToLatest`, `buffer`,
    /// `Future`, `share`/`multicast`, the async bridges, `@Published`, the Observation bridge).
    /// `Scripts/test` runs every test with this tag, and the whole `StressTests` target, under the
    /// thread sanitizer.
    @Tag public static var concurrency: Self
}

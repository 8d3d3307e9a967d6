extension ExpectedOutput {
    /// "Using Combine": the core concepts and the patterns chapters.
    static let usingCombinePatterns: [String: String] = [:]
}

import Foundation

extension ExpectedOutput {
    /// Examples whose deliveries race on real queues: their output is compared line by line in
    /// any order (the same lines, as many times each).
    static let anyOrder: Set<String> = kodecoAnyOrder

    /// `text` with every thread number other than 1 written `thread N`.
    static func threadsNormalised(_ text: String) -> String {
        text.replacingOccurrences(of: #"thread (?!1\b)\d+"#, with: "thread N", options: .regularExpression)
    }

    /// The text's lines, sorted, for comparing outputs whose order is not fixed.
    static func sortedLines(of text: String) -> [String] {
        text.components(separatedBy: "\n").sorted()
    }
}

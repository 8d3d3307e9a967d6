import Combine
import Foundation

// "Using Combine" (Heckman): the core concepts and the patterns chapters.

extension Catalogue {
    /// The patterns, in the book's order.
    static let usingCombinePatternsOrder: [String] = []

    static var usingCombinePatterns: [Example] { [] }
}

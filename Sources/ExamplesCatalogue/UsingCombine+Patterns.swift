import Combine
import Foundation

// "Using Combine" (Heckman): the core concepts and the patterns chapters, as runnable examples.
// The groups live in UsingCombine+Patterns*.swift, one file per part of the chapter.
//
// What stands in for what Linux lacks: UIKit/AppKit controls are plain model classes that print
// their state the way the book's screen shows it; `RunLoop.main` and the book's background
// queues are the example's scheduler; `URLSession.shared` is `FixtureURLProtocol.session`, or a
// `ScheduledFixtureSession` where the pattern mixes networking with time.

extension Catalogue {
    /// The patterns, in the book's order.
    static let usingCombinePatternsOrder: [String] = [
        // Core concepts, developing with Combine
        "first-pipeline", "type-changing-map", "type-erasure", "pipelines-and-threads",
        // Patterns: subscribers
        "sink-cancel", "assign-cancel",
        // Patterns: networking
        "fetch-decode", "strict-status", "api-error",
        // Patterns: Future and sequencing
        "future-wrap", "future-resolved", "future-retry", "sequencing",
        // Patterns: error handling
        "assert-invariant", "catch-one-shot", "retry-delay", "retry-timeout", "flatmap-catch",
        "fallback-url",
        // Patterns: UIKit, AppKit, SwiftUI
        "search-field", "search-debounce", "cascading-updates", "form-validation", "delegate-proxy",
        "notification-custom", "notification-filter", "reactive-form",
        // Patterns: testing and debugging
        "test-expectation", "test-subject-sink", "test-scheduled-sends", "test-virtual-time",
        "test-testable-map", "print-retry", "handle-events", "breakpoint-predicates",
    ]

    static var usingCombinePatterns: [Example] {
        usingCombineCoreConcepts + usingCombineNetworkingPatterns + usingCombineFuturePatterns
            + usingCombineUIPatterns + usingCombineTestingPatterns
    }
}

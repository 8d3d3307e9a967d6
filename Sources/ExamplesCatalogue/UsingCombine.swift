import Combine
import Foundation

// "Using Combine" (Heckman), via the study notes [000] and the translation [001]
// (spec source-000-002-004.md and source-001.md): reference snippets whose output the text gives.
// The book discards some cancellables with `let _ =`, which cancels at once; they are kept here so
// the output is the one the book describes.

extension Catalogue {
    static var usingCombine: [Example] { [
        Example("scan", title: "scan", source: "Using Combine, reference: scan") { io in
            (0...5)
                .publisher
                .scan(0, { return $0 + $1 })
                .sink(receiveValue: { io.print("\($0)", terminator: " ") })
                .store(in: &io.subscriptions)
        },
    ] }
}


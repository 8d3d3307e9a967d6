import Combine
@testable import ExamplesCatalogue
import Foundation
import Testing

/// Runs every catalogue example on virtual time and compares what it prints with the text the
/// books print (``ExpectedOutput``), so the catalogue cannot drift from the books.
/// Collects text written from any thread.
final class LockedCapture: @unchecked Sendable {
    // @unchecked: `text` is only touched under `lock`.
    private let lock = NSLock()
    private var buffer = ""
    var text: String { lock.withLock { buffer } }
    func append(_ string: String) { lock.withLock { buffer += string } }
}

@Suite("Catalogue")
struct CatalogueTests {
    /// Runs `example` on a fresh virtual scheduler and returns what it printed.
    static func output(of example: Example) -> (text: String, finished: Bool) {
        let scheduler = VirtualScheduler()
        let captured = CapturedOutput()
        let io = ExampleIO(now: { scheduler.date }, write: captured.append)
        example.run(io: io, scheduler: scheduler)
        scheduler.run()
        let finished = io.isFinished
        io.finish()
        return (captured.text, finished)
    }

    /// Runs an example that waits for real asynchronous work (a URL session, a queue): its
    /// timers still run on virtual time, but completion is awaited for up to `timeout` seconds.
    static func asynchronousOutput(of example: Example, timeout: Duration = .seconds(10)) async -> (text: String, finished: Bool) {
        let scheduler = VirtualScheduler()
        let captured = LockedCapture()
        let io = ExampleIO(now: { scheduler.date }, write: captured.append)
        example.run(io: io, scheduler: scheduler)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !io.isFinished, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let finished = io.isFinished
        io.finish()
        return (captured.text, finished)
    }

    @Test("every example prints what the book prints", arguments: Catalogue.all.map(\.slug))
    func matchesBook(slug: String) async throws {
        let example = try #require(Catalogue.example(named: slug))
        let expected = try #require(ExpectedOutput.bySlug[slug], "no expected output for \(slug)")
        guard !expected.isEmpty else { return }  // real-time only; checked by its own suite
        let (text, finished) = example.timing == .asynchronous
            ? await Self.asynchronousOutput(of: example)
            : Self.output(of: example)
        #expect(finished, "\(slug) did not finish")
        #expect(text == expected)
    }

    /// Every example the book order names has an expected output, and every built example is
    /// in the book order.
    @Test func everyBuiltExampleIsInBookOrder() {
        for example in Catalogue.all {
            #expect(Catalogue.bookOrder.contains(example.slug), "\(example.slug) missing from bookOrder")
        }
        for slug in Catalogue.bookOrder {
            #expect(ExpectedOutput.bySlug[slug] != nil, "no expected output for \(slug)")
        }
    }

    @Test func slugsAreUnique() {
        let slugs = Catalogue.all.map(\.slug)
        #expect(Set(slugs).count == slugs.count)
    }

    @Test func everyExampleStartsWithTheBooksHeader() {
        for example in Catalogue.all {
            #expect(example.header == "——— Example of: \(example.title) ———")
        }
    }
}

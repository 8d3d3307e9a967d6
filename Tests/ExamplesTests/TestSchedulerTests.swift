import Combine
import CombineTesting
@testable import ExamplesCatalogue
import Foundation
import Testing

/// The catalogue's scheduled examples again, on CombineTesting's `TestScheduler` rather than this
/// suite's own virtual scheduler: the examples are generic over `Scheduler`, so any virtual clock
/// drives them to the book's output.
@Suite("Catalogue on TestScheduler")
struct TestSchedulerTests {
    static let scheduled = Catalogue.all.filter {
        if case .scheduled = $0.timing { return true } else { return false }
    }.map(\.slug)

    @Test("scheduled examples print the book's text", arguments: scheduled)
    func scheduledExample(slug: String) throws {
        let example = try #require(Catalogue.example(named: slug))
        let scheduler = TestScheduler()
        let origin = Date(timeIntervalSince1970: 1_629_549_812)  // 2021-08-21 12:43:32 UTC
        let captured = CapturedOutput()
        let io = ExampleIO(
            now: { origin.addingTimeInterval(Double(scheduler.now.ticks) / 1e9) },
            write: captured.append
        )
        example.run(io: io, scheduler: scheduler)
        scheduler.advance(by: .seconds(60))
        #expect(io.isFinished)
        io.finish()
        #expect(captured.text == ExpectedOutput.bySlug[slug])
    }

    @Test func thereAreScheduledExamples() {
        #expect(Self.scheduled.count >= 4)
    }
}

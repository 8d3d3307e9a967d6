import Combine
import CombineTesting
@testable import ExamplesCatalogue
import Foundation
import Testing

/// The runner shared by the `examples` command and the tests: scheduled examples run on
/// virtual time, so the catalogue's timers cost no real time.
@Suite("Example runner")
struct ExampleRunnerTests {
    static var scheduled: [Example] { Catalogue.all.filter {
        if case .scheduled = $0.timing { return true } else { return false }
    } }

    @Test func thereAreScheduledExamples() {
        #expect(Self.scheduled.count >= 4)
    }

    @Test("scheduled examples finish without waiting on real time")
    func scheduledExamplesTakeNoRealTime() {
        let clock = ContinuousClock()
        var bookSeconds = 0.0
        let elapsed = clock.measure {
            for example in Self.scheduled {
                if case .scheduled(let duration) = example.timing { bookSeconds += duration }
                #expect(ExampleRunner.run(example, write: { _ in }), "\(example.slug) did not finish")
            }
        }
        #expect(bookSeconds >= 5)
        #expect(elapsed < .seconds(bookSeconds / 5))
    }

    @Test func theVirtualClockStartsAtTheBooksFirstDateAndMovesWithTheScheduler() {
        let run = ExampleRunner.Run(Example("clock", title: "clock", source: "test", timing: .immediate) { _ in }, write: { _ in })
        #expect(run.io.now() == Date(timeIntervalSince1970: 1_629_549_812))
        run.scheduler.schedule(after: run.scheduler.now.advanced(by: .seconds(2))) {}
        #expect(run.advanceVirtualTime())
        #expect(run.io.now() == Date(timeIntervalSince1970: 1_629_549_814))
        #expect(!run.advanceVirtualTime())
    }

    @Test func anAsynchronousExamplesClockAlsoMovesWithRealTime() {
        let run = ExampleRunner.Run(
            Example("wait", title: "wait", source: "test", timing: .asynchronous) { _ in }, write: { _ in })
        let start = run.io.now()
        #expect(start >= ExampleRunner.virtualOrigin)
        Thread.sleep(forTimeInterval: 0.02)
        #expect(run.io.now().timeIntervalSince(start) >= 0.02)
    }

    @Test func aScheduledExampleThatNeverFinishesIsReportedAfterTheVirtualLimit() {
        struct Forever: ScheduledExampleBody {
            func run<S: Scheduler>(_ context: ExampleContext<S>) {
                context.timer(every: .seconds(60)).sink { _ in }.store(in: &context.io.subscriptions)
            }
        }
        let example = Example("forever", title: "forever", source: "test", duration: 1, body: Forever())
        #expect(!ExampleRunner.run(example, write: { _ in }))
    }

    @Test func matchingIsByExactSlugFirstThenBySubstring() {
        #expect(Catalogue.examples(matching: "zip").map(\.slug) == ["zip"])
        let debounce = Catalogue.examples(matching: "DEBOUNCE").map(\.slug)
        #expect(debounce.contains("marbles-debounce"))
        #expect(Catalogue.examples(matching: "kodeco ch. 18").allSatisfy { $0.source.hasPrefix("Kodeco ch. 18") })
        #expect(Catalogue.examples(matching: "no such operator").isEmpty)
    }
}

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
                #expect(ExampleRunner.run(example, write: { _ in }).finished, "\(example.slug) did not finish")
            }
        }
        #expect(bookSeconds >= 5)
        #expect(elapsed < .seconds(bookSeconds / 5))
    }

    @Test func theVirtualClockStartsAtTheBooksFirstDateAndMovesWithTheScheduler() {
        let run = ExampleRunner.Run(Example("clock", title: "clock", source: "test", book: .notPrinted, timing: .immediate) { _ in }, write: { _ in })
        #expect(run.io.now() == Date(timeIntervalSince1970: 1_629_549_812))
        run.scheduler.schedule(after: run.scheduler.now.advanced(by: .seconds(2))) {}
        #expect(run.advanceVirtualTime())
        #expect(run.io.now() == Date(timeIntervalSince1970: 1_629_549_814))
        #expect(!run.advanceVirtualTime())
    }

    @Test func anAsynchronousExamplesClockAlsoMovesWithRealTime() {
        let run = ExampleRunner.Run(
            Example("wait", title: "wait", source: "test", book: .notPrinted, timing: .asynchronous) { _ in }, write: { _ in })
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
        let example = Example("forever", title: "forever", source: "test", book: .notPrinted, duration: 1, body: Forever())
        #expect(!ExampleRunner.run(example, write: { _ in }).finished)
    }

    @Test func matchingIsByExactSlugFirstThenBySubstring() {
        #expect(Catalogue.examples(matching: ["zip"]).examples.map(\.slug) == ["zip"])
        let debounce = Catalogue.examples(matching: ["DEBOUNCE"]).examples.map(\.slug)
        #expect(debounce.contains("marbles-debounce"))
        #expect(Catalogue.examples(matching: ["kodeco ch. 18"]).examples.allSatisfy { $0.source.hasPrefix("Kodeco ch. 18") })
        let nothing = Catalogue.examples(matching: ["no such operator"])
        #expect(nothing.examples.isEmpty)
        #expect(nothing.unmatched == ["no such operator"])
    }

    /// Several words stand for what each stands for, in their order, without repeats; a word
    /// that matches nothing is reported even when the others match.
    @Test func severalWordsAreTheUnionOfWhatEachStandsFor() {
        let debounce = Catalogue.examples(matching: ["debounce"]).examples.map(\.slug)
        let throttle = Catalogue.examples(matching: ["throttle"]).examples.map(\.slug)
        let both = Catalogue.examples(matching: ["debounce", "throttle"])
        var union = debounce
        for slug in throttle where !union.contains(slug) { union.append(slug) }
        #expect(both.examples.map(\.slug) == union)
        #expect(both.unmatched.isEmpty)
        #expect(Catalogue.examples(matching: ["zip", "zip"]).examples.map(\.slug) == ["zip"])
        #expect(Catalogue.examples(matching: ["zip", "no-such"]).unmatched == ["no-such"])
    }
}

import Combine
import CombineTesting
@testable import ExamplesCatalogue
import Foundation
import Testing

/// `examples NAME --marbles`: the charts are CombineTesting's marble diagrams of a virtual-time
/// run, lined up so that a column is one instant in every row.
@Suite("Marble charts")
struct MarbleChartTests {
    /// The chart a run of the example `slug` draws.
    static func chart(of slug: String) throws -> MarbleChart {
        let example = try #require(Catalogue.example(named: slug))
        return try #require(ExampleRunner.run(example, write: { _ in }).marbleChart, "\(slug) drew no chart")
    }

    @Test func debounceEmitsTheLastValueAfterAQuietWindow() throws {
        #expect(try Self.chart(of: "marbles-debounce").description == """
            debounce(for: .milliseconds(300), scheduler:): one frame = 100 ms
              input   -a-b-c-------d-e----|
              output  --------c---------e-|

            """)
    }

    /// The issue this fixes: `examples ref-debounce --marbles` drew the marble demo's inputs;
    /// now it draws the example's own typing and what debounce made of it.
    @Test func anExampleDrawsItsOwnInputsAndOutput() throws {
        #expect(try Self.chart(of: "ref-debounce").description == """
            debounce: one frame = 100 ms
              typing  -hAB------C-----D--C----------|
              output  --------B------C--------C-----|
              A = he
              B = hec
              C = heck
              D = heckj

            """)
    }

    @Test func groupsWidenTheirFrameInEveryRow() throws {
        #expect(try Self.chart(of: "marbles-collect-by-time").alignedDiagrams == [
            "-a-b-c--d----e-|",
            "-----A----d----(e|)",
        ])
        #expect(try Self.chart(of: "marbles-timer").alignedDiagrams == ["--t-t-(t|)", "--1-2-(3|)"])
    }

    @Test func aGroupInOneRowPadsTheOthersWithSpacesThatDiagramsIgnore() {
        let scheduler = TestScheduler()
        let input = try! scheduler.hotPublisher("-a-(bc)-d|")
        let inputRecorder = scheduler.record(input)
        let outputRecorder = scheduler.record(input.filter { $0 != "b" })
        scheduler.advance(by: 20)
        var chart = MarbleChart(title: "filter", frameDuration: 1)
        chart.add("input", inputRecorder)
        chart.add("output", outputRecorder)
        #expect(chart.alignedDiagrams == ["-a-(bc)-d|", "-a-c   -d|"])
        // Read back, the padded row is still the output's diagram.
        #expect(MarbleDiagram(chart.alignedDiagrams[1]) == outputRecorder.marbles())
        #expect(chart.description == """
            filter: one frame = 1 ns
              input   -a-(bc)-d|
              output  -a-c   -d|

            """)
    }

    /// An example with no clock (*Mastering iOS 14*'s zip) is drawn one input event per frame,
    /// each output in the frame of the input that caused it; long values get letters.
    @Test func anImmediateExampleIsDrawnEventByEventWithALegend() throws {
        #expect(try Self.chart(of: "zip").description == """
            zip: one frame = one event of an input
              chars    a--bcd
              numbers  -12---3A
              output   -B-C--DE
              A = 10
              B = ("a", 1)
              C = ("b", 2)
              D = ("c", 3)
              E = ("d", 10)

            """)
    }

    @Test func kodecosTimersAreDrawnFromTheirOwnPipelines() throws {
        // RunLoop: fires at once and every second until cancelled at 3 s.
        #expect(try Self.chart(of: "run-loop-timer").alignedDiagrams == ["fff"])
        // DispatchQueue: 0 at once, then 1 and 2 a second apart.
        #expect(try Self.chart(of: "dispatch-queue-timer").alignedDiagrams == ["012"])
        // Timer.publish: the first tick one interval after subscribing.
        #expect(try Self.chart(of: "timer-publisher").alignedDiagrams == ["-ttt", "-123"])
    }

    @Test func aFailureIsDrawnAsAHash() throws {
        #expect(try Self.chart(of: "marbles-timeout").alignedDiagrams == ["-a--b--------c|", "-a--b----#"])
    }

    /// Every example on a scheduler is time-based and draws; which others draw is declared.
    /// (``CatalogueTests`` checks that each run draws exactly when `drawsMarbles` says so.)
    @Test func everyTimeBasedExampleDrawsMarbles() {
        for example in Catalogue.all where example.usesScheduler {
            #expect(example.drawsMarbles, "\(example.slug) is on a scheduler but draws no marbles")
        }
        #expect(Catalogue.all.filter(\.drawsMarbles).count >= 40)
    }

    @Test func theChartShowsTheSameRunAsTheExamplesLog() throws {
        // The log says `c` left debounce at +0.8 s; the chart has it in frame 8.
        let chart = try Self.chart(of: "marbles-debounce")
        let output = MarbleChart.frames(of: chart.rows[1].diagram)
        #expect(output.firstIndex(of: "c") == 8)
        #expect(ExpectedOutput.bySlug["marbles-debounce"]?.prints.contains("+0.8s  output  c") == true)
    }

    /// Frames are the longest that every event time is a multiple of, so nothing is rounded.
    @Test func theFrameFitsEveryEvent() throws {
        #expect(try Self.chart(of: "ref-measure-interval").frameDuration == .milliseconds(250))
        #expect(try Self.chart(of: "reader-clock").frameDuration == .seconds(10))
    }
}

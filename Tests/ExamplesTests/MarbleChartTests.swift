import Combine
import CombineTesting
@testable import ExamplesCatalogue
import Foundation
import Testing

/// `examples NAME --marbles`: the charts are CombineTesting's marble diagrams of a virtual-time
/// run, lined up so that a column is one instant in every row.
@Suite("Marble charts")
struct MarbleChartTests {
    @Test func debounceEmitsTheLastValueAfterAQuietWindow() throws {
        let chart = try #require(Catalogue.marbleChart(for: "marbles-debounce"))
        #expect(chart.description == """
            debounce(for: .milliseconds(300), scheduler:): one frame = 100 ms
              input   -a-b-c-------d-e----|
              output  --------c---------e-|

            """)
    }

    @Test func groupsWidenTheirFrameInEveryRow() throws {
        let chart = try #require(Catalogue.marbleChart(for: "marbles-collect-by-time"))
        #expect(chart.alignedDiagrams == [
            "-a-b-c--d----e-|",
            "-----A----d----(e|)",
        ])
        let timer = try #require(Catalogue.marbleChart(for: "marbles-timer"))
        #expect(timer.alignedDiagrams == ["--t-t-(t|)", "--1-2-(3|)"])
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

    @Test func longValuesGetLettersExplainedInALegend() throws {
        let chart = try #require(Catalogue.marbleChart(for: "zip"))
        #expect(chart.description == """
            chars.zip(numbers): one frame = 100 ms
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
        // RunLoop: fires at once and every second, cancelled at 3 s (drawn as the row's end).
        #expect(Catalogue.marbleChart(for: "run-loop-timer")?.alignedDiagrams == ["f-f-f-|"])
        // DispatchQueue: 0 at once, then 1 and 2 a second apart.
        #expect(Catalogue.marbleChart(for: "dispatch-queue-timer")?.alignedDiagrams == ["0-1-(2|)"])
        // Timer.publish: the first tick one interval after subscribing.
        #expect(Catalogue.marbleChart(for: "timer-publisher")?.alignedDiagrams == ["--t-t-(t|)", "--1-2-(3|)"])
    }

    @Test func aFailureIsDrawnAsAHash() throws {
        let chart = try #require(Catalogue.marbleChart(for: "marbles-timeout"))
        #expect(chart.alignedDiagrams == ["-a--b--------c|", "-a--b----#"])
    }

    @Test func everyMarbleDemoHasAChartAndEveryChartBelongsToAnExample() {
        for slug in Catalogue.marblesOrder {
            #expect(Catalogue.marbleChart(for: slug) != nil, "\(slug) has no chart")
        }
        for slug in Catalogue.marbleCharts.keys {
            #expect(Catalogue.example(named: slug) != nil, "chart for unknown example \(slug)")
        }
    }

    @Test func anExampleAboutATimeOperatorGetsThatOperatorsDemo() throws {
        let debounce = Example("typing", title: "debounce", source: "test") { _ in }
        let found = try #require(Catalogue.marbleChart(for: debounce))
        #expect(found.slug == "marbles-debounce")
        #expect(found.chart.description == Catalogue.marbleChart(for: "marbles-debounce")?.description)

        let byOperator = Example("typing", title: "typing", source: "test", operators: ["Throttle"]) { _ in }
        #expect(Catalogue.marbleChart(for: byOperator)?.slug == "marbles-throttle")
        let timer = try #require(Catalogue.example(named: "reader-clock"))
        #expect(Catalogue.marbleChart(for: timer)?.slug == "marbles-timer")

        let own = try #require(Catalogue.example(named: "zip"))
        #expect(Catalogue.marbleChart(for: own)?.slug == "zip")

        let unrelated = Example("plain", title: "scan", source: "test", operators: ["collect"]) { _ in }
        #expect(Catalogue.marbleChart(for: unrelated) == nil)

        for (topic, slug) in Catalogue.marbleDemoByTopic {
            #expect(Catalogue.marbleChart(for: slug) != nil, "\(topic) points at \(slug), which has no chart")
        }
    }

    @Test func theChartShowsTheSameRunAsTheExamplesLog() throws {
        // The log says `c` left debounce at +0.8 s; the chart has it in frame 8.
        let chart = try #require(Catalogue.marbleChart(for: "marbles-debounce"))
        let output = MarbleChart.frames(of: chart.rows[1].diagram)
        #expect(output.firstIndex(of: "c") == 8)
        #expect(ExpectedOutput.marbles["marbles-debounce"]?.contains("+0.8s  output  c") == true)
    }
}

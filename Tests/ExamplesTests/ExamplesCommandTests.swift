import ExamplesCatalogue
import Foundation
import Testing

/// The built `examples` executable, end to end: listing, running by name (on real time, through
/// the main queue), and an unknown name.
@Suite("examples command")
struct ExamplesCommandTests {
    /// Runs the executable built next to the test bundle with `arguments`.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0])
            .deletingLastPathComponent()
            .appendingPathComponent("examples")
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "build the `examples` product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    @Test func listNamesEveryExample() throws {
        let result = try Self.run(["list"])
        #expect(result.status == 0)
        let slugs = result.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(slugs == Catalogue.all.map(\.slug))
    }

    @Test func runsNamedExamplesSeparatedByABlankLine() throws {
        let result = try Self.run(["never-sink", "scan", "switch-to-latest"])
        #expect(result.status == 0)
        #expect(result.output == """
            ——— Example of: Never sink ———
            Hello

            ——— Example of: scan ———
            0 1 3 6 10 15\u{20}

            ——— Example of: switchToLatest ———
            Value: 1
            Value: 2
            Value: 3
            Value: 4
            Value: 5

            """)
    }

    @Test func unknownNameIsAnError() throws {
        let result = try Self.run(["no-such-example"])
        #expect(result.status == 2)
        #expect(result.error.contains("no example named or matching 'no-such-example'"))
        #expect(result.output.isEmpty)
    }

    @Test func listFiltersByOperatorBookOrTitle() throws {
        let debounce = try Self.run(["list", "debounce"])
        #expect(debounce.status == 0)
        let slugs = debounce.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(slugs == Catalogue.all.filter { $0.matches("debounce") }.map(\.slug))
        #expect(slugs.contains("marbles-debounce"))
        #expect(debounce.output.contains("[Using Combine, reference: debounce (marble diagram)]"))

        let chapter = try Self.run(["list", "KODECO CH. 18"])
        #expect(chapter.output.split(separator: "\n").allSatisfy { $0.contains("[Kodeco ch. 18") })
        #expect(!chapter.output.isEmpty)

        let nothing = try Self.run(["list", "no-such-operator"])
        #expect(nothing.status == 2)
        #expect(nothing.error.contains("no example matches 'no-such-operator'"))
    }

    @Test func aWordThatIsNotASlugRunsEveryMatchingExample() throws {
        let result = try Self.run(["timeout"])
        #expect(result.status == 0)
        let headers = result.output.split(separator: "\n").filter { $0.hasPrefix("——— Example of:") }
        #expect(headers.count == Catalogue.all.filter { $0.matches("timeout") }.count)
        #expect(result.output.contains("+0.9s  output  failure(TimedOut)"))
    }

    @Test func marblesDrawsTheChartAfterTheExample() throws {
        let result = try Self.run(["marbles-debounce", "--marbles"])
        #expect(result.status == 0)
        let chart = try #require(Catalogue.marbleChart(for: "marbles-debounce"))
        #expect(result.output == ExpectedOutput.marbles["marbles-debounce"]! + "\n" + chart.description)
    }

    @Test func marblesOnATimeExampleWithoutItsOwnChartDrawsTheOperatorsDemo() throws {
        let result = try Self.run(["reader-clock", "--marbles"])
        #expect(result.status == 0)
        let chart = try #require(Catalogue.marbleChart(for: "marbles-timer"))
        #expect(result.output.hasSuffix("\nThe operator's marble demo (`examples marbles-timer`):\n" + chart.description))
    }

    @Test func marblesOnAnExampleWithoutChartsSaysSo() throws {
        let result = try Self.run(["never-sink", "--marbles"])
        #expect(result.status == 0)
        #expect(result.error.contains("no marble diagrams"))
    }

    @Test func unknownOptionIsAnError() throws {
        let result = try Self.run(["--marble"])
        #expect(result.status == 2)
        #expect(result.error.contains("unknown option '--marble'"))
    }

    @Test func helpPrintsTheUsage() throws {
        for arguments in [["help"], ["--help"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("usage: examples"))
            #expect(result.output.contains("--marbles"))
        }
    }
}

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

    /// The slugs of a listing: its lines up to the legend, each up to its first space.
    static func slugs(ofListing output: String) -> [String] {
        output.components(separatedBy: "\n\n")[0].split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    }

    /// The examples a run went through, from the command line printed before each.
    static func slugs(ofRun output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("$ swift run examples ") }.map {
            String($0.dropFirst("$ swift run examples ".count))
        }
    }

    @Test func listNamesEveryExample() throws {
        let result = try Self.run(["list"])
        #expect(result.status == 0)
        #expect(Self.slugs(ofListing: result.output) == Catalogue.all.map(\.slug))
    }

    /// `≠` marks an example that prints a note on how it differs from its book, `∅` one whose
    /// book prints no output; a legend under the list says so.
    @Test func listMarksTheExamplesThatDifferFromTheirBook() throws {
        let result = try Self.run(["list", "try-map", "never-sink", "ref-map"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("try-map                    ≠ tryMap  [Kodeco ch. 16"))
        #expect(lines[1].hasPrefix("never-sink                   Never sink  [Kodeco ch. 16"))
        #expect(lines[2].hasPrefix("ref-map                    ∅ map  [Using Combine, reference: map]"))
        #expect(result.output.hasSuffix("""

            ≠ prints a note after its output: what differs from the book's text, and why
            ∅ the book prints no output for this code; the example prints what the code prints

            """))
    }

    /// A single example prints its output alone; several are separated by a blank line, each
    /// preceded by the command that runs it alone.
    @Test func runsNamedExamplesEachPrecededByItsCommand() throws {
        let single = try Self.run(["never-sink"])
        #expect(single.output == "——— Example of: Never sink ———\nHello\n")

        let result = try Self.run(["never-sink", "scan", "switch-to-latest"])
        #expect(result.status == 0)
        #expect(result.output == """
            $ swift run examples never-sink
            ——— Example of: Never sink ———
            Hello

            $ swift run examples scan
            ——— Example of: scan ———
            0 1 3 6 10 15\u{20}

            $ swift run examples switch-to-latest
            ——— Example of: switchToLatest ———
            Value: 1
            Value: 2
            Value: 3
            Value: 4
            Value: 5

            """)
    }

    /// `scan` prints without a newline (`print(_, terminator: " ")`); the command still ends its
    /// output with one.
    @Test func theOutputEndsWithANewline() throws {
        #expect(try Self.run(["scan"]).output == "——— Example of: scan ———\n0 1 3 6 10 15 \n")
    }

    /// An example whose output differs from its book prints the note after its output.
    @Test func aDifferingExampleEndsWithItsNote() throws {
        let result = try Self.run(["try-map"])
        let example = try #require(Catalogue.example(named: "try-map"))
        #expect(result.output.hasSuffix(try #require(example.noteText)))
        #expect(result.output.contains("Completed with failure(ExamplesCatalogue.NameError.tooShort(\"Shai\"))\nNote: "))
    }

    @Test func unknownNameIsAnError() throws {
        for arguments in [["no-such-example"], ["list", "no-such-example"], ["zip", "no-such-example"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 2)
            #expect(result.error.contains("no example named or matching 'no-such-example'"))
            #expect(result.output.isEmpty)
        }
    }

    @Test func listFiltersByOperatorBookOrTitle() throws {
        let debounce = try Self.run(["list", "debounce"])
        #expect(debounce.status == 0)
        let slugs = Self.slugs(ofListing: debounce.output)
        #expect(slugs == Catalogue.all.filter { $0.matches("debounce") }.map(\.slug))
        #expect(slugs.contains("marbles-debounce"))
        #expect(debounce.output.contains("[Using Combine, reference: debounce (marble diagram)]"))

        let chapter = try Self.run(["list", "KODECO CH. 18"])
        let listed = chapter.output.components(separatedBy: "\n\n")[0].split(separator: "\n")
        #expect(!listed.isEmpty)
        #expect(listed.allSatisfy { $0.contains("[Kodeco ch. 18") })
    }

    /// One rule for both: `examples list WORDS` lists exactly the examples `examples WORDS` runs,
    /// in the same order.
    @Test func listAndRunSelectTheSameExamples() throws {
        let words = ["debounce", "throttle"]
        let listed = try Self.run(["list"] + words)
        let ran = try Self.run(words)
        #expect(listed.status == 0)
        #expect(ran.status == 0)
        let slugs = Self.slugs(ofListing: listed.output)
        #expect(slugs.count >= 6)
        #expect(slugs == Self.slugs(ofRun: ran.output))
        #expect(slugs == Catalogue.examples(matching: words).examples.map(\.slug))
    }

    @Test func aWordThatIsNotASlugRunsEveryMatchingExample() throws {
        let result = try Self.run(["timeout"])
        #expect(result.status == 0)
        let headers = result.output.split(separator: "\n").filter { $0.hasPrefix("——— Example of:") }
        #expect(headers.count == Catalogue.all.filter { $0.matches("timeout") }.count)
        #expect(result.output.contains("+0.9s  output  failure(TimedOut)"))
    }

    @Test func marblesDrawsTheChartOfTheExamplesOwnRunAfterIt() throws {
        let result = try Self.run(["marbles-debounce", "--marbles"])
        #expect(result.status == 0)
        let example = try #require(Catalogue.example(named: "marbles-debounce"))
        let log = try #require(ExpectedOutput.bySlug["marbles-debounce"]).prints
        let chart = try #require(ExampleRunner.run(example, write: { _ in }).marbleChart)
        #expect(result.output == example.header + "\n" + log + "\n" + chart.description)
    }

    /// `ref-debounce` used to draw the marble demo's inputs; it draws its own typing now.
    @Test func marblesOnATimeExampleDrawsItsOwnInputs() throws {
        let result = try Self.run(["ref-debounce", "--marbles"])
        #expect(result.status == 0)
        #expect(result.output.contains("\ndebounce: one frame = 100 ms\n  typing  -hAB------C-----D--C----------|\n"))
        #expect(!result.output.contains("-a-b-c-------d-e----|"))
    }

    @Test func marblesOnAnExampleWithoutChartsSaysSo() throws {
        let result = try Self.run(["never-sink", "--marbles"])
        #expect(result.status == 0)
        #expect(result.error.contains("no marble diagrams"))
    }

    @Test func listTakesNoOptions() throws {
        for option in ["--marbles", "--bogus"] {
            let result = try Self.run(["list", option])
            #expect(result.status == 2)
            #expect(result.error.contains("unknown option '\(option)' for `examples list`"))
            #expect(result.output.isEmpty)
        }
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

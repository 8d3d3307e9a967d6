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
        #expect(result.error.contains("no example named 'no-such-example'"))
    }
}

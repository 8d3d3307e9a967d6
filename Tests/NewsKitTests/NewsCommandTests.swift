import Foundation
import NewsKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `news` program: its run function end to end, and the built executable's exit code.
@Suite("NewsCommand")
struct NewsCommandTests {
    /// Runs the command with `arguments`, returning exit code, standard output and error output.
    static func run(_ arguments: [String]) -> (code: Int32, output: String, error: String) {
        var output = ""
        var error = ""
        let code = NewsCommand.run(arguments, output: { output += $0 }, errorOutput: { error += $0 })
        return (code, output, error)
    }

    @Test func defaultRunShowsTheBundledSnapshot() {
        let result = Self.run([])
        #expect(result.code == 0)
        #expect(result.error.isEmpty)
        // The snapshot's own time (its newest item's), not the time it was read.
        #expect(result.output.hasPrefix("Hacker News — 20 newest stories, from a snapshot of 2024-11-22 09:20 UTC\n"))
        #expect(result.output.contains(" 1. Swift 6.3 released with improved Linux support\n"))
        #expect(result.output.contains("20. Type erasure in Swift, demystified\n"))
    }

    @Test func keywordFiltersTheList() {
        let result = Self.run(["--keyword", "swift"])
        #expect(result.code == 0)
        #expect(result.output.contains("Filtered by: swift\n"))
        #expect(result.output.hasPrefix("Hacker News — 5 newest stories"))
    }

    @Test func noMatchPrintsTheEmptyListMessage() {
        let result = Self.run(["--keyword", "NOSUCHWORD"])
        #expect(result.code == 0)
        #expect(result.output == "No stories match \"NOSUCHWORD\".\n")
    }

    @Test func corruptSnapshotIsAOneLineErrorAndExitCodeOne() throws {
        let fixture = try FixtureDirectory(newStories: "{\"not\": \"a list\"}")
        defer { fixture.remove() }
        let result = Self.run(["--snapshot", fixture.url.path])
        #expect(result.code == NewsCommand.failure)
        #expect(result.output.isEmpty)
        #expect(result.error == "news: The server responded with garbage.\n")
    }

    @Test func offlineIsAOneLineErrorAndExitCodeOne() {
        SnapshotURLProtocol.register(.offline, forHost: "command-offline.snapshot.test")
        defer { SnapshotURLProtocol.unregister(host: "command-offline.snapshot.test") }
        let api = API(
            baseURL: URL(string: "https://command-offline.snapshot.test/v0/")!,
            session: URLSession(configuration: SnapshotURLProtocol.sessionConfiguration())
        )
        var error = ""
        let code = NewsCommand.run(api: api, options: .init(), output: { _ in }, errorOutput: { error += $0 })
        #expect(code == NewsCommand.failure)
        #expect(error == "news: https://command-offline.snapshot.test/v0/newstories.json is unreachable.\n")
    }

    @Test func badArgumentsAreAUsageError() {
        let result = Self.run(["--frobnicate"])
        #expect(result.code == NewsCommand.usageError)
        #expect(result.error.hasPrefix("news: unknown argument '--frobnicate'\n"))
        #expect(Self.run(["--max", "zero"]).code == NewsCommand.usageError)
        #expect(Self.run(["--keyword"]).code == NewsCommand.usageError)
    }

    @Test func argumentParsing() throws {
        let options = try NewsCommand.parse(["--live", "-k", "a", "--keyword=b", "--max", "5"])
        #expect(options.live)
        #expect(options.keywords == ["a", "b"])
        #expect(options.maxStories == 5)
    }

    /// The built `news` executable, next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0])
            .deletingLastPathComponent()
            .appendingPathComponent("news")
    }

    @Test func executableExitsNonZeroOnACorruptSnapshot() throws {
        let fixture = try FixtureDirectory(newStories: "garbage")
        defer { fixture.remove() }
        let executable = Self.executable
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "build the `news` product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--snapshot", fixture.url.path]
        let errorPipe = Pipe()
        let outputPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = outputPipe
        try process.run()
        process.waitUntilExit()
        let error = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1)
        #expect(error == "news: The server responded with garbage.\n")
    }
}

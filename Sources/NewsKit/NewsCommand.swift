import Combine
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `news` command: loads the newest Hacker News stories (from the bundled snapshot, or the
/// live API with `--live`), filters them by keyword and prints them.
///
/// Everything it needs comes in through ``run(_:output:errorOutput:)`` so the tests can drive it
/// end to end; `main.swift` only passes the real arguments and streams and exits with the result.
public enum NewsCommand {
    /// Exit code for success (including an empty list).
    public static let success: Int32 = 0
    /// Exit code when the stories could not be loaded.
    public static let failure: Int32 = 1
    /// Exit code for a command-line mistake.
    public static let usageError: Int32 = 2

    /// The options the command understands.
    public struct Options: Equatable, Sendable {
        /// Use the real API instead of the bundled snapshot.
        public var live = false
        /// Only show stories whose title contains one of these.
        public var keywords: [String] = []
        /// Serve this directory (laid out like the bundled snapshot) instead of the bundled one.
        public var snapshotDirectory: String? = nil
        /// Use this API base URL (e.g. a local server) instead of the real one.
        public var baseURL: String? = nil
        /// How many of the newest stories to load.
        public var maxStories = 30
        /// How long to wait for the API, in seconds.
        public var timeout: TimeInterval = 30
        /// Print the usage text.
        public var help = false

        /// The defaults.
        public init() {}
    }

    /// The usage text.
    public static let usage = """
        usage: news [--live] [--keyword WORD]... [--max N] [--timeout SECONDS]
                    [--snapshot DIRECTORY] [--base-url URL]

        Prints the newest Hacker News stories. By default they come from a snapshot of the API
        bundled with the program, so it works offline; --live asks the real API.

          --live               use https://hacker-news.firebaseio.com/v0/
          --keyword WORD       only stories whose title contains WORD (repeatable)
          --max N              load at most N stories (default 30)
          --timeout SECONDS    give up after SECONDS (default 30)
          --snapshot DIR       serve DIR (v0/newstories.json, v0/item/ID.json) instead
          --base-url URL       use another API base URL, e.g. a local server

        """

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var remaining = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst() else { throw UsageError("\(flag) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            var flag = argument
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                remaining.insert(String(argument[argument.index(after: equals)...]), at: remaining.startIndex)
            }
            switch flag {
            case "--live": options.live = true
            case "--keyword", "-k": options.keywords.append(try value(for: flag))
            case "--snapshot": options.snapshotDirectory = try value(for: flag)
            case "--base-url": options.baseURL = try value(for: flag)
            case "--max":
                guard let max = Int(try value(for: flag)), max > 0 else {
                    throw UsageError("--max needs a positive number")
                }
                options.maxStories = max
            case "--timeout":
                guard let seconds = TimeInterval(try value(for: flag)), seconds > 0 else {
                    throw UsageError("--timeout needs a positive number of seconds")
                }
                options.timeout = seconds
            case "--help", "-h": options.help = true
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        return options
    }

    /// A command-line mistake, with a message for the user.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        /// What was wrong.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs the command; returns the exit code. Normal output goes to `output`, errors (always a
    /// single line) to `errorOutput`.
    public static func run(
        _ arguments: [String],
        output: (String) -> Void,
        errorOutput: (String) -> Void
    ) -> Int32 {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            errorOutput("news: \(error)\n\n\(usage)")
            return usageError
        }
        if options.help {
            output(usage)
            return success
        }

        let api: API
        // A snapshot shows its own time; a live or local API the time it answered.
        var snapshotTime: Date?
        if let baseURL = options.baseURL {
            guard let url = URL(string: baseURL.hasSuffix("/") ? baseURL : baseURL + "/") else {
                errorOutput("news: '\(baseURL)' is not a URL\n")
                return usageError
            }
            api = API(baseURL: url, session: URLSession(configuration: .ephemeral), maxStories: options.maxStories)
        } else if options.live {
            api = API(session: URLSession(configuration: .ephemeral), maxStories: options.maxStories)
        } else if let path = options.snapshotDirectory {
            let directory = URL(fileURLWithPath: path)
            guard FileManager.default.fileExists(atPath: directory.path) else {
                errorOutput("news: no snapshot at \(directory.path)\n")
                return usageError
            }
            // A host of its own, so this directory never answers for the bundled snapshot.
            let host = "snapshot-\(UUID().uuidString.lowercased()).invalid"
            api = API(
                baseURL: URL(string: "https://\(host)/v0/")!,
                session: BundledSnapshot.session(directory: directory, host: host),
                maxStories: options.maxStories
            )
            snapshotTime = BundledSnapshot.time(of: directory)
        } else {
            api = API(session: BundledSnapshot.session(), maxStories: options.maxStories)
            snapshotTime = BundledSnapshot.time()
        }
        return run(api: api, options: options, snapshotTime: snapshotTime, output: output, errorOutput: errorOutput)
    }

    /// Loads from `api` with `options` and prints the result; returns the exit code. With
    /// `snapshotTime`, the API is a snapshot of that time, and the header says so instead of
    /// the time the list was loaded.
    public static func run(
        api: API,
        options: Options,
        snapshotTime: Date? = nil,
        output: (String) -> Void,
        errorOutput: (String) -> Void
    ) -> Int32 {
        let queue = DispatchQueue(label: "news.reader")
        let done = DispatchSemaphore(value: 0)
        let model = ReaderViewModel(api: api, scheduler: queue, refresh: Empty().eraseToAnyPublisher())
        queue.sync {
            model.filter = options.keywords
            model.fetchStories { done.signal() }
        }
        guard done.wait(timeout: .now() + options.timeout) == .success else {
            errorOutput("news: the API did not answer within \(Int(options.timeout)) seconds.\n")
            return failure
        }
        let (error, stories, updated) = queue.sync { (model.error, model.stories, model.currentDate) }
        if let error {
            errorOutput("news: \(error.errorDescription ?? "\(error)")\n")
            return failure
        }
        let freshness: StoryListRenderer.Freshness = snapshotTime.map { .snapshot($0) } ?? .updated(updated)
        output(StoryListRenderer.render(stories, keywords: options.keywords, freshness: freshness))
        return success
    }
}

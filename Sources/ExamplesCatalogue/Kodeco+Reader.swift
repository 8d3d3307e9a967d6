import Combine
import Foundation
import NewsKit

// Kodeco ch. 15 "In Practice: SwiftUI & Combine": the model half of the News app (NewsKit's
// `ReaderViewModel`), without the SwiftUI views. What a view would show is printed instead.

/// The settings model of the chapter: an `ObservableObject` whose `@Published` keyword list other
/// models can subscribe to. Nothing else is needed for `objectWillChange` to fire.
final class Settings: ObservableObject {
    struct FilterKeyword: Identifiable, Codable {
        var id: String { value }
        var value: String
    }

    @Published var keywords = [FilterKeyword]()

    init() {}
}

/// The challenge's `JSONFile` helper (the starter project ships one; this is ours): Codable
/// values stored as JSON files in a directory.
struct JSONFile {
    let directory: URL

    func loadValue<T: Decodable>(named name: String) throws -> T {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(name).json"))
        return try JSONDecoder().decode(T.self, from: data)
    }

    func save<T: Encodable>(value: T, named name: String) throws {
        let data = try JSONEncoder().encode(value)
        try data.write(to: directory.appendingPathComponent("\(name).json"))
    }
}

/// Challenge 2's settings: the keywords saved whenever they change (a `didSet`), and loaded
/// when the settings are created. (Observers do not run for the assignment in `init`, so
/// loading does not save.)
final class PersistedSettings: ObservableObject {
    private let file: JSONFile

    @Published var keywords = [Settings.FilterKeyword]() {
        didSet { try? file.save(value: keywords, named: "keywords") }
    }

    init(file: JSONFile) {
        self.file = file
        keywords = (try? file.loadValue(named: "keywords")) ?? []
    }
}

extension Catalogue {
    static var kodecoReader: [Example] { [
        Example(
            "reader-fetch-stories",
            title: "ReaderViewModel.fetchStories",
            source: "Kodeco ch. 15, fetching the latest stories",
            book: .differs(
                "The book's console is cut short after 4 with '...'; the bundled snapshot has "
                    + "eight stories with a link among the first ten ids, so the count goes on to 8."
            ),
            timing: .asynchronous,
            operators: ["receive(on:)", "ObservableObject", "Published", "scan"]
        ) { io in
            let api = API(session: BundledSnapshot.session())
            let viewModel = ReaderViewModel(
                api: api, scheduler: DispatchQueue.main, refresh: Empty().eraseToAnyPublisher())
            // The book's debug `didSet { print(allStories.count) }` on `allStories`, which is
            // NewsKit's (private(set)) property: its publisher shows every assignment.
            viewModel.$allStories
                .dropFirst()
                .sink { allStories in io.print(allStories.count) }
                .store(in: &io.subscriptions)
            viewModel.fetchStories { io.finish() }
            io.whenFinished { _ = viewModel }
        },

        Example(
            "reader-clock",
            title: "ReaderViewModel clock",
            source: "Kodeco ch. 15, subscribing to an outside publisher",
            book: .notPrinted,
            duration: 30,
            operators: ["Timer", "autoconnect", "assign(to:)"],
            body: ReaderClock()
        ),

        Example(
            "settings-binding",
            title: "Settings to ReaderViewModel",
            source: "Kodeco ch. 15, initialising the app's settings",
            book: .notPrinted,
            operators: ["ObservableObject", "objectWillChange", "Published", "assign(to:on:)", "map"]
        ) { io in
            let userSettings = Settings()
            let viewModel = ReaderViewModel(
                api: API(session: BundledSnapshot.session()),
                scheduler: ImmediateScheduler.shared,
                refresh: Empty().eraseToAnyPublisher())

            // The chapter's `App.init()`: the settings' keywords drive the reader's filter.
            userSettings.$keywords
                .map { $0.map { $0.value } }
                .assign(to: \.filter, on: viewModel)
                .store(in: &io.subscriptions)

            // What the settings view and the list's header would show.
            userSettings.objectWillChange
                .sink { io.print("settings will change") }
                .store(in: &io.subscriptions)
            viewModel.$filter
                .sink { io.print("Filter: \($0)") }
                .store(in: &io.subscriptions)

            userSettings.keywords.append(Settings.FilterKeyword(value: "swift"))
            userSettings.keywords.append(Settings.FilterKeyword(value: "combine"))
            userSettings.keywords.remove(at: 0)
        },

        Example(
            "settings-persisted",
            title: "persisted settings",
            source: "Kodeco ch. 15, challenge 2: keep the filters between launches",
            book: .notPrinted,
            operators: ["Published", "assign(to:on:)", "ObservableObject"]
        ) { io in
            // Each run starts from an empty directory of its own: the first "launch" has no file.
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("settings-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = JSONFile(directory: directory)

            let firstLaunch = PersistedSettings(file: file)
            io.print("First launch, keywords: \(firstLaunch.keywords.map(\.value))")
            firstLaunch.keywords.append(Settings.FilterKeyword(value: "swift"))
            firstLaunch.keywords.append(Settings.FilterKeyword(value: "combine"))

            let secondLaunch = PersistedSettings(file: file)
            io.print("Second launch, keywords: \(secondLaunch.keywords.map(\.value))")

            let viewModel = ReaderViewModel(
                api: API(session: BundledSnapshot.session()),
                scheduler: ImmediateScheduler.shared,
                refresh: Empty().eraseToAnyPublisher())
            let binding = secondLaunch.$keywords
                .map { $0.map { $0.value } }
                .assign(to: \.filter, on: viewModel)
            io.print("Filter: \(viewModel.filter)")
            binding.cancel()
        },
    ] }
}

/// The list view's clock: `ReaderViewModel.currentDate` kept current by a ten-second timer
/// (`Timer.publish(every: 10, on: .main, in: .common).autoconnect()` in the book), here on the
/// example's scheduler; stopped after three ticks.
struct ReaderClock: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let viewModel = ReaderViewModel(
            api: API(session: BundledSnapshot.session()),
            scheduler: context.scheduler,
            now: io.now(),
            refresh: context.timer(every: .seconds(10)).drawn("timer", on: io) { _ in "t" }.eraseToAnyPublisher())
        var ticks = 0
        viewModel.$currentDate
            .drawn("currentDate", on: io, isOutput: true) { "\(BookDate($0))" }
            .sink { date in
                io.print("Updated: \(BookDate(date))")
                ticks += 1
                if ticks == 4 { io.finish() }
            }
            .store(in: &io.subscriptions)
        io.whenFinished { _ = viewModel }
    }
}

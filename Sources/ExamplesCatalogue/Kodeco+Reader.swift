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

extension Catalogue {
    static var kodecoReader: [Example] { [
        Example(
            "reader-fetch-stories",
            title: "ReaderViewModel.fetchStories",
            source: "Kodeco ch. 15, fetching the latest stories",
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
            duration: 30,
            operators: ["Timer", "autoconnect", "assign(to:)"],
            body: ReaderClock()
        ),

        Example(
            "settings-binding",
            title: "Settings to ReaderViewModel",
            source: "Kodeco ch. 15, initialising the app's settings",
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
            refresh: context.timer(every: .seconds(10)))
        var ticks = 0
        viewModel.$currentDate
            .sink { date in
                io.print("Updated: \(BookDate(date))")
                ticks += 1
                if ticks == 4 { io.finish() }
            }
            .store(in: &io.subscriptions)
        io.whenFinished { _ = viewModel }
    }
}

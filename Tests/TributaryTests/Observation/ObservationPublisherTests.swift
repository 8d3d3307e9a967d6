import Combine
import CombineTesting
import Foundation
import Observation
import TestSupport
import Testing
import Tributary

@Observable
final class SearchModel {
    var query = ""
    var page = 0
    var first = "Ada"
    var last = "Lovelace"
    /// Reads two tracked properties: a publisher of it is a publisher of both.
    var fullName: String { "\(first) \(last)" }
    /// Counts the reads of `countedQuery`, outside the tracking.
    @ObservationIgnored var reads = 0
    var countedQuery: String {
        reads += 1
        return query
    }
}

@Observable
final class Settings {
    var theme = "light"
}

@Observable
final class Screen {
    var settings = Settings()
}

/// A model that subscribes to its own property and keeps the cancellable: the shape that makes
/// a retain cycle when the subscription holds the model strongly.
@Observable
final class SelfObservingModel {
    var query = ""
    @ObservationIgnored var echoed: [String] = []
    @ObservationIgnored var cancellables = Set<AnyCancellable>()

    init(scheduler: TestScheduler) {
        publisher(for: \.query, on: scheduler)
            .sink { [weak self] in self?.echoed.append($0) }
            .store(in: &cancellables)
    }
}

/// A model isolated to the main actor, as SwiftUI models usually are: its key paths carry no
/// isolation, so it can be published (this file builds in the Swift 6 language mode).
@MainActor
@Observable
final class MainActorTitleModel {
    var title = "Untitled"
}

final class PublishedSearchModel: ObservableObject {
    @Published var query = ""
}

@Suite("ObservationPublisher")
struct ObservationPublisherTests {
    // MARK: Values

    @Test func sendsTheCurrentValueOnSubscription() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        model.query = "swift"
        let recorder = scheduler.record(model.publisher(for: \.query, on: scheduler))
        #expect(recorder.events == [.subscription, .value("swift")])
    }

    @Test func sendsTheValueAfterEachChangeWhenTheSchedulerRuns() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(model.publisher(for: \.query, on: scheduler))
        model.query = "s"
        #expect(recorder.values == [""], "read on the scheduler, not inside the change")
        scheduler.advance()
        #expect(recorder.values == ["", "s"])
        model.query = "sw"
        scheduler.advance()
        model.query = "swi"
        scheduler.advance()
        #expect(recorder.values == ["", "s", "sw", "swi"])
        #expect(recorder.completion == nil)
    }

    /// `didSet` semantics: when a value arrives, the property already holds it. `@Published`
    /// sends from `willSet`, while the property still holds the old value.
    @Test func theModelAlreadyHoldsTheValueSentUnlikePublished() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        var seenByObservation: [(sent: String, held: String)] = []
        let observing = model.publisher(for: \.query, on: scheduler)
            .sink { seenByObservation.append(($0, model.query)) }
        model.query = "swift"
        scheduler.advance()
        #expect(seenByObservation.map(\.sent) == ["", "swift"])
        #expect(seenByObservation.map(\.held) == ["", "swift"])

        let published = PublishedSearchModel()
        var seenByPublished: [(sent: String, held: String)] = []
        let publishing = published.$query.sink { seenByPublished.append(($0, published.query)) }
        published.query = "swift"
        #expect(seenByPublished.map(\.sent) == ["", "swift"])
        #expect(seenByPublished.map(\.held) == ["", ""])
        observing.cancel()
        publishing.cancel()
    }

    @Test func assignmentsInOneTurnOfTheSchedulerAreOneValue() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(model.publisher(for: \.query, on: scheduler))
        model.query = "s"
        model.query = "sw"
        model.query = "swi"
        scheduler.advance()
        #expect(recorder.values == ["", "swi"])
    }

    /// A computed property reads two tracked properties; changing both in one turn gives one
    /// value, with both changes in it.
    @Test func twoTrackedPropertiesChangedTogetherAreOneValue() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(model.publisher(for: \.fullName, on: scheduler))
        model.first = "Grace"
        model.last = "Hopper"
        scheduler.advance()
        model.last = "Brewster"
        scheduler.advance()
        #expect(recorder.values == ["Ada Lovelace", "Grace Hopper", "Grace Brewster"])
    }

    /// The same transaction through the toolchain's `Observations` and through the publisher on
    /// the main queue: both see the two changes made in one stretch of the main actor as one.
    @MainActor
    @Test(.tags(.concurrency)) func coalescesLikeObservationsOnTheMainActor() async {
        let model = SearchModel()
        let observations = Observations { model.fullName }
        var iterator = observations.makeAsyncIterator()
        #expect(await iterator.next() == "Ada Lovelace")

        let received = Locked<[String]>([])
        let cancellable = model.publisher(for: \.fullName, on: DispatchQueue.main)
            .sink { value in received.withLock { $0.append(value) } }

        model.first = "Grace"
        model.last = "Hopper"
        #expect(await iterator.next() == "Grace Hopper")
        let bothArrived: @Sendable () -> Bool = { received.current.count == 2 }
        #expect(await eventually(bothArrived))
        #expect(received.current == ["Ada Lovelace", "Grace Hopper"])
        cancellable.cancel()
    }

    @MainActor
    @Test(.tags(.concurrency)) func aMainActorModelIsReadOnTheMainQueue() async {
        let model = MainActorTitleModel()
        let received = Locked<[String]>([])
        let onMainQueue = Locked<[Bool]>([])
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        let cancellable = model.publisher(for: \.title, on: DispatchQueue.main).sink { title in
            received.withLock { $0.append(title) }
            onMainQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) }
        }
        model.title = "Draft"
        model.title = "Final"
        let arrived: @Sendable () -> Bool = { received.current.count == 2 }
        #expect(await eventually(arrived))
        #expect(received.current == ["Untitled", "Final"])
        #expect(onMainQueue.current == [true, true], "the main actor runs on the main queue here")
        cancellable.cancel()
    }

    @Test func aChangeOfAnyPropertyAlongTheKeyPathIsSeen() {
        let scheduler = TestScheduler()
        let screen = Screen()
        let recorder = scheduler.record(screen.publisher(for: \.settings.theme, on: scheduler))
        screen.settings.theme = "dark"
        scheduler.advance()
        let replacement = Settings()
        replacement.theme = "sepia"
        screen.settings = replacement
        scheduler.advance()
        replacement.theme = "contrast"
        scheduler.advance()
        #expect(recorder.values == ["light", "dark", "sepia", "contrast"])
    }

    /// An `Equatable` property assigned its own value notifies no observer; `@Published` sends
    /// every assignment.
    @Test func assigningAnEqualValueSendsNothing() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(model.publisher(for: \.query, on: scheduler))
        model.query = ""
        scheduler.advance()
        #expect(recorder.values == [""])

        let published = PublishedSearchModel()
        var sent: [String] = []
        let cancellable = published.$query.sink { sent.append($0) }
        published.query = ""
        #expect(sent == ["", ""])
        cancellable.cancel()
    }

    /// A value set back to what was last sent, in one turn, is still sent: the publisher does not
    /// compare values (`removeDuplicates()` does), and neither does `Observations`.
    @Test func aChangeAndItsUndoInOneTurnSendTheSameValueAgain() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(model.publisher(for: \.query, on: scheduler))
        model.query = "typo"
        model.query = ""
        scheduler.advance()
        #expect(recorder.values == ["", ""])
    }

    /// A subscriber that changes the property from `receive(_:)` gets the new value on the next
    /// turn of the scheduler, not re-entrantly.
    @Test func aChangeMadeByTheSubscriberComesOnTheNextTurn() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        var received: [String] = []
        let cancellable = model.publisher(for: \.query, on: scheduler).sink { value in
            received.append(value)
            if value.count > 3 { model.query = String(value.prefix(3)) }
        }
        model.query = "swift"
        scheduler.advance(by: 0)
        #expect(received == ["", "swift", "swi"])
        cancellable.cancel()
    }

    @Test(.tags(.concurrency)) func valuesArriveOnTheSchedulersThread() async {
        let queue = DispatchQueue(label: "ObservationPublisherTests.values")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let model = SearchModel()
        let onQueue = Locked<[Bool]>([])
        let cancellable = model.publisher(for: \.query, on: queue)
            .sink { _ in onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) } }
        queue.sync { model.query = "a" }
        #expect(await eventually { onQueue.current.count == 2 })
        #expect(onQueue.current == [false, true], "the first value on the subscribing thread, the next on the queue")
        cancellable.cancel()
    }

    @Test func describesItselfByItsName() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let subscriber = TrackingSubscriber<String, Never>()
        model.publisher(for: \.query, on: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ObservationPublisher"), .value("")])
    }

    // MARK: Demand

    @Test func withoutDemandNothingIsReadAndOnlyTheLatestValueIsKept() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(model.publisher(for: \.countedQuery, on: scheduler), initialDemand: .none)
        #expect(model.reads == 1, "the first read, on subscription")
        for text in ["s", "sw", "swi"] {
            model.query = text
            scheduler.advance()
        }
        #expect(model.reads == 1, "a change without demand only marks the value out of date")
        #expect(recorder.values == [])

        recorder.request(.max(1))
        #expect(recorder.values == [], "the value held was out of date: a read is asked for")
        scheduler.advance()
        #expect(recorder.values == ["swi"])
        #expect(model.reads == 2)
    }

    @Test func theFirstValueWaitsForDemand() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        model.query = "kept"
        let recorder = scheduler.record(model.publisher(for: \.query, on: scheduler), initialDemand: .none)
        #expect(recorder.values == [])
        recorder.request(.max(1))
        #expect(recorder.values == ["kept"], "delivered from request, without waiting for the scheduler")
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(
            model.publisher(for: \.page, on: scheduler), initialDemand: .max(1), demandPerValue: .none)
        model.page = 1
        scheduler.advance()
        #expect(recorder.values == [0])
        recorder.request(.max(1))
        scheduler.advance()
        #expect(recorder.values == [0, 1])

        let stepping = scheduler.record(
            model.publisher(for: \.page, on: scheduler), initialDemand: .max(1), demandPerValue: .max(1))
        for page in 2...4 {
            model.page = page
            scheduler.advance()
        }
        #expect(stepping.values == [1, 2, 3, 4])
    }

    // MARK: Virtual time

    @Test func aDebouncedQueryOnVirtualTime() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(
            model.publisher(for: \.query, on: scheduler)
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .removeDuplicates())
        let typing: [(milliseconds: Int, text: String)] = [
            (500, "s"), (600, "sw"), (700, "swi"), (1_500, "swif"), (1_600, "swift"), (2_500, "swift"),
        ]
        for (milliseconds, text) in typing {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(milliseconds))) { model.query = text }
        }
        scheduler.advance(by: .seconds(3))
        let milliseconds = { (ms: Int) in TestScheduler.SchedulerTimeType(ticks: ms * 1_000_000) }
        #expect(recorder.timedEvents == [
            .init(time: 0, .subscription),
            .init(time: milliseconds(300), .value("")),
            .init(time: milliseconds(1_000), .value("swi")),
            .init(time: milliseconds(1_900), .value("swift")),
        ])
    }

    @Test func aSearchFieldWithCombineLatestOnVirtualTime() {
        // The query debounced and combined with the page: once both have a value, a new page
        // goes through at once and a new query after a pause.
        let scheduler = TestScheduler()
        let model = SearchModel()
        let recorder = scheduler.record(
            model.publisher(for: \.query, on: scheduler)
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .combineLatest(model.publisher(for: \.page, on: scheduler))
                .map { "\($0)#\($1)" })
        let script: [(milliseconds: Int, change: () -> Void)] = [
            (100, { model.query = "swift" }), (200, { model.page = 2 }), (600, { model.page = 3 }),
            (700, { model.query = "swiftui" }),
        ]
        for (milliseconds, change) in script {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(milliseconds)), change)
        }
        scheduler.advance(by: .seconds(2))
        let milliseconds = { (ms: Int) in TestScheduler.SchedulerTimeType(ticks: ms * 1_000_000) }
        #expect(recorder.timedEvents == [
            .init(time: 0, .subscription),
            .init(time: milliseconds(400), .value("swift#2")),
            .init(time: milliseconds(600), .value("swift#3")),
            .init(time: milliseconds(1_000), .value("swiftui#3")),
        ])
    }

    // MARK: Lifetime

    @Test func cancellingStopsTheReadsAndReleasesWhatWasHandedIn() {
        let model = SearchModel()
        let weakSubscriber = WeakReference()
        let weakScheduler = WeakReference()
        do {
            let scheduler = TestScheduler()
            weakScheduler.object = scheduler
            let subscriber = TrackingSubscriber<String, Never>()
            weakSubscriber.object = subscriber
            model.publisher(for: \.countedQuery, on: scheduler).subscribe(subscriber)
            model.query = "s"
            subscriber.cancel()
            scheduler.advance()
            #expect(subscriber.values == [""], "the read scheduled before the cancel does nothing")
        }
        // The model has not changed since, so its registrar still holds the last tracking.
        #expect(weakSubscriber.object == nil)
        #expect(weakScheduler.object == nil)
        #expect(model.reads == 1)
        model.query = "sw"  // fires the leftover tracking: nothing happens
        #expect(model.reads == 1)
    }

    @Test func theSubscriptionDoesNotKeepTheModelAlive() {
        let scheduler = TestScheduler()
        let weakModel = WeakReference()
        let subscriber = TrackingSubscriber<String, Never>()
        do {
            let model = SearchModel()
            weakModel.object = model
            model.publisher(for: \.query, on: scheduler).subscribe(subscriber)
            model.query = "last words"
        }
        #expect(weakModel.object == nil)
        scheduler.advance()
        #expect(subscriber.events == [.subscription("ObservationPublisher"), .value(""), .completion(.finished)],
            "the read scheduled by the last change finds the model gone")
    }

    @Test func aModelThatObservesItselfIsReleased() {
        let scheduler = TestScheduler()
        let weakModel = WeakReference()
        do {
            let model = SelfObservingModel(scheduler: scheduler)
            weakModel.object = model
            model.query = "echo"
            scheduler.advance()
            #expect(model.echoed == ["", "echo"])
        }
        #expect(weakModel.object == nil)
    }

    @Test func thePublisherDoesNotKeepTheModelAliveAndFinishesOnceItIsGone() {
        let scheduler = TestScheduler()
        var model: SearchModel? = SearchModel()
        let publisher = model!.publisher(for: \.query, on: scheduler)
        let weakModel = WeakReference(model)
        model = nil
        #expect(weakModel.object == nil)
        #expect(publisher.object == nil)
        let recorder = scheduler.record(publisher)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func aModelReleasedWhileNoReadIsPendingLetsGoOfTheSubscriberOnCancel() {
        let scheduler = TestScheduler()
        let weakSubscriber = WeakReference()
        var cancellable: AnyCancellable?
        do {
            let model = SearchModel()
            let subscriber = TrackingSubscriber<String, Never>()
            weakSubscriber.object = subscriber
            model.publisher(for: \.query, on: scheduler).subscribe(subscriber)
            cancellable = AnyCancellable(subscriber)
        }
        // The framework does not report a model's end to its trackings (Swift 6.3), so the
        // subscription, which has nothing left to do, waits for the cancel like any other.
        #expect(weakSubscriber.object != nil)
        cancellable = nil
        #expect(weakSubscriber.object == nil)
        _ = cancellable
    }

    // MARK: The way back: assign(to:on:)

    @Test func assignOntoAnObservablePropertyIsSeenByItsObservers() {
        let scheduler = TestScheduler()
        let model = SearchModel()
        let input = PassthroughSubject<String, Never>()
        let bridged = scheduler.record(model.publisher(for: \.query, on: scheduler))

        let trackedChanges = Locked(0)
        withObservationTracking { _ = model.query } onChange: { trackedChanges.increment() }

        let assigning = input.assign(to: \.query, on: model)
        input.send("from a pipeline")
        #expect(model.query == "from a pipeline")
        #expect(trackedChanges.current == 1)
        scheduler.advance()
        #expect(bridged.values == ["", "from a pipeline"])
        assigning.cancel()
    }

    // MARK: Misuse

    @Test func aSchedulerThatRunsTheReadInsideTheChangeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let model = SearchModel()
            let cancellable = model.publisher(for: \.query, on: ImmediateScheduler.shared).sink { _ in }
            model.query = "never read correctly"
            cancellable.cancel()
        }
    }

    @Test func requestingNothingStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let model = SearchModel()
            let subscriber = TrackingSubscriber<String, Never>(initialDemand: nil)
            model.publisher(for: \.query, on: ImmediateScheduler.shared).subscribe(subscriber)
            subscriber.request(.none)
        }
    }
}

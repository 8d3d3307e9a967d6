// Code written the way an application developer writes Combine code in Swift 6 language mode,
// with complete strict concurrency checking. The target treats warnings as errors, so if any
// Combine type is missing a `Sendable` conformance that user code relies on, this file stops
// compiling.
//
// Main-queue delivery under `swift test` on Linux: the test runner's entry point is `async`, so
// once it starts, the process's original main thread parks in `dispatch_main()` and the main
// queue (which is also the executor of `@MainActor`) is drained by a Dispatch worker thread. So
// `DispatchQueue.main.async` work does run during tests, and `MainActor.assumeIsolated` holds
// inside it, but `Thread.isMainThread` is `false` there (it compares with the original main
// thread). Nothing has to pump the main queue by hand; a test only has to *await* the
// delivery (never block its own thread waiting for it, which could starve the main actor).

import Combine
import Dispatch
import Foundation
import Testing

@Suite("Swift6UserCode")
struct Swift6UserCodeTests {
    // MARK: Main queue

    @Test func theMainQueueIsDrainedAndIsTheMainActor() async {
        let isolated = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.main.async {
                // Traps if the main queue were not the main actor's executor.
                MainActor.assumeIsolated { continuation.resume(returning: true) }
            }
        }
        #expect(isolated)
    }

    @Test func assumeIsolatedTrapsOffTheMainQueue() async {
        // The positive check above means something only if the negative one traps.
        await #expect(processExitsWith: .failure) {
            DispatchQueue.global().sync {
                MainActor.assumeIsolated {}
            }
        }
    }

    // MARK: receive(on: DispatchQueue.main)

    @MainActor
    @Test func receiveOnMainDeliversOnTheMainActor() async {
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        let received: [Int] = await withCheckedContinuation { continuation in
            var collected: [Int] = []
            cancellable = subject
                .receive(on: DispatchQueue.main)
                .sink(
                    receiveCompletion: { _ in
                        // Inferred @MainActor (formed in a @MainActor function); the scheduler
                        // delivered on the main queue, so this check holds.
                        MainActor.assertIsolated()
                        continuation.resume(returning: collected)
                    },
                    receiveValue: { value in
                        MainActor.assertIsolated()
                        dispatchPrecondition(condition: .onQueue(.main))
                        collected.append(value)
                    })
            // Send from another task, off the main actor.
            Task.detached {
                for value in 1...10 { subject.send(value) }
                subject.send(completion: .finished)
            }
        }
        #expect(received == Array(1...10))
        _ = cancellable
    }

    @MainActor
    @Test func mainActorModelUpdatedThroughReceiveOnMain() async {
        let model = EventLog()
        model.start()
        await Task.detached { [events = model.events] in
            events.send("a")
            events.send("b")
            events.send(completion: .finished)
        }.value
        await model.finished()
        #expect(model.entries == ["a", "b"])
    }

    // MARK: @Published in a @MainActor ObservableObject

    @MainActor
    @Test func publishedPropertiesOfAMainActorModel() async {
        let model = CounterModel()
        var willChange = 0
        var seen: [Int] = []
        let changes = model.objectWillChange.sink { willChange += 1 }
        let counts = model.$count.sink { seen.append($0) }
        model.increment()
        model.increment()
        #expect(seen == [0, 1, 2])
        #expect(willChange == 2)
        changes.cancel()
        counts.cancel()
    }

    @MainActor
    @Test func publishedFedFromABackgroundSubjectThroughTheMainQueue() async {
        let source = PassthroughSubject<Int, Never>()
        let model = CounterModel(source: source)
        // Observe `$count` from another task, through `values`.
        let observed = model.$count.values
        let observer = Task.detached {
            var seen: [Int] = []
            for await count in observed {
                seen.append(count)
                if count == 3 { break }
            }
            return seen
        }
        try? await Task.sleep(nanoseconds: 5_000_000)
        await Task.detached {
            for value in 1...3 {
                source.send(value)
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
        }.value
        // `values` asks for one value at a time and `@Published` drops what nobody asked for, so
        // under load the observer may miss a value; a watchdog ends the loop instead of a hang.
        let watchdog = Task.detached {
            try? await Task.sleep(nanoseconds: 2_000_000_000)
            observer.cancel()
        }
        let seen = await observer.value
        watchdog.cancel()
        #expect(seen.first == 0)
        #expect(seen == seen.sorted())
        #expect(model.count == 3)
    }

    @MainActor
    @Test func mainActorTaskIteratesPublishedValues() async {
        let model = CounterModel()
        let consumer = Task { @MainActor in
            var seen: [Int] = []
            for await count in model.$count.values {
                seen.append(count)
                if count >= 2 { break }
            }
            return seen
        }
        try? await Task.sleep(nanoseconds: 5_000_000)
        model.increment()
        try? await Task.sleep(nanoseconds: 5_000_000)
        model.increment()
        let watchdog = Task.detached {
            try? await Task.sleep(nanoseconds: 2_000_000_000)
            consumer.cancel()
        }
        let seen = await consumer.value
        watchdog.cancel()
        #expect(seen.first == 0)
        #expect(seen == seen.sorted())
    }

    // MARK: values across tasks

    @Test func valuesConsumedInAnotherTask() async {
        let subject = PassthroughSubject<Int, Never>()
        let consumer = Task {
            var received: [Int] = []
            for await value in subject.values { received.append(value) }
            return received
        }
        // Values are requested one at a time and the subject drops what is sent while nobody is
        // waiting, so give the consumer a moment between values; the check tolerates drops.
        for value in 1...5 {
            try? await Task.sleep(nanoseconds: 2_000_000)
            subject.send(value)
        }
        subject.send(completion: .finished)
        let received = await consumer.value
        #expect(received == received.sorted())
        #expect(Set(received).isSubset(of: Set(1...5)))
    }

    @MainActor
    @Test func valuesConsumedOnTheMainActor() async throws {
        let failing = PassthroughSubject<String, any Error>()
        let producer = Task.detached {
            try? await Task.sleep(nanoseconds: 10_000_000)
            failing.send(completion: .failure(CancellationError()))
        }
        await #expect(throws: CancellationError.self) {
            for try await _ in failing.values {}
        }
        await producer.value
    }

    @Test func cancellablesAndCompletionsCrossActors() async {
        let store = CancellableStore()
        let subject = PassthroughSubject<Int, Never>()
        await store.keep(subject.sink { _ in })
        #expect(await store.count == 1)
        let completion: Subscribers.Completion<Never> = .finished
        let demand: Subscribers.Demand = .max(1)
        await store.record(completion, demand)
        await store.cancelAll()
        #expect(await store.count == 0)
    }

    @Test func operatorChainsOfSendableStagesCrossTasks() async {
        let pipeline = [1, 2].publisher
            .merge(with: [3].publisher)
            .receive(on: DispatchQueue.global())
            .collect()
        let collected = await Task.detached {
            var result: [Int] = []
            for await all in pipeline.values { result = all }
            return result
        }.value
        #expect(collected.sorted() == [1, 2, 3])
    }

    @Test func sendableValuePublishersCrossTasks() async {
        let just = Just(1)
        let sequence = [1, 2, 3].publisher
        let total = await Task.detached {
            var sum = 0
            for await value in just.values { sum += value }
            for await value in sequence.values { sum += value }
            return sum
        }.value
        #expect(total == 7)
    }
}

// MARK: - User types

/// A main-actor model fed by a subject from any thread, delivered on the main queue.
@MainActor
final class EventLog {
    nonisolated let events = PassthroughSubject<String, Never>()
    private(set) var entries: [String] = []
    private var done = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var cancellables = Set<AnyCancellable>()

    func start() {
        events
            .receive(on: DispatchQueue.main)
            .sink { [weak self] _ in
                self?.done = true
                self?.waiters.forEach { $0.resume() }
                self?.waiters = []
            } receiveValue: { [weak self] entry in
                self?.entries.append(entry)
            }
            .store(in: &cancellables)
    }

    func finished() async {
        if done { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// An actor that owns cancellables handed to it from outside.
actor CancellableStore {
    private var cancellables: [AnyCancellable] = []
    private var completions: [Subscribers.Completion<Never>] = []

    func keep(_ cancellable: AnyCancellable) { cancellables.append(cancellable) }
    func record(_ completion: Subscribers.Completion<Never>, _ demand: Subscribers.Demand) {
        completions.append(completion)
        _ = demand
    }
    func cancelAll() {
        cancellables.forEach { $0.cancel() }
        cancellables.removeAll()
    }
    var count: Int { cancellables.count }
}

/// The typical Swift 6 view model: main-actor isolated, observable, fed from elsewhere.
@MainActor
final class CounterModel: ObservableObject {
    @Published private(set) var count = 0

    init() {}

    /// Mirrors `source` into `count`, delivered on the main queue whatever thread sends.
    init(source: PassthroughSubject<Int, Never>) {
        source
            .receive(on: DispatchQueue.main)
            .assign(to: &$count)
    }

    func increment() { count += 1 }
}

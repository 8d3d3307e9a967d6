import Combine
import Foundation
import TestSupport
import Testing

/// One table over the publishers and operators: after the subscriber cancels, after the upstream
/// finishes and after it fails, every object the pipeline made or captured is released while the
/// subscriber itself is still alive (its subscription released), checked with weak references to
/// the source subjects and to a token captured by the operator's closures.
@Suite("Leak audit")
struct LeakAuditTests {
    typealias Source = PassthroughSubject<Int, StressError>
    typealias Pipe = AnyPublisher<Int, StressError>

    struct Entry: CustomTestStringConvertible, Sendable {
        let name: String
        /// Whether the failure scenario applies (`assertNoFailure` traps instead).
        var canFail = true
        /// A scheduler the pipeline uses, drained before the check.
        var queue: DispatchQueue? = nil
        let build: @Sendable (_ a: Source, _ b: Source, _ token: CaptureToken, _ queue: DispatchQueue) -> Pipe
        var testDescription: String { name }
    }

    /// A subscriber that keeps its subscription until it cancels or completes, and then drops it.
    final class Holder: Subscriber, @unchecked Sendable {
        let lock = NSLock()
        var subscription: (any Subscription)?
        func receive(subscription: any Subscription) {
            lock.withLock { self.subscription = subscription }
            subscription.request(.unlimited)
        }
        func receive(_ input: Int) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<StressError>) { lock.withLock { subscription = nil } }
        func cancel() {
            lock.lock()
            let current = subscription
            subscription = nil
            lock.unlock()
            current?.cancel()
        }
    }

    static let entries: [Entry] = [
        Entry(name: "map") { a, _, t, _ in a.map { _ = t; return $0 }.eraseToAnyPublisher() },
        Entry(name: "tryMap") { a, _, t, _ in a.tryMap { _ = t; return $0 }.mapError { _ in StressError() }.eraseToAnyPublisher() },
        Entry(name: "filter") { a, _, t, _ in a.filter { _ = t; return $0 > 0 }.eraseToAnyPublisher() },
        Entry(name: "tryFilter") { a, _, t, _ in a.tryFilter { _ = t; return $0 > 0 }.mapError { _ in StressError() }.eraseToAnyPublisher() },
        Entry(name: "compactMap") { a, _, t, _ in a.compactMap { _ = t; return $0 }.eraseToAnyPublisher() },
        Entry(name: "scan") { a, _, t, _ in a.scan(0) { _ = t; return $0 + $1 }.eraseToAnyPublisher() },
        Entry(name: "reduce") { a, _, t, _ in a.reduce(0) { _ = t; return $0 + $1 }.eraseToAnyPublisher() },
        Entry(name: "removeDuplicates") { a, _, t, _ in a.removeDuplicates { _ = t; return $0 == $1 }.eraseToAnyPublisher() },
        Entry(name: "prefix(while:)") { a, _, t, _ in a.prefix { _ = t; return $0 < 100 }.eraseToAnyPublisher() },
        Entry(name: "drop(while:)") { a, _, t, _ in a.drop { _ = t; return $0 < 0 }.eraseToAnyPublisher() },
        Entry(name: "first(where:)") { a, _, t, _ in a.first { _ = t; return $0 > 100 }.eraseToAnyPublisher() },
        Entry(name: "last(where:)") { a, _, t, _ in a.last { _ = t; return $0 > 0 }.eraseToAnyPublisher() },
        Entry(name: "contains(where:)") { a, _, t, _ in a.contains { _ = t; return $0 > 100 }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() },
        Entry(name: "allSatisfy") { a, _, t, _ in a.allSatisfy { _ = t; return $0 >= 0 }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() },
        Entry(name: "min(by:)") { a, _, t, _ in a.min { _ = t; return $0 < $1 }.eraseToAnyPublisher() },
        Entry(name: "dropFirst, prefix, output") { a, _, _, _ in a.dropFirst(1).prefix(10).output(in: 0..<5).eraseToAnyPublisher() },
        Entry(name: "collect") { a, _, _, _ in a.collect().map(\.count).eraseToAnyPublisher() },
        Entry(name: "collect(n)") { a, _, _, _ in a.collect(2).map(\.count).eraseToAnyPublisher() },
        Entry(name: "count, ignoreOutput") { a, _, _, _ in a.count().ignoreOutput().map(absurd).eraseToAnyPublisher() },
        Entry(name: "handleEvents") { a, _, t, _ in
            a.handleEvents(receiveSubscription: { _ in _ = t }, receiveOutput: { _ in _ = t }, receiveCompletion: { _ in _ = t },
                           receiveCancel: { _ = t }, receiveRequest: { _ in _ = t }).eraseToAnyPublisher()
        },
        Entry(name: "print") { a, _, _, _ in a.print("leak", to: NullStream()).eraseToAnyPublisher() },
        Entry(name: "breakpoint") { a, _, t, _ in a.breakpoint(receiveOutput: { _ in _ = t; return false }).eraseToAnyPublisher() },
        Entry(name: "mapError") { a, _, t, _ in a.mapError { _ = t; return $0 }.eraseToAnyPublisher() },
        Entry(name: "replaceError, setFailureType") { a, _, _, _ in a.replaceError(with: 0).setFailureType(to: StressError.self).eraseToAnyPublisher() },
        Entry(name: "replaceEmpty") { a, _, _, _ in a.replaceEmpty(with: 0).eraseToAnyPublisher() },
        Entry(name: "assertNoFailure", canFail: false) { a, _, _, _ in
            a.assertNoFailure().setFailureType(to: StressError.self).eraseToAnyPublisher()
        },
        Entry(name: "catch") { a, b, t, _ in a.catch { _ in _ = t; return b }.eraseToAnyPublisher() },
        Entry(name: "tryCatch") { a, b, t, _ in a.tryCatch { _ in _ = t; return b }.mapError { _ in StressError() }.eraseToAnyPublisher() },
        Entry(name: "retry") { a, _, _, _ in a.retry(1).eraseToAnyPublisher() },
        Entry(name: "flatMap") { a, b, t, _ in a.flatMap { _ in _ = t; return b }.eraseToAnyPublisher() },
        Entry(name: "switchToLatest") { a, b, t, _ in a.map { _ in _ = t; return b }.switchToLatest().eraseToAnyPublisher() },
        Entry(name: "merge") { a, b, _, _ in a.merge(with: b).eraseToAnyPublisher() },
        Entry(name: "combineLatest") { a, b, t, _ in a.combineLatest(b) { _ = t; return $0 + $1 }.eraseToAnyPublisher() },
        Entry(name: "zip") { a, b, t, _ in a.zip(b) { _ = t; return $0 + $1 }.eraseToAnyPublisher() },
        Entry(name: "append, prepend") { a, _, _, _ in a.prepend(1).append(2).eraseToAnyPublisher() },
        // A trigger that has fired keeps its subscription until it completes (Apple does not
        // cancel it), so here the trigger never fires and the audit checks the other paths.
        Entry(name: "prefix(untilOutputFrom:)") { a, b, _, _ in a.prefix(untilOutputFrom: b.filter { $0 > 100 }).eraseToAnyPublisher() },
        Entry(name: "drop(untilOutputFrom:)") { a, b, _, _ in a.drop(untilOutputFrom: b).eraseToAnyPublisher() },
        Entry(name: "share") { a, _, _, _ in a.share().eraseToAnyPublisher() },
        Entry(name: "multicast autoconnect") { a, _, t, _ in
            a.multicast { _ = t; return PassthroughSubject<Int, StressError>() }.autoconnect().eraseToAnyPublisher()
        },
        Entry(name: "buffer") { a, _, _, _ in a.buffer(size: 4, prefetch: .keepFull, whenFull: .dropOldest).eraseToAnyPublisher() },
        Entry(name: "AnyPublisher of Deferred") { a, _, t, _ in Deferred { _ = t; return a }.eraseToAnyPublisher() },
        Entry(name: "Future in flatMap") { a, _, t, _ in
            a.flatMap { v in Future<Int, StressError> { promise in _ = t; promise(.success(v)) } }.eraseToAnyPublisher()
        },
        Entry(name: "receive(on:)", queue: .init(label: "leak")) { a, _, _, q in a.receive(on: q).eraseToAnyPublisher() },
        Entry(name: "subscribe(on:)", queue: .init(label: "leak")) { a, _, _, q in a.subscribe(on: q).eraseToAnyPublisher() },
        Entry(name: "debounce", queue: .init(label: "leak")) { a, _, _, q in a.debounce(for: .milliseconds(1), scheduler: q).eraseToAnyPublisher() },
        Entry(name: "throttle", queue: .init(label: "leak")) { a, _, _, q in a.throttle(for: .milliseconds(1), scheduler: q, latest: true).eraseToAnyPublisher() },
        Entry(name: "delay", queue: .init(label: "leak")) { a, _, _, q in a.delay(for: .milliseconds(1), scheduler: q).eraseToAnyPublisher() },
        Entry(name: "timeout", queue: .init(label: "leak")) { a, _, _, q in a.timeout(.seconds(30), scheduler: q).eraseToAnyPublisher() },
        Entry(name: "measureInterval", queue: .init(label: "leak")) { a, _, _, q in a.measureInterval(using: q).map { _ in 0 }.eraseToAnyPublisher() },
        Entry(name: "collect(byTime:)", queue: .init(label: "leak")) { a, _, _, q in
            a.collect(.byTimeOrCount(q, .seconds(30), 3)).map(\.count).eraseToAnyPublisher()
        },
    ]

    enum Ending: String, CaseIterable, Sendable { case cancel, finish, fail }

    /// Sends three values through both sources, then ends the stream the way `ending` says
    /// (`cancel` is the subscriber's cancel), draining `queue` after each step.
    static func sendValuesThenEnd(
        _ a: Source, _ b: Source, _ ending: Ending, _ queue: DispatchQueue, cancel: () -> Void
    ) {
        a.send(1)
        b.send(2)
        a.send(3)
        queue.sync {}
        switch ending {
        case .cancel:
            cancel()
        case .finish:
            a.send(completion: .finished)
            b.send(completion: .finished)
        case .fail:
            a.send(completion: .failure(StressError()))
            b.send(completion: .failure(StressError()))
        }
        queue.sync {}
    }

    @Test(arguments: entries, Ending.allCases)
    func releasesEverything(_ entry: Entry, _ ending: Ending) {
        if ending == .fail && !entry.canFail { return }
        let queue = entry.queue ?? DispatchQueue(label: "unused")
        let holder = Holder()
        weak var weakA: Source?
        weak var weakB: Source?
        weak var weakToken: CaptureToken?
        do {
            let a = Source(), b = Source(), token = CaptureToken()
            weakA = a; weakB = b; weakToken = token
            let pipe = entry.build(a, b, token, queue)
            pipe.subscribe(holder)
            queue.sync {}
            Self.sendValuesThenEnd(a, b, ending, queue, cancel: holder.cancel)
            if ending != .cancel {
                // Time-based operators may finish on their scheduler.
                _ = Stress.eventually("completion of \(entry.name)") { holder.lock.withLock { holder.subscription == nil } }
            }
        }
        queue.sync {}
        // Anything a scheduler still holds (a cancelled timer's block) is released once it ran.
        let end = Date().addingTimeInterval(entry.queue == nil ? 0 : 2)
        while (weakA != nil || weakB != nil || weakToken != nil) && Date() < end { usleep(1_000); queue.sync {} }
        #expect(weakA == nil, "\(entry.name) after \(ending): first source leaked")
        #expect(weakB == nil, "\(entry.name) after \(ending): second source leaked")
        #expect(weakToken == nil, "\(entry.name) after \(ending): closure captures leaked")
        withExtendedLifetime(holder) {}
    }

    /// The same table through a real `sink` whose closures capture a token of their own, and
    /// through `assign(to:on:)`: once the stream has ended (finished, failed, or cancelled through
    /// the cancellable), nothing the user handed in is kept, although the cancellable is still
    /// held, as it is in a view model's `Set<AnyCancellable>`.
    @Test(arguments: entries, Ending.allCases)
    func sinkAndAssignKeepNothingOnceTheStreamHasEnded(_ entry: Entry, _ ending: Ending) {
        if ending == .fail && !entry.canFail { return }
        let queue = entry.queue ?? DispatchQueue(label: "unused")
        weak var weakToken: CaptureToken?
        weak var weakSinkToken: CaptureToken?
        weak var weakTarget: Target?
        var cancellables: [AnyCancellable] = []
        do {
            let a = Source(), b = Source(), token = CaptureToken(), sinkToken = CaptureToken(), target = Target()
            weakToken = token; weakSinkToken = sinkToken; weakTarget = target
            let pipe = entry.build(a, b, token, queue)
            cancellables.append(pipe.sink(receiveCompletion: { _ in _ = sinkToken }, receiveValue: { _ in _ = sinkToken }))
            cancellables.append(pipe.replaceError(with: 0).assign(to: \.value, on: target))
            queue.sync {}
            Self.sendValuesThenEnd(a, b, ending, queue) { cancellables.forEach { $0.cancel() } }
        }
        let end = Date().addingTimeInterval(entry.queue == nil ? 0 : 2)
        while (weakToken != nil || weakSinkToken != nil || weakTarget != nil) && Date() < end { usleep(1_000); queue.sync {} }
        #expect(weakSinkToken == nil, "\(entry.name) after \(ending): the sink kept its closures")
        #expect(weakTarget == nil, "\(entry.name) after \(ending): assign(to:on:) kept its object")
        #expect(weakToken == nil, "\(entry.name) after \(ending): an operator kept the closures it was given")
        withExtendedLifetime(cancellables) {}
    }

    final class Target: @unchecked Sendable {
        var value = 0
        @Published var published = 0
    }

    @Test func assignOnKeepsItsObjectUntilCancel() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        subject.send(3)
        #expect(weakTarget?.value == 3, "assign(to:on:) holds its object strongly (Apple's documented behaviour)")
        cancellable?.cancel()
        #expect(weakTarget == nil)
        _ = cancellable
    }

    @Test func assignOnReleasesItsObjectOnCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        #expect(weakTarget != nil)
        subject.send(completion: .finished)
        #expect(weakTarget == nil)
        _ = cancellable
    }

    @Test func assignToPublishedDoesNotKeepItsObject() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        do {
            let target = Target()
            weakTarget = target
            subject.assign(to: &target.$published)
            subject.send(4)
            #expect(target.published == 4)
        }
        #expect(weakTarget == nil)
        subject.send(5)
    }

    @Test func sinkReleasesItsUpstreamOnCancelAndCompletion() {
        for completes in [false, true] {
            weak var weakSubject: PassthroughSubject<Int, Never>?
            var cancellable: AnyCancellable?
            do {
                let subject = PassthroughSubject<Int, Never>()
                weakSubject = subject
                cancellable = subject.sink { _ in }
                if completes { subject.send(completion: .finished) }
            }
            if !completes { cancellable?.cancel() }
            #expect(weakSubject == nil, "sink kept its upstream after \(completes ? "completion" : "cancel")")
            _ = cancellable
        }
    }
}

/// A `TextOutputStream` that discards everything.
struct NullStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// Turns a `Never` output into any type (for publishers that never emit).
func absurd<T>(_ never: Never) -> T {}

/// The view model of every Combine tutorial keeps its pipelines in its own set of cancellables,
/// with closures that capture `self`. Once a pipeline's stream is over the view model must be
/// freed, although the cancellable is still in its set: Apple's `Sink` and `Assign` let go of
/// what they were given when the stream ends.
@Suite("View models that own their pipelines")
struct ViewModelLifetimeTests {
    struct Failure: Error {}

    final class ViewModel {
        var bag = Set<AnyCancellable>()
        var value = 0
        var failed = false
        var sink: Subscribers.Sink<Int, Never>?
        let subject = PassthroughSubject<Int, Failure>()
    }

    struct Shape: CustomTestStringConvertible, Sendable {
        let name: String
        /// Starts the pipeline, then ends its stream.
        let run: @Sendable (ViewModel) -> Void
        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(name: "Just") { vm in Just(42).sink { vm.value = $0 }.store(in: &vm.bag) },
        Shape(name: "a sequence") { vm in [1, 2, 3].publisher.sink { vm.value = $0 }.store(in: &vm.bag) },
        Shape(name: "Fail") { vm in
            Fail<Int, Failure>(error: Failure())
                .sink(receiveCompletion: { _ in vm.failed = true }, receiveValue: { vm.value = $0 }).store(in: &vm.bag)
        },
        Shape(name: "a subject that finishes") { vm in
            vm.subject.sink(receiveCompletion: { _ in vm.failed = false }, receiveValue: { vm.value = $0 }).store(in: &vm.bag)
            vm.subject.send(1)
            vm.subject.send(completion: .finished)
        },
        Shape(name: "a subject that fails") { vm in
            vm.subject.sink(receiveCompletion: { _ in vm.failed = true }, receiveValue: { vm.value = $0 }).store(in: &vm.bag)
            vm.subject.send(completion: .failure(Failure()))
        },
        Shape(name: "Future") { vm in
            Future<Int, Never> { $0(.success(7)) }.sink { vm.value = $0 }.store(in: &vm.bag)
        },
        Shape(name: "retry + catch") { vm in
            Fail<Int, Failure>(error: Failure()).retry(2).catch { _ in Just(0) }
                .sink { vm.value = $0 }.store(in: &vm.bag)
        },
        Shape(name: "handleEvents") { vm in
            Just(1).handleEvents(receiveOutput: { vm.value = $0 }, receiveCompletion: { _ in vm.failed = false })
                .sink { vm.value = $0 }.store(in: &vm.bag)
        },
        Shape(name: "flatMap") { vm in
            Just(1).flatMap { value in Just(value * 2).map { $0 + vm.value } }.sink { vm.value = $0 }.store(in: &vm.bag)
        },
        Shape(name: "a cancelled sink") { vm in
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.sink { vm.value = $0 }
            cancellable.store(in: &vm.bag)
            subject.send(1)
            cancellable.cancel()
        },
        Shape(name: "assign(to:on: self)") { vm in Just(5).assign(to: \.value, on: vm).store(in: &vm.bag) },
        Shape(name: "a Sink the view model keeps") { vm in
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in vm.failed = false }, receiveValue: { vm.value = $0 })
            vm.sink = sink
            Just(3).subscribe(sink)
        },
        Shape(name: "an erased Result.Publisher, mapped") { vm in
            Result<Int, Failure>.Publisher(.success(4)).map { $0 + 1 }.eraseToAnyPublisher()
                .sink(receiveCompletion: { _ in vm.failed = false }, receiveValue: { vm.value = $0 }).store(in: &vm.bag)
        },
    ]

    @Test(arguments: shapes)
    func theViewModelIsFreedOnceItsStreamHasEnded(_ shape: Shape) {
        weak var weakModel: ViewModel?
        do {
            let model = ViewModel()
            weakModel = model
            shape.run(model)
            #expect(model.bag.count + (model.sink == nil ? 0 : 1) == 1, "the cancellable is still held")
        }
        #expect(weakModel == nil, "\(shape.name): the view model was kept alive by its own finished pipeline")
    }
}

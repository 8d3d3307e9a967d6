import Combine
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Records, as readable lines, the events of the pipelines run on the thread that made it.
///
/// Handlers are process-wide and other suites run in parallel, so events from other threads are
/// ignored. A synchronous test holds its thread until it returns, and the pipelines below deliver
/// synchronously on the subscribing thread, so only that thread ever touches `lines`.
private final class Recorder: _Introspection, @unchecked Sendable {
    let thread = pthread_self()
    var lines: [String] = []

    private func record(_ line: @autoclosure () -> String) {
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
        lines.append(line())
    }

    func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {
        record("will attach \(P.self) -> \(subscriber)")
    }

    func didReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {
        record("did attach \(P.self) -> \(subscriber)")
    }

    func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
        record("will subscription \(subscriber) <- \(subscription)")
    }

    func didReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
        record("did subscription \(subscriber) <- \(subscription)")
    }

    func willReceive<S: Subscriber>(subscriber: S, input: S.Input) {
        record("will input \(subscriber) \(input)")
    }

    func didReceive<S: Subscriber>(subscriber: S, input: S.Input, resultingDemand: Subscribers.Demand) {
        record("did input \(subscriber) \(input) -> \(resultingDemand)")
    }

    func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
        record("will completion \(subscriber) \(completion)")
    }

    func didReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
        record("did completion \(subscriber) \(completion)")
    }

    func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) {
        record("will request \(subscription) \(demand)")
    }

    func didRequest(subscription: Subscription, _ demand: Subscribers.Demand) {
        record("did request \(subscription) \(demand)")
    }

    func willCancel(subscription: Subscription) {
        record("will cancel \(subscription)")
    }

    func didCancel(subscription: Subscription) {
        record("did cancel \(subscription)")
    }
}

/// Adopts the protocol without implementing anything: the defaults must make it compile.
private final class Silent: _Introspection {}

/// Remembers the subscription it was handed and asks for a fixed number of values.
private final class Keeper: Subscriber, CustomStringConvertible {
    typealias Input = Int
    typealias Failure = Never
    let initial: Subscribers.Demand
    var subscription: Subscription?
    var values: [Int] = []

    init(initial: Subscribers.Demand) { self.initial = initial }

    var description: String { "Keeper" }

    func receive(subscription: Subscription) {
        self.subscription = subscription
        if initial > .none { subscription.request(initial) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

/// Keeps the subscriber attached to it, and hands it a subscription when the test says so.
private final class SubscriberCapture: Publisher {
    typealias Output = Int
    typealias Failure = Never
    private(set) var subscriber: Any?
    private var deliver: ((Subscription) -> Void)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = subscriber
        deliver = { subscriber.receive(subscription: $0) }
    }

    func attach(_ subscription: Subscription) { deliver?(subscription) }
}

/// A subscription that records its requests and describes itself as `Stub`.
private final class RecordingSubscriptionStub: Subscription, CustomStringConvertible {
    var requests: [Subscribers.Demand] = []
    var description: String { "Stub" }
    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() {}
}

/// A custom publisher that subscribes the subscriber it is given to another publisher.
private struct Passing<Inner: Publisher>: Publisher {
    typealias Output = Inner.Output
    typealias Failure = Inner.Failure
    let inner: Inner
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        inner.subscribe(subscriber)
    }
}

/// A text stream whose copies (`print(_:to:)` keeps one) all write into the same buffer.
private struct Lines: TextOutputStream {
    final class Buffer { var text = "" }
    let buffer = Buffer()
    func write(_ string: String) { buffer.text += string }
}

@Suite("_Introspection", .serialized)
struct IntrospectionTests {
    /// Runs `body` with `recorder` enabled and disables it afterwards, even if `body` fails.
    private func watching(_ recorder: Recorder, _ body: () -> Void) {
        recorder.enable()
        defer { recorder.disable() }
        body()
    }

    @Test func justIntoSinkNestsValueAndCompletionInsideTheRequest() {
        let recorder = Recorder()
        var received: [Int] = []
        watching(recorder) {
            _ = Just(1).sink { received.append($0) }
        }
        #expect(received == [1])
        #expect(recorder.lines == [
            "will attach Just<Int> -> Sink",
            "will subscription Sink <- Just",
            "will request Just unlimited",
            "will input Sink 1",
            "did input Sink 1 -> max(0)",
            "will completion Sink finished",
            "did completion Sink finished",
            "did request Just unlimited",
            "did subscription Sink <- Just",
            "did attach Just<Int> -> Sink",
        ])
    }

    /// Every stage reports its own attach, outermost first, as Apple's operators do; the
    /// subscription `map` and `filter` hand through is watched once, so its one request is
    /// reported once.
    @Test func everyStageReportsItsAttach() {
        let recorder = Recorder()
        var received: [Int] = []
        watching(recorder) {
            // Built directly: `map` on a sequence publisher folds into a new sequence publisher.
            _ = Publishers.Filter(upstream: Publishers.Map(upstream: [1, 2].publisher) { $0 * 10 }) { $0 > 10 }
                .sink { received.append($0) }
        }
        #expect(received == [20])
        let attaches = recorder.lines.filter { $0.contains("attach") }
        #expect(attaches == [
            "will attach Filter<Map<Sequence<Array<Int>, Never>, Int>> -> Sink",
            "will attach Map<Sequence<Array<Int>, Never>, Int> -> Filter",
            "will attach Sequence<Array<Int>, Never> -> Map",
            "did attach Sequence<Array<Int>, Never> -> Map",
            "did attach Map<Sequence<Array<Int>, Never>, Int> -> Filter",
            "did attach Filter<Map<Sequence<Array<Int>, Never>, Int>> -> Sink",
        ])
        #expect(recorder.lines.filter { $0.hasPrefix("will input") } == [
            "will input Map 1", "will input Filter 10", "will input Map 2", "will input Filter 20", "will input Sink 20",
        ])
        #expect(recorder.lines.filter { $0.hasPrefix("will request") } == ["will request [1, 2] unlimited"])
    }

    /// A publisher that passes its subscriber on (`Deferred` to the publisher it makes) reports
    /// both attaches but watches the subscriber once, so each value is reported once.
    @Test func aSubscriberPassedOnIsWatchedOnce() {
        let recorder = Recorder()
        watching(recorder) {
            _ = Deferred { Just(4) }.sink { _ in }
        }
        #expect(recorder.lines.filter { $0.contains("attach") } == [
            "will attach Deferred<Just<Int>> -> Sink",
            "will attach Just<Int> -> Sink",
            "did attach Just<Int> -> Sink",
            "did attach Deferred<Just<Int>> -> Sink",
        ])
        #expect(recorder.lines.filter { $0.hasPrefix("will input") } == ["will input Sink 4"])
    }

    /// `$property` attaches through an inner publisher named as Apple's reports it.
    @Test func publishedReportsItsInnerSubject() {
        final class Model { @Published var count = 0 }
        let model = Model()
        let recorder = Recorder()
        var cancellable: AnyCancellable?
        watching(recorder) {
            cancellable = model.$count.sink { _ in }
        }
        #expect(recorder.lines.filter { $0.hasPrefix("will attach") } == [
            "will attach Publisher -> Sink",
            "will attach PublishedSubject<Int> -> Sink",
        ])
        cancellable?.cancel()
    }

    @Test func cancellationAndDemandAreReported() {
        let recorder = Recorder()
        let subject = PassthroughSubject<Int, Never>()
        let keeper = Keeper(initial: .max(1))
        watching(recorder) {
            subject.subscribe(keeper)
            keeper.subscription?.request(.max(2))
            keeper.subscription?.cancel()
        }
        let subscriptionEvents = recorder.lines.filter { $0.contains("request") || $0.contains("cancel") }
        #expect(subscriptionEvents == [
            "will request PassthroughSubject max(1)",
            "did request PassthroughSubject max(1)",
            "will request PassthroughSubject max(2)",
            "did request PassthroughSubject max(2)",
            "will cancel PassthroughSubject",
            "did cancel PassthroughSubject",
        ])
    }

    @Test func descriptionsPassThrough() throws {
        let recorder = Recorder()
        let subject = PassthroughSubject<Int, Never>()
        let watched = Keeper(initial: .unlimited)
        watching(recorder) {
            subject.subscribe(watched)
            subject.send(1)
        }
        let plain = Keeper(initial: .unlimited)
        subject.subscribe(plain)
        // The watched subscriber was handed a watched subscription (its request was reported)…
        #expect(recorder.lines.contains("will request PassthroughSubject unlimited"))
        // …that describes itself exactly like the subject's own.
        let handed = try #require(watched.subscription)
        let original = try #require(plain.subscription)
        #expect(String(describing: handed) == String(describing: original))
        #expect(watched.values == [1])
        handed.cancel()
        original.cancel()
    }

    /// §27: Apple's watching wrappers, of the subscriber and of the subscription, conform to
    /// `CustomStringConvertible` only: not reflectable, no playground description of their own.
    @Test func theWrappersAreOnlyCustomStringConvertible() throws {
        let recorder = Recorder()
        let capture = SubscriberCapture()
        let keeper = Keeper(initial: .none)
        watching(recorder) {
            capture.subscribe(keeper)
            capture.attach(RecordingSubscriptionStub())
        }
        let subscriber = try #require(capture.subscriber)
        #expect(subscriber is any CustomStringConvertible)
        #expect(!(subscriber is any CustomReflectable))
        #expect(!(subscriber is any CustomPlaygroundDisplayConvertible))
        let subscription = try #require(keeper.subscription)
        #expect(!(subscription is RecordingSubscriptionStub))
        #expect(subscription is any CustomStringConvertible)
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
        #expect(String(describing: subscription) == "Stub")
    }

    /// §27: a subscriber attached while a handler was enabled stays watched: a subscription it
    /// receives after `disable()` is still wrapped (and reports to nobody).
    @Test func aSubscriberAttachedWhileEnabledStillWrapsLaterSubscriptions() throws {
        let recorder = Recorder()
        let capture = SubscriberCapture()
        let keeper = Keeper(initial: .max(1))
        watching(recorder) { capture.subscribe(keeper) }
        let linesAtDisable = recorder.lines.count
        let stub = RecordingSubscriptionStub()
        capture.attach(stub)
        let handed = try #require(keeper.subscription)
        #expect(!(handed is RecordingSubscriptionStub))
        #expect(String(describing: handed) == "Stub")
        #expect(stub.requests == [.max(1)])
        #expect(recorder.lines.count == linesAtDisable)
    }

    /// §27: a publisher that passes the subscriber it was given on to another publisher: Apple
    /// reports that second attach with an `AnySubscriber` (describing itself as the subscriber).
    @Test func aSubscriberPassedOnIsReportedAsAnAnySubscriber() {
        final class TypeSpy: _Introspection {
            var attaches: [String] = []
            let thread = pthread_self()
            func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
            where P.Failure == S.Failure, P.Output == S.Input {
                guard pthread_equal(pthread_self(), thread) != 0 else { return }
                attaches.append("\(P.self) -> \(S.self) \(subscriber)")
            }
        }
        let spy = TypeSpy()
        spy.enable()
        Passing(inner: Just(4)).subscribe(Keeper(initial: .unlimited))
        spy.disable()
        #expect(spy.attaches == ["Passing<Just<Int>> -> Keeper Keeper", "Just<Int> -> AnySubscriber<Int, Never> Keeper"])
    }

    @Test func watchedSubscriptionKeepsTheIdentifierOfTheOriginal() {
        final class Spy: _Introspection {
            var seen: [CombineIdentifier] = []
            let thread = pthread_self()
            func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
                if pthread_equal(pthread_self(), thread) != 0 { seen.append(subscription.combineIdentifier) }
            }
        }
        let spy = Spy()
        let keeper = Keeper(initial: .none)
        spy.enable()
        Just(5).subscribe(keeper)
        spy.disable()
        #expect(spy.seen.count == 1)
        #expect(spy.seen.first == keeper.subscription?.combineIdentifier)
    }

    @Test func printOutputIsTheSameWithAHandlerEnabled() {
        func run() -> String {
            let log = Lines()
            _ = [1, 2].publisher.print("p", to: log).map { $0 + 1 }.sink { _ in }
            return log.buffer.text
        }
        let plain = run()
        let recorder = Recorder()
        var watched = ""
        watching(recorder) { watched = run() }
        #expect(recorder.lines.contains("will attach Map<Print<Sequence<Array<Int>, Never>>, Int> -> Sink"))
        #expect(plain.contains("receive subscription: ([1, 2])"))
        #expect(watched == plain)
    }

    @Test func disableStopsReportsIncludingRunningPipelines() {
        let recorder = Recorder()
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        recorder.enable()
        let cancellable = subject.sink { received.append($0) }
        subject.send(1)
        recorder.disable()
        let countAtDisable = recorder.lines.count
        subject.send(2)
        _ = Just(3).sink { received.append($0) }
        #expect(recorder.lines.count == countAtDisable)
        #expect(recorder.lines.contains("will input Sink 1"))
        #expect(received == [1, 2, 3])
        cancellable.cancel()
    }

    @Test func enablingTwiceReportsOnceAndOneDisableSuffices() {
        let recorder = Recorder()
        recorder.enable()
        recorder.enable()
        _ = Just(1).sink { _ in }
        recorder.disable()
        #expect(!recorder.isEnabled)
        #expect(recorder.lines.filter { $0 == "will input Sink 1" }.count == 1)
        #expect(recorder.lines.count == 10)
    }

    @Test func isEnabledComparesByIdentity() {
        let first = Silent()
        let second = Silent()
        #expect(!first.isEnabled)
        first.enable()
        #expect(first.isEnabled)
        #expect(!second.isEnabled)
        first.disable()
        #expect(!first.isEnabled)
        second.disable()
        #expect(!second.isEnabled)
    }
}

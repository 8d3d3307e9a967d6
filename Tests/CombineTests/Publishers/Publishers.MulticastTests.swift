import Combine
import Foundation
import Synchronization
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

@Suite("Publishers.Multicast", .tags(.concurrency))
struct MulticastTests {
    @Test func bookMulticastWithSubjectSendsOnceToBothSinks() {
        // Kodeco ch. 13: `.print("multicast").multicast(subject: subject)`, two sinks, then
        // connect.
        let log = TextLog()
        let upstream = TestUpstream<String, Boom>(name: "DataTaskPublisher")
        let subject = PassthroughSubject<String, Boom>()
        let multicasted = upstream.print("multicast", to: log).multicast(subject: subject)
        var cancellables = Set<AnyCancellable>()
        multicasted.sink(receiveCompletion: { _ in }, receiveValue: { log.add("subscription1 received: '\($0)'") }).store(in: &cancellables)
        multicasted.sink(receiveCompletion: { _ in }, receiveValue: { log.add("subscription2 received: '\($0)'") }).store(in: &cancellables)
        #expect(log.lines.isEmpty)
        multicasted.connect().store(in: &cancellables)
        upstream.send("303425 bytes")
        upstream.send(completion: .finished)
        #expect(log.lines == [
            "multicast: receive subscription: (DataTaskPublisher)",
            "multicast: request unlimited",
            "multicast: receive value: (303425 bytes)",
            "subscription1 received: '303425 bytes'",
            "subscription2 received: '303425 bytes'",
            "multicast: receive finished",
        ])
        #expect(upstream.subscriptionCount == 1)
    }

    @Test func nothingFlowsBeforeConnect() {
        let upstream = TestUpstream<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let subscriber = TrackingSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        #expect(upstream.subscriptionCount == 0)
        #expect(subscriber.events == [.subscription("Multicast")])
        let connection = multicast.connect()
        #expect(upstream.subscriptionCount == 1)
        #expect(upstream.calls == [.request(.unlimited)])
        upstream.send(1)
        connection.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        upstream.send(2)
        #expect(subscriber.values == [1])
    }

    @Test func subjectIsCreatedOnceAndLazily() {
        var made = 0
        let multicast = TestUpstream<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            made += 1
            return PassthroughSubject()
        }
        #expect(made == 0)
        multicast.subscribe(TrackingSubscriber<Int, Never>())
        multicast.subscribe(TrackingSubscriber<Int, Never>())
        let connection = multicast.connect()
        #expect(made == 1)
        connection.cancel()
    }

    @Test func currentValueSubjectGivesLateSubscribersTheLatestValue() {
        let upstream = TestUpstream<Int, Never>()
        let multicast = upstream.multicast(subject: CurrentValueSubject<Int, Never>(0))
        let early = TrackingSubscriber<Int, Never>()
        multicast.subscribe(early)
        let connection = multicast.connect()
        upstream.send(5)
        let late = TrackingSubscriber<Int, Never>()
        multicast.subscribe(late)
        #expect(early.values == [0, 5])
        #expect(late.values == [5])
        connection.cancel()
    }

    @Test func demandIsPerSubscriber() {
        let upstream = TestUpstream<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let eager = TrackingSubscriber<Int, Never>()
        let lazy = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        multicast.subscribe(eager)
        multicast.subscribe(lazy)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(2)
        #expect(eager.values == [1, 2])
        #expect(lazy.values == [1])
        lazy.request(.max(1))
        upstream.send(3)
        #expect(lazy.values == [1, 3])
        connection.cancel()
    }

    @Test func completionAndFailureReachEverySubscriber() {
        let upstream = TestUpstream<Int, Boom>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Boom>() }
        let first = TrackingSubscriber<Int, Boom>()
        let second = TrackingSubscriber<Int, Boom>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        // Spec §18: the connection is an `AnyCancellable`; keep it, releasing it disconnects.
        let connection = multicast.connect()
        #expect(connection is AnyCancellable)
        upstream.send(completion: .failure(.boom))
        #expect(first.completions == [.failure(.boom)])
        #expect(second.completions == [.failure(.boom)])
        let late = TrackingSubscriber<Int, Boom>()
        multicast.subscribe(late)
        #expect(late.completions == [.failure(.boom)])
        withExtendedLifetime(connection) {}
    }

    @Test func cancellingOneSubscriberLeavesTheOthers() {
        let upstream = TestUpstream<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        let connection = multicast.connect()
        upstream.send(1)
        first.cancel()
        upstream.send(2)
        #expect(first.values == [1])
        #expect(second.values == [1, 2])
        #expect(upstream.calls == [.request(.unlimited)])
        withExtendedLifetime(connection) {}
    }

    @Test func propertiesAndReflection() throws {
        let upstream = TestUpstream<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        #expect(multicast.upstream === upstream)
        _ = multicast.createSubject()
        let subscriber = TrackingSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Multicast")
        // Spec §28: Apple's Multicast shows no children.
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == [])
    }

    @Test func valuesReturnNoneAndTheAnswerIsRequestedFromTheSubject() {
        // Spec §18: the subscriber on the subject returns none and forwards the answer with
        // request(n); request(.none) is ignored; after a cancel nothing more arrives.
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestUpstream<Int, Never>()
        let multicast = recorder.multicast(subject: subject)
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(2) })
        multicast.subscribe(subscriber)
        subscriber.request(.none)
        let connection = multicast.connect()
        #expect(recorder.send(1) == .none)
        #expect(subscriber.values == [1])
        subscriber.cancel()
        recorder.send(2)
        #expect(subscriber.values == [1])
        connection.cancel()
    }

    @Test func subscriberIsReleasedAtTheCompletionEvenWhileItHoldsItsSubscription() {
        // As Apple's stage, the multicast subscription lets go of its subscriber when the subject
        // completes; the subscriber keeps its subscription, so holding on would be a cycle.
        weak var weakSubscriber: TrackingSubscriber<Int, Boom>?
        let upstream = TestUpstream<Int, Boom>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Boom>() }
        let connection = multicast.connect()
        do {
            let subscriber = TrackingSubscriber<Int, Boom>()
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
            upstream.send(completion: .failure(.boom))
            #expect(subscriber.completions == [.failure(.boom)])
            #expect(subscriber.subscription != nil)
        }
        #expect(weakSubscriber == nil)
        withExtendedLifetime(connection) {}
    }

    @Test func eventsBeforeTheConnectionsSubscriptionAreIgnored() {
        // Spec §8, §18: the subject connection ignores what arrives before its subscription.
        let upstream = LateSubscriptionUpstream<Int, Boom>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Boom>() }
        let subscriber = TrackingSubscriber<Int, Boom>()
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription("Multicast")])
        upstream.send(subscription: RecordingSubscription())
        upstream.send(2)
        #expect(subscriber.values == [2])
        withExtendedLifetime(connection) {}
    }

    @Test func aSecondSubscriptionFromTheSubjectIsCancelled() {
        // Spec §18, §30: the stage multicast attaches to its subject keeps the first subscription
        // and cancels any other.
        let subject = HandingSubject()
        let multicast = TestUpstream<Int, Boom>().multicast(subject: subject)
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: .max(2))
        multicast.subscribe(subscriber)
        let first = RecordingSubscription(name: "First")
        let second = RecordingSubscription(name: "Second")
        subject.subscribers.first?.receive(subscription: first)
        subject.subscribers.first?.receive(subscription: second)
        #expect(first.requests == [.max(2)])
        #expect(!first.isCancelled)
        #expect(second.isCancelled)
        #expect(second.requests.isEmpty)
        #expect(subscriber.events == [.subscription("Multicast")])
    }

    @Test func releasedAfterCancelAndDisconnect() {
        weak var weakSubscription: AnyObject?
        weak var weakMulticast: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
            weakMulticast = multicast
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            multicast.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            let connection = multicast.connect()
            upstream.send(1)
            subscriber.cancel()
            connection.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
        _ = weakMulticast
    }

    @Test func concurrentSubscribersSeeContiguousOrderedValues() {
        let subject = PassthroughSubject<Int, Never>()
        nonisolated(unsafe) let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
        let connection = multicast.connect()
        let keeper = SerializationCheckingSubscriber<Int, Never>()
        multicast.subscribe(keeper)
        let recorders = (0..<6).map { _ in SerializationCheckingSubscriber<Int, Never>() }
        let count = 3_000
        onThreadsBlocking(recorders.count + 1) { worker in
            if worker == recorders.count {
                for value in 0..<count { subject.send(value) }
                subject.send(completion: .finished)
                return
            }
            let recorder = recorders[worker]
            multicast.subscribe(recorder)
            if worker.isMultiple(of: 2) {
                usleep(UInt32(100 * worker))
                recorder.cancel()
            }
        }
        let keptAll = keeper.values == Array(0..<count)
        #expect(keptAll)
        #expect(keeper.completions.count == 1)
        for recorder in recorders {
            #expect(recorder.valuesAreConsecutive)
            #expect(recorder.overlaps == 0)
            #expect(recorder.completions.count <= 1)
        }
        connection.cancel()
    }

    @Test func aCancelFromAnotherThreadDuringADeliveryReleasesTheSubscriberWhenTheDeliveryReturns() {
        // The subscriber is not let go of under the feet of the call running on another thread;
        // it goes as soon as that call returns, and nothing sent after the cancel reaches it.
        let subject = PassthroughSubject<Int, Never>()
        let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
        let connection = multicast.connect()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let values = Locked<[Int]>([])
        weak var weakSubscriber: ClosureSubscriber<Never>?
        let subscription: (any Subscription)?
        do {
            let subscriber = ClosureSubscriber<Never>(onValue: { value in
                values.append(value)
                if value == 1 {
                    entered.signal()
                    proceed.wait()
                }
            })
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
            subscription = subscriber.subscription
        }
        #expect(subscription != nil)
        let sent = DispatchSemaphore(value: 0)
        Thread {
            subject.send(0)
            subject.send(1)
            sent.signal()
        }.start()
        entered.wait()
        subscription?.cancel()
        #expect(weakSubscriber != nil)
        proceed.signal()
        sent.wait()
        #expect(weakSubscriber == nil)
        subject.send(2)
        #expect(values.current == [0, 1])
        connection.cancel()
    }

    @Test func aCompletionSentFromInsideADeliveryReachesTheSubscriberOnceAndReleasesIt() {
        let subject = PassthroughSubject<Int, Boom>()
        let multicast = subject.multicast { PassthroughSubject<Int, Boom>() }
        let connection = multicast.connect()
        let events = Locked<[String]>([])
        weak var weakSubscriber: ClosureSubscriber<Boom>?
        do {
            let subscriber = ClosureSubscriber<Boom>(
                onValue: { value in
                    events.append("value \(value)")
                    if value == 1 { subject.send(completion: .failure(.boom)) }
                    events.append("returned \(value)")
                },
                onCompletion: { events.append($0 == .failure(.boom) ? "failure" : "finished") })
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
        }
        subject.send(1)
        subject.send(2)
        #expect(events.current == ["value 1", "failure", "returned 1"])
        #expect(weakSubscriber == nil)
        connection.cancel()
    }

    @Test(arguments: [false, true])
    func aCancelFromAnotherThreadDuringAStreamOfValues(throughShare: Bool) {
        // A subscriber with no lock of its own: the stage must keep every call into it apart and
        // make each happen before the next one and before the subscriber's release. After
        // `cancel()` returns, at most the delivery already under way reaches it.
        // Fifty rounds: each blocks a pool thread while it streams, and more would starve the
        // suite's asynchronous tests under the thread sanitizer.
        for round in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
            let connection = throughShare ? nil : multicast.connect()
            let shared = subject.share()
            let seen = SeenCount()
            let report = Locked<[UnlockedSubscriber.Report]>([])
            weak var weakSubscriber: UnlockedSubscriber?
            let subscription: (any Subscription)?
            do {
                let subscriber = UnlockedSubscriber(seen: seen, report: report)
                weakSubscriber = subscriber
                if throughShare { shared.subscribe(subscriber) } else { multicast.subscribe(subscriber) }
                subscription = subscriber.subscription
            }
            let done = DispatchSemaphore(value: 0)
            Thread {
                for value in 0..<2_000 { subject.send(value) }
                done.signal()
            }.start()
            let threshold = round % 50
            while seen.count < threshold {}
            subscription?.cancel()
            let seenAtCancel = seen.count
            done.wait()
            #expect(weakSubscriber == nil)
            let reports = report.current
            #expect(reports.count == 1)
            if let last = reports.first {
                #expect(last.consecutiveFromZero)
                #expect(!last.completed)
                #expect(last.count >= threshold)
                #expect(last.count <= seenAtCancel + 1)
            }
            connection?.cancel()
        }
    }
}

/// A subscriber that runs closures, holds its subscription (as `sink` does) and asks for
/// everything.
private final class ClosureSubscriber<Failure: Error>: Subscriber, @unchecked Sendable {
    typealias Input = Int

    let onValue: (Int) -> Void
    let onCompletion: (Subscribers.Completion<Failure>) -> Void
    private(set) var subscription: (any Subscription)?

    init(onValue: @escaping (Int) -> Void, onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void = { _ in }) {
        self.onValue = onValue
        self.onCompletion = onCompletion
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        onValue(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
}

/// How many values a subscriber has started to handle, readable from another thread.
private final class SeenCount: Sendable {
    private let seen = Atomic<Int>(0)
    func increment() { seen.add(1, ordering: .releasing) }
    var count: Int { seen.load(ordering: .acquiring) }
}

/// Records values in plain stored properties, with no lock: only the stage's serialisation keeps
/// it sound (the thread sanitizer checks). Reports what it saw from its deinit, on whichever
/// thread lets go of it last. Holds its subscription, as `sink` does.
private final class UnlockedSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    struct Report {
        var count: Int
        var consecutiveFromZero: Bool
        var completed: Bool
    }

    private(set) var subscription: (any Subscription)?
    private var values: [Int] = []
    private var completed = false
    private let seen: SeenCount
    private let report: Locked<[Report]>

    init(seen: SeenCount, report: Locked<[Report]>) {
        self.seen = seen
        self.report = report
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        seen.increment()
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) { completed = true }

    deinit {
        let consecutive = values.enumerated().allSatisfy { $0.offset == $0.element }
        report.append(Report(count: values.count, consecutiveFromZero: consecutive, completed: completed))
    }
}

/// A subject that only keeps its subscribers, so that a test can hand them subscriptions itself.
private final class HandingSubject: Subject {
    typealias Output = Int
    typealias Failure = Boom
    var subscribers: [AnySubscriber<Int, Boom>] = []
    func send(_ value: Int) { for subscriber in subscribers { _ = subscriber.receive(value) } }
    func send(completion: Subscribers.Completion<Boom>) {
        for subscriber in subscribers { subscriber.receive(completion: completion) }
    }
    func send(subscription: any Subscription) {}
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Boom {
        subscribers.append(AnySubscriber(subscriber))
    }
}

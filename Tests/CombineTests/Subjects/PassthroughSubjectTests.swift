import Combine
import Foundation
import TestSupport
import Testing

@Suite("PassthroughSubject", .tags(.concurrency))
struct PassthroughSubjectTests {
    @Test func fanOutHonoursEachSubscribersDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let unlimited = TrackingSubscriber<Int, Never>(initialDemand: .unlimited)
        let two = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        let none = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(unlimited)
        subject.subscribe(two)
        subject.subscribe(none)
        for value in 1...4 { subject.send(value) }
        #expect(unlimited.values == [1, 2, 3, 4])
        #expect(two.values == [1, 2])
        #expect(none.values == [])
        none.request(.max(1))
        subject.send(5)
        #expect(none.values == [5])
        subject.send(completion: .finished)
        #expect(unlimited.completions == [.finished])
        #expect(two.completions == [.finished])
        #expect(none.completions == [.finished])
        #expect(unlimited.events.first == .subscription("PassthroughSubject"))
    }

    @Test func valuesWithoutSubscribersAreDropped() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(1)
        var values: [Int] = []
        let cancellable = subject.sink { values.append($0) }
        subject.send(2)
        #expect(values == [2])
        cancellable.cancel()
        subject.send(3)
        #expect(values == [2])
    }

    @Test func completionIsReplayedAndNothingFollows() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(TestError.boom))
        subject.send(1)
        subject.send(completion: .finished)
        let late = TrackingSubscriber<Int, TestError>()
        subject.subscribe(late)
        #expect(late.events == [.subscription("Empty"), .completion(.failure(.boom))])
    }

    @Test func deliveryFollowsSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        var cancellables: [AnyCancellable] = []
        for name in ["a", "b", "c", "d"] {
            subject.sink { log.append("\(name)\($0)") }.store(in: &cancellables)
        }
        subject.send(1)
        #expect(log == ["a1", "b1", "c1", "d1"])
    }

    /// Subscribers that leave from the front, the middle and the end, and ones that join after
    /// them, past the list's first growth: the rest keep receiving in the order they subscribed.
    @Test func deliveryOrderSurvivesCancelsAndLateSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        var cancellables: [String: AnyCancellable] = [:]
        func join(_ name: String) {
            cancellables[name] = subject.sink { log.append("\(name)\($0)") }
        }
        for name in ["a", "b", "c", "d", "e", "f"] { join(name) }
        for name in ["a", "c", "f"] { cancellables[name]?.cancel() }
        join("g")
        subject.send(1)
        #expect(log == ["b1", "d1", "e1", "g1"])
        log = []
        cancellables["e"]?.cancel()
        for name in ["h", "i", "j", "k", "l"] { join(name) }
        cancellables["b"]?.cancel()
        subject.send(2)
        #expect(log == ["d2", "g2", "h2", "i2", "j2", "k2", "l2"])
    }

    // As on Apple's platforms: a send from inside a subscriber is delivered at once, nested.
    @Test func reentrantSendIsNested() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        var depth = 0
        let cancellable = subject.sink { value in
            depth += 1
            log.append("begin \(value) depth \(depth)")
            if value < 3 { subject.send(value + 1) }
            log.append("end \(value)")
            depth -= 1
        }
        subject.send(1)
        #expect(log == ["begin 1 depth 1", "begin 2 depth 2", "begin 3 depth 3", "end 3", "end 2", "end 1"])
        _ = cancellable
    }

    /// A subscriber that keeps nothing of its subscription and finishes the subject from inside
    /// its own `receive(_:)`: the nested completion reaches it at once, as on Apple's platforms,
    /// but the subject, its only owner, lets go of it only after that `receive(_:)` has returned.
    @Test func aSubscriberFinishingTheSubjectFromItsValueOutlivesItsOwnCall() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Locked<[String]>([])
        weak var weakSubscriber: SubjectFinishingSubscriber?
        do {
            let subscriber = SubjectFinishingSubscriber(subject: subject, log: log)
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
        }
        #expect(weakSubscriber != nil, "the subject keeps its subscriber")
        subject.send(1)
        #expect(log.current == ["value 1 begins", "finished", "value 1 ends after 1 completion", "released"])
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentSendLosesNothingAndNeverOverlaps() async {
        let subject = PassthroughSubject<Int, Never>()
        let counter = SerializationCheckingSubscriber<Int, Never>()
        subject.subscribe(counter)
        let threads = 8
        let perThread = 10_000
        // Real OS threads, so the sends truly overlap whatever the size of the cooperative pool.
        await onThreads(threads) { _ in
            for value in 0..<perThread { subject.send(value) }
        }
        #expect(counter.values.count == threads * perThread)
        #expect(counter.overlaps == 0)
    }

    @Test func concurrentSendAndCompletionNothingAfterCompletion() async {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let unlimited = SerializationCheckingSubscriber<Int, Never>()
            let paced = SerializationCheckingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: .max(1))
            subject.subscribe(unlimited)
            subject.subscribe(paced)
            await onThreads(4) { index in
                if index == 3 {
                    for _ in 0..<200 { sched_yield() }
                    subject.send(completion: .finished)
                } else {
                    for value in 0..<2_000 { subject.send(value) }
                }
            }
            #expect(unlimited.overlaps == 0)
            #expect(paced.overlaps == 0)
            #expect(unlimited.completions.count == 1)
            #expect(paced.completions.count == 1)
            #expect(unlimited.eventsAfterCompletion == 0)
            #expect(paced.eventsAfterCompletion == 0)
        }
    }

    @Test func concurrentSendAndCancelStopsAndReleases() async {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            weak var weakSubscriber: SerializationCheckingSubscriber<Int, Never>?
            var received = 0
            do {
                let subscriber = SerializationCheckingSubscriber<Int, Never>()
                weakSubscriber = subscriber
                subject.subscribe(subscriber)
                nonisolated(unsafe) let subscription = subscriber.subscription
                await onThreads(4) { index in
                    if index == 3 {
                        for _ in 0..<200 { sched_yield() }
                        subscription?.cancel()
                    } else {
                        for value in 0..<2_000 { subject.send(value) }
                    }
                }
                received = subscriber.values.count
                subject.send(-1)
                #expect(subscriber.values.count == received)
                #expect(subscriber.overlaps == 0)
                #expect(subscriber.completions.isEmpty)
            }
            // The subscriber keeps its subscription, but the cancelled conduit let go of it.
            #expect(weakSubscriber == nil)
        }
    }

    @Test func demandChangesUnderConcurrentSends() async {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = SerializationCheckingSubscriber<Int, Never>(initialDemand: .max(10))
        subject.subscribe(subscriber)
        nonisolated(unsafe) let subscription = subscriber.subscription
        await onThreads(4) { index in
            if index == 3 {
                for _ in 0..<100 { subscription?.request(.max(5)); sched_yield() }
                subscription?.request(.unlimited)
            } else {
                for value in 0..<5_000 { subject.send(value) }
            }
        }
        let before = subscriber.values.count
        #expect(before >= 10)
        subject.send(1)
        #expect(subscriber.values.count == before + 1)
        #expect(subscriber.overlaps == 0)
    }

    /// Subscribers coming and going on four threads while four others send: a subscriber that
    /// stays throughout loses nothing and is never called concurrently, and the subject lets go of
    /// every subscriber that cancelled.
    @Test func concurrentSubscribeSendCancel() async {
        let subject = PassthroughSubject<Int, Never>()
        let witness = SerializationCheckingSubscriber<Int, Never>()
        subject.subscribe(witness)
        let departed = Locked<[WeakReference]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<500 {
                        let subscriber = ReleasingTestSubscriber<Int, Never>()
                        subject.subscribe(subscriber)
                        subscriber.cancel()
                        departed.append(WeakReference(subscriber))
                    }
                }
                group.addTask {
                    for value in 0..<5_000 { subject.send(value) }
                }
            }
        }
        let kept = departed.current.filter { $0.object != nil }.count
        #expect(departed.current.count == 2_000)
        #expect(kept == 0)
        #expect(witness.values.count == 4 * 5_000)
        #expect(witness.overlaps == 0)
        subject.send(completion: .finished)
        #expect(witness.completions.count == 1)
    }

    @Test func cancelledAndCompletedSubscriptionsAreReleased() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakCancelled: TrackingSubscriber<Int, Never>?
        weak var weakCancelledSubscription: AnyObject?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            subject.subscribe(subscriber)
            weakCancelled = subscriber
            weakCancelledSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakCancelled == nil)
        #expect(weakCancelledSubscription == nil)

        weak var weakCompleted: TrackingSubscriber<Int, Never>?
        weak var weakCompletedSubscription: AnyObject?
        do {
            let subscriber = TrackingSubscriber<Int, Never>()
            subject.subscribe(subscriber)
            weakCompleted = subscriber
            weakCompletedSubscription = subscriber.subscription as AnyObject?
        }
        #expect(weakCompleted != nil)
        subject.send(completion: .finished)
        #expect(weakCompleted == nil)
        #expect(weakCompletedSubscription == nil)
    }

    /// A sink, and a map in front of one, live inside the subject's subscription object rather
    /// than in a box of their own: cancelling or completing still releases them and the
    /// subscription, and the subject stays alive exactly while a subscription is live.
    @Test func sinksKeptInTheSubscriptionAreReleasedOnCancelAndCompletion() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakCancelled: Subscribers.Sink<Int, Never>?
        weak var weakCompleted: Subscribers.Sink<Int, Never>?
        var received: [Int] = []
        var completions = 0
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let cancelled = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
            let completed = Subscribers.Sink<Int, Never>(
                receiveCompletion: { _ in completions += 1 }, receiveValue: { received.append($0 * 10) })
            weakCancelled = cancelled
            weakCompleted = completed
            subject.subscribe(cancelled)
            subject.map { $0 + 1 }.subscribe(completed)
            subject.send(1)
            cancelled.cancel()
            subject.send(2)
        }
        #expect(received == [1, 20, 30])
        #expect(weakCancelled == nil)
        // The live subscription of `completed` keeps the subject, and the subject keeps it.
        #expect(weakSubject != nil)
        #expect(weakCompleted != nil)
        weakSubject?.send(completion: .finished)
        #expect(completions == 1)
        #expect(weakCompleted == nil)
        #expect(weakSubject == nil)
    }

    @Test func requestsUnlimitedFromUpstreamOnceThereIsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestUpstream<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.calls == [])
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        #expect(upstream.calls == [])
        subscriber.request(.max(1))
        #expect(upstream.calls == [.request(.unlimited)])
        upstream.send(7)
        #expect(subscriber.values == [7])
        connection.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func subscribingASubjectLeaksNothing() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakSink: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let upstream = TestUpstream<Int, Never>()
            let sink = subject.sink { _ in }
            weakSink = sink
            let connection = upstream.subscribe(subject)
            upstream.send(1)
            connection.cancel()
            sink.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakSink == nil)
    }

    @Test func upstreamArrivingAfterDemandIsAskedAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let upstream = TestUpstream<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.calls == [.request(.unlimited)])
        upstream.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
        _ = connection
    }

    @Test func bookTestSinkReceiveDataThenError() {
        // Using Combine, testing: a PassthroughSubject to test a subscriber: counts of values and
        // completions after each send.
        enum TestFailureCondition: Error { case anErrorExample }
        let subject = PassthroughSubject<String, Error>()
        var values = 0
        var completions = 0
        var lastError: Error?
        let cancellable = subject.sink(
            receiveCompletion: { completion in
                completions += 1
                if case .failure(let error) = completion { lastError = error }
            },
            receiveValue: { _ in values += 1 })
        #expect((values, completions) == (0, 0))
        subject.send("firstStringValue")
        #expect((values, completions) == (1, 0))
        subject.send("secondStringValue")
        #expect((values, completions) == (2, 0))
        subject.send(completion: Subscribers.Completion.failure(TestFailureCondition.anErrorExample))
        #expect((values, completions) == (2, 1))
        #expect(lastError?.localizedDescription == TestFailureCondition.anErrorExample.localizedDescription)
        subject.send(completion: Subscribers.Completion.finished)
        #expect((values, completions) == (2, 1))
        _ = cancellable
    }

    @Test func bookExampleFirstValueIsLost() {
        let subject = PassthroughSubject<String, Never>()
        subject.send("first value")
        var output: [String] = []
        let cancellable = subject.sink { output.append("Result: \($0)") }
        subject.send("second value")
        #expect(output == ["Result: second value"])
        _ = cancellable
    }

    @Test func bookExampleSubscribeToSubject() {
        // [1, 2, 3].publisher feeding a subject that has a sink.
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        var finished = false
        let sink = subject.sink(receiveCompletion: { _ in finished = true }, receiveValue: { values.append($0) })
        let connection = [1, 2, 3].publisher.subscribe(subject)
        #expect(values == [1, 2, 3])
        #expect(finished)
        _ = (sink, connection)
    }
}

private enum TestError: Error, Equatable {
    case boom
}

/// Requests everything, keeps no subscription, and finishes its subject from inside
/// `receive(_:)`, then reads its own state; it logs its release, so a release during its own
/// call shows in the log (and the address sanitizer reports the read of freed memory).
final class SubjectFinishingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let subject: PassthroughSubject<Int, Never>
    let log: Locked<[String]>
    var completions = 0

    init(subject: PassthroughSubject<Int, Never>, log: Locked<[String]>) {
        self.subject = subject
        self.log = log
    }

    func receive(subscription: any Subscription) { subscription.request(.unlimited) }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.append("value \(input) begins")
        subject.send(completion: .finished)
        log.append("value \(input) ends after \(completions) completion")
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        completions += 1
        log.append("finished")
    }

    deinit { log.append("released") }
}

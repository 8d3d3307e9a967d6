import Combine
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("Publishers.SwitchToLatest", .tags(.concurrency))
struct SwitchToLatestTests {
    enum TestError: Error, Equatable { case boom, bang }
    typealias Inner = TestUpstream<Int, TestError>

    @Test func republishesOnlyTheLatestInner() {
        let intPublisher1 = PassthroughSubject<Int, Never>()
        let intPublisher2 = PassthroughSubject<Int, Never>()
        let publishers = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        var received: [Int] = []
        let cancellable = publishers.switchToLatest().sink { received.append($0) }
        publishers.send(intPublisher1)
        intPublisher1.send(-3)
        intPublisher1.send(-5)
        intPublisher2.send(0)  // not subscribed yet
        publishers.send(intPublisher2)
        intPublisher1.send(-7)  // superseded
        intPublisher2.send(100)
        intPublisher2.send(200)
        #expect(received == [-3, -5, 100, 200])
        cancellable.cancel()
    }

    /// The book's demo, without the timing: one `Just` per index, all of them delivered.
    @Test func bookDemoWithJusts() {
        let subject = PassthroughSubject<Just<Int>, Never>()
        var printed: [String] = []
        let cancellable = subject
            .switchToLatest()
            .sink(receiveCompletion: { printed.append("Complete: \($0)") }, receiveValue: { printed.append("Value: \($0)") })
        for index in 1...5 { subject.send(Just(index)) }
        #expect(printed == ["Value: 1", "Value: 2", "Value: 3", "Value: 4", "Value: 5"])
        subject.send(completion: .finished)
        #expect(printed.last == "Complete: finished")
        cancellable.cancel()
    }

    @Test func switchingCancelsThePreviousInnerAndCarriesDemand() {
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let first = Inner(), second = Inner()
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(3))
        outer.switchToLatest().subscribe(tracker)
        #expect(tracker.events.first?.description == "subscription(SwitchToLatest)")
        #expect(outer.calls == [.request(.unlimited)])
        outer.send(first)
        #expect(first.calls == [.request(.max(3))])
        first.send(1)
        outer.send(second)
        #expect(first.calls == [.request(.max(3)), .cancel])
        #expect(second.calls == [.request(.max(2))])
        first.send(99)
        second.send(2)
        second.send(3)
        #expect(tracker.values == [1, 2, 3])
        // A later request goes to the current inner as it is (§14 rule 2).
        tracker.request(.max(2))
        #expect(second.calls == [.request(.max(2)), .request(.max(2))])
        second.send(4)
        #expect(tracker.values == [1, 2, 3, 4])
    }

    @Test func finishesWhenUpstreamAndLatestInnerHaveFinished() {
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let first = Inner(), second = Inner()
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(first)
        first.send(completion: .finished)
        #expect(tracker.completions.isEmpty)
        outer.send(second)
        outer.send(completion: .finished)
        #expect(tracker.completions.isEmpty)
        second.send(1)
        second.send(completion: .finished)
        #expect(tracker.events.dropFirst() == [.value(1), .completion(.finished)])

        let emptyOuter = TestUpstream<Inner, TestError>()
        let tracker2 = TrackingSubscriber<Int, TestError>()
        emptyOuter.switchToLatest().subscribe(tracker2)
        emptyOuter.send(completion: .finished)
        #expect(tracker2.completions == [.finished])
    }

    @Test func failuresOfEitherSideFailAndCancelTheOther() {
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let inner = Inner()
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        inner.send(completion: .failure(.boom))
        #expect(tracker.completions == [.failure(.boom)])
        #expect(outer.calls == [.request(.unlimited), .cancel])

        let outer2 = TestUpstream<Inner, TestError>(name: "Outer")
        let inner2 = Inner()
        let tracker2 = TrackingSubscriber<Int, TestError>()
        outer2.switchToLatest().subscribe(tracker2)
        outer2.send(inner2)
        outer2.send(completion: .failure(.bang))
        inner2.send(1)
        #expect(tracker2.events.dropFirst() == [.completion(.failure(.bang))])
        #expect(inner2.calls == [.request(.unlimited), .cancel])
    }

    @Test func cancelReachesUpstreamAndInnerAndReleases() {
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let inner = Inner()
        weak var weakTracker: TrackingSubscriber<Int, TestError>?
        do {
            let tracker = TrackingSubscriber<Int, TestError>()
            weakTracker = tracker
            outer.switchToLatest().subscribe(tracker)
            outer.send(inner)
            tracker.cancel()
            inner.send(1)
            #expect(tracker.values.isEmpty)
        }
        #expect(outer.calls == [.request(.unlimited), .cancel])
        #expect(inner.calls == [.request(.unlimited), .cancel])
        #expect(weakTracker == nil)

        weak var weakSubscription: AnyObject?
        let subject = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let innerSubject = PassthroughSubject<Int, Never>()
        do {
            let tracker = TrackingSubscriber<Int, Never>()
            subject.switchToLatest().subscribe(tracker)
            subject.send(innerSubject)
            weakSubscription = tracker.subscription as AnyObject
            tracker.cancel()
        }
        #expect(weakSubscription == nil)
    }

    @Test func reentrantSwitchFromTheSubscriber() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>(), second = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = outer.switchToLatest().sink { value in
            received.append(value)
            if value == 1 {
                outer.send(second)
                first.send(2)  // superseded while still delivering its previous value
            }
        }
        outer.send(first)
        first.send(1)
        second.send(3)
        #expect(received == [1, 3])
        cancellable.cancel()
    }

    @Test func concurrentSwitchesAndSendsAreSerialised() {
        let rounds = 200, perInner = 50
        let outer = TestUpstream<TestUpstream<(Int, Int), Never>, Never>()
        let inners = (0..<rounds).map { _ in TestUpstream<(Int, Int), Never>() }
        let probe = SerializationCheckingSubscriber<(Int, Int), Never>()
        outer.switchToLatest().subscribe(probe)
        for round in 0..<rounds {
            outer.send(inners[round])
            onThreadsBlocking(2) { worker in
                if worker == 0 {
                    for index in 0..<perInner { inners[round].send((round, index)) }
                } else if round > 0 {
                    for index in 0..<perInner { inners[round - 1].send((round - 1, perInner + index)) }
                }
            }
        }
        outer.send(completion: .finished)
        inners[rounds - 1].send(completion: .finished)
        var lastSeen = [Int: Int]()
        var ordered = true
        var previousRound = -1
        for (round, index) in probe.values {
            if let last = lastSeen[round], index <= last { ordered = false }
            if round < previousRound { ordered = false }
            lastSeen[round] = index
            previousRound = round
        }
        #expect(ordered)
        #expect(probe.values.filter { $0.1 < perInner }.count == rounds * perInner)
        #expect(probe.overlaps == 0)
        #expect(probe.completions.count == 1)
    }

    /// The book's demo: a failing outer (URLError) of `Just`s needs the overload that gives each
    /// inner the outer's failure type.
    @Test func bookDemoWithFailingOuterAndNeverFailingInners() {
        let subject = PassthroughSubject<Int, Never>()
        var printed: [String] = []
        let cancellable = subject
            .setFailureType(to: URLError.self)
            .map { index -> Just<Int> in Just(index) }
            .switchToLatest()
            .sink(receiveCompletion: { printed.append("Complete: \($0)") }, receiveValue: { value in printed.append("Value: \(value)") })
        for index in 1...5 { subject.send(index) }
        #expect(printed == ["Value: 1", "Value: 2", "Value: 3", "Value: 4", "Value: 5"])
        cancellable.cancel()
    }

    @Test func failureTypeOverloads() {
        let neverOuter = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
        let a: Publishers.SwitchToLatest<PassthroughSubject<Int, TestError>, Publishers.SetFailureType<PassthroughSubject<PassthroughSubject<Int, TestError>, Never>, TestError>> =
            neverOuter.switchToLatest()
        let neverNever = PassthroughSubject<Just<Int>, Never>()
        let b: Publishers.SwitchToLatest<Just<Int>, PassthroughSubject<Just<Int>, Never>> = neverNever.switchToLatest()
        let failingOuter = PassthroughSubject<Just<Int>, TestError>()
        let c: Publishers.SwitchToLatest<Publishers.SetFailureType<Just<Int>, TestError>, Publishers.Map<PassthroughSubject<Just<Int>, TestError>, Publishers.SetFailureType<Just<Int>, TestError>>> =
            failingOuter.switchToLatest()
        let ta = TrackingSubscriber<Int, TestError>(), tb = TrackingSubscriber<Int, Never>(), tc = TrackingSubscriber<Int, TestError>()
        a.subscribe(ta)
        b.subscribe(tb)
        c.subscribe(tc)
        let inner = PassthroughSubject<Int, TestError>()
        neverOuter.send(inner)
        inner.send(1)
        inner.send(completion: .failure(.boom))
        neverNever.send(Just(2))
        failingOuter.send(Just(3))
        failingOuter.send(completion: .failure(.bang))
        #expect(ta.events.dropFirst() == [.value(1), .completion(.failure(.boom))])
        #expect(tb.values == [2])
        #expect(tc.events.dropFirst() == [.value(3), .completion(.failure(.bang))])
    }

    @Test func cancelFromReceiveSubscriptionRequestsNothing() {
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        outer.switchToLatest().subscribe(AnySubscriber<Int, TestError>(receiveSubscription: { $0.cancel() }))
        #expect(outer.calls == [.cancel])
    }

    /// Apple's order (edge spec §7, §8, §14): the subscriber gets the subscription inside
    /// `subscribe`; a publisher sent before the upstream's subscription is ignored; the upstream's
    /// subscriber can be cancelled like the subscription it stands for.
    @Test func subscriptionGoesDownstreamBeforeTheUpstreamSubscribes() {
        let subscription = RecordingSubscription()
        let upstream = LateSubscriptionUpstream<Just<Int>, Never>()
        let tracker = TrackingSubscriber<Int, Never>()
        upstream.switchToLatest().subscribe(tracker)
        #expect(tracker.events == [.subscription("SwitchToLatest")])
        upstream.send(Just(1))
        #expect(tracker.values.isEmpty)
        upstream.send(subscription: subscription)
        #expect(subscription.requests == [.unlimited])
        upstream.send(Just(2))
        #expect(tracker.values == [2])
    }

    @Test func innerValueReturnsTheSubscribersAnswer() {
        // Spec §14 rule 3: the answer goes back through `receive`, not through a separate request.
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let inner = Inner()
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(3), demandAfterValue: { _ in .max(5) })
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        #expect(inner.calls == [.request(.max(3))])
        #expect(inner.send(1) == .max(5))
        #expect(inner.calls == [.request(.max(3))])
    }

    @Test func everyRequestIsForwardedToTheCurrentInner() {
        // Spec §14 rule 2, even after an unlimited request.
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let inner = Inner()
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        #expect(inner.calls.isEmpty, "no demand yet: the new inner is asked for nothing")
        tracker.request(.unlimited)
        tracker.request(.max(1))
        #expect(inner.calls == [.request(.unlimited), .request(.max(1))])
    }

    @Test func valueBeforeTheInnerSubscriptionIsDeliveredWithDemand() {
        // Spec §8: delivered, and the subscriber's answer returned.
        let outer = TestUpstream<LateSubscriptionUpstream<Int, TestError>, TestError>(name: "Outer")
        let inner = LateSubscriptionUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(1), demandAfterValue: { _ in .max(2) })
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        #expect(inner.send(7) == .max(2))
        #expect(tracker.values == [7])
    }

    @Test func finishedInnerIsReleasedNotCancelled() {
        // Spec §14 rule 4.
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let inner = Inner()
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        inner.send(completion: .finished)
        outer.send(Inner())
        #expect(inner.calls == [.request(.unlimited)])
    }

    /// §30: a subscription the current inner sends after it finished, while the upstream still
    /// runs, is ignored: neither cancelled nor asked for anything.
    @Test func aSubscriptionFromTheFinishedInnerIsIgnored() {
        let outer = TestUpstream<LateSubscriptionUpstream<Int, TestError>, TestError>(name: "Outer")
        let inner = LateSubscriptionUpstream<Int, TestError>()
        let tracker = TrackingSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        let first = RecordingSubscription()
        inner.send(subscription: first)
        inner.send(completion: .finished)
        let late = RecordingSubscription()
        inner.send(subscription: late)
        #expect(late.requests.isEmpty)
        #expect(!late.isCancelled)
        #expect(first.requests == [.unlimited])
        #expect(!first.isCancelled)
        #expect(tracker.completions.isEmpty)
        // Later requests do not reach it either.
        tracker.request(.max(1))
        #expect(late.requests.isEmpty)
    }

    /// A value the current inner sends from inside the subscriber, on the delivering thread, is
    /// delivered at once, nested, and the subscriber's answer is returned to it, as Apple's
    /// operator does.
    @Test func aValueSentFromInsideTheSubscriberIsDeliveredNested() {
        let outer = TestUpstream<Inner, TestError>(name: "Outer")
        let inner = Inner()
        var log: [String] = []
        var returned: Subscribers.Demand?
        let tracker = TrackingSubscriber<Int, TestError>(
            initialDemand: .max(2), demandAfterValue: { $0 == 2 ? .max(4) : .none },
            onValue: { value in
                log.append("enter \(value)")
                if value == 1 { returned = inner.send(2) }
                log.append("exit \(value)")
            })
        outer.switchToLatest().subscribe(tracker)
        outer.send(inner)
        #expect(inner.send(1) == .none)
        #expect(log == ["enter 1", "enter 2", "exit 2", "exit 1"])
        #expect(returned == .max(4))
        #expect(inner.calls == [.request(.max(2))], "the answer went back through receive")
    }

    /// A new inner sent from inside the subscriber that has its value at hand (`Just`): the value
    /// is delivered nested too.
    @Test func aNewInnersValueFromInsideTheSubscriberIsDeliveredNested() {
        let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
        var log: [String] = []
        let cancellable = outer.switchToLatest().sink { value in
            log.append("enter \(value)")
            if value == 1 { outer.send(Just(2).eraseToAnyPublisher()) }
            log.append("exit \(value)")
        }
        outer.send(Just(1).eraseToAnyPublisher())
        #expect(log == ["enter 1", "enter 2", "exit 2", "exit 1"])
        var justLog: [String] = []
        let justOuter = PassthroughSubject<Just<Int>, Never>()
        let justCancellable = justOuter.switchToLatest().sink { value in
            justLog.append("enter \(value)")
            if value == 1 { justOuter.send(Just(2)) }
            justLog.append("exit \(value)")
        }
        justOuter.send(Just(1))
        #expect(justLog == ["enter 1", "enter 2", "exit 2", "exit 1"])
        cancellable.cancel()
        justCancellable.cancel()
    }

    @Test func theUpstreamsSubscriberIsTheSubscription() throws {
        // Spec §14 rule 1 and §28: one object, and the inner subscriber names it.
        let outer = SubscriberCapture<SubscriberCapture<Int>>()
        let inner = SubscriberCapture<Int>()
        let tracker = TrackingSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(tracker)
        let subscription = try #require(tracker.subscription)
        #expect((outer.subscriber as AnyObject?) === (subscription as AnyObject))
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        let outerSubscriber = try #require(outer.subscriber as? any Subscriber<SubscriberCapture<Int>, Never>)
        outerSubscriber.receive(subscription: RecordingSubscription())
        _ = outerSubscriber.receive(inner)
        let innerSubscriber = try #require(inner.subscriber)
        let children = Mirror(reflecting: innerSubscriber).children
        #expect(children.map(\.label) == ["parentSubscription"])
        #expect(children.first?.value as? CombineIdentifier == subscription.combineIdentifier)
        #expect(String(describing: innerSubscriber) == "SwitchToLatest")
    }

    @Test func innerValueBeyondDemandTraps() async {
        // Spec §10 rule 3.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = TestUpstream<TestUpstream<Int, Never>, Never>()
            let inner = TestUpstream<Int, Never>()
            outer.switchToLatest().subscribe(TrackingSubscriber<Int, Never>(initialDemand: .max(1)))
            outer.send(inner)
            inner.send(1)
            inner.send(2)
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("switchToLatest received a value from its inner publisher beyond the demand"))
    }

    @Test func innerCompletionBeforeItsSubscriptionTraps() async {
        // Spec §10 rule 5.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = TestUpstream<LateSubscriptionUpstream<Int, Never>, Never>()
            let inner = LateSubscriptionUpstream<Int, Never>()
            outer.switchToLatest().subscribe(TrackingSubscriber<Int, Never>())
            outer.send(inner)
            inner.send(completion: .finished)
        }
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("switchToLatest received a completion from its inner publisher before its subscription"))
    }

    @Test func zeroRequestTrapsEvenAfterACancel() async {
        // Spec §11: Apple checks the demand before anything else.
        await #expect(processExitsWith: .failure) {
            let tracker = TrackingSubscriber<Int, Never>()
            Empty<Just<Int>, Never>(completeImmediately: false).switchToLatest().subscribe(tracker)
            tracker.cancel()
            tracker.subscription?.request(.none)
        }
    }
}

/// Keeps the very subscriber attached to it, unwrapped, so a test can look at its identity and
/// mirror; sends nothing.
private final class SubscriberCapture<Output>: Publisher {
    typealias Failure = Never
    var subscriber: Any?
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        self.subscriber = subscriber
    }
}

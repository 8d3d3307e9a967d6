import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

@Suite("Publishers.Share", .tags(.concurrency))
struct ShareTests {
    @Test func bookSharedRequestRunsOnce() {
        // Kodeco ch. 13: `dataTaskPublisher.map(\.data).print("shared").share()` with two sinks.
        let log = TextLog()
        let upstream = TestUpstream<String, Boom>(name: "DataTaskPublisher")
        let shared = upstream.print("shared", to: log).share()
        var cancellables = Set<AnyCancellable>()
        log.add("subscribing first")
        shared.sink(receiveCompletion: { _ in }, receiveValue: { log.add("subscription1 received: '\($0)'") }).store(in: &cancellables)
        log.add("subscribing second")
        shared.sink(receiveCompletion: { _ in }, receiveValue: { log.add("subscription2 received: '\($0)'") }).store(in: &cancellables)
        upstream.send("303425 bytes")
        upstream.send(completion: .finished)
        #expect(log.lines == [
            "subscribing first",
            "shared: receive subscription: (DataTaskPublisher)",
            "shared: request unlimited",
            "subscribing second",
            "shared: receive value: (303425 bytes)",
            "subscription1 received: '303425 bytes'",
            "subscription2 received: '303425 bytes'",
            "shared: receive finished",
        ])
        #expect(upstream.subscriptionCount == 1)
    }

    @Test func bookLateSubscriberGetsOnlyTheCompletion() {
        let log = TextLog()
        let upstream = TestUpstream<String, Boom>(name: "DataTaskPublisher")
        let shared = upstream.print("shared", to: log).share()
        var cancellables = Set<AnyCancellable>()
        shared.sink(receiveCompletion: { _ in }, receiveValue: { log.add("subscription1 received: '\($0)'") }).store(in: &cancellables)
        upstream.send("303425 bytes")
        upstream.send(completion: .finished)
        log.add("subscribing second")
        shared.sink(
            receiveCompletion: { log.add("subscription2 completion \($0)") },
            receiveValue: { log.add("subscription2 received: '\($0)'") }
        ).store(in: &cancellables)
        #expect(Array(log.lines.suffix(3)) == ["shared: receive finished", "subscribing second", "subscription2 completion finished"])
        #expect(upstream.subscriptionCount == 1)
    }

    @Test func shareOfASynchronousJustLeavesTheSecondSubscriberOnlyTheCompletion() {
        let shared = Just(1).share()
        var first: [Int] = []
        var second: [Int] = []
        var secondCompleted = false
        let a = shared.sink { first.append($0) }
        let b = shared.sink(receiveCompletion: { _ in secondCompleted = true }, receiveValue: { second.append($0) })
        #expect(first == [1])
        #expect(second.isEmpty)
        #expect(secondCompleted)
        _ = (a, b)
    }

    @Test func concurrentSendersLoseAndDuplicateNothing() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let keepers = (0..<3).map { _ in SerializationCheckingSubscriber<Int, Never>() }
        for keeper in keepers { shared.subscribe(keeper) }
        let senders = 4
        let perSender = 1_000
        onThreadsBlocking(senders) { sender in
            for index in 0..<perSender { subject.send(sender * perSender + index) }
        }
        subject.send(completion: .finished)
        for keeper in keepers {
            let exactlyOnce = keeper.values.sorted() == Array(0..<(senders * perSender))
            #expect(exactlyOnce)
            #expect(keeper.overlaps == 0)
            #expect(keeper.completions.count == 1)
        }
    }

    @Test func bookSharedPublishedGivesInitialValueToFirstSubscriberOnly() {
        // Kodeco ch. 19, the colour calculator's `@Published hexText` + `share()`: the current
        // value arrives at connect time, so only the first subscriber sees it.
        final class Model: ObservableObject {
            @Published var hexText = "#"
        }
        let model = Model()
        let shared = model.$hexText.share()
        var first: [String] = []
        var second: [String] = []
        var subscriptions = Set<AnyCancellable>()
        shared.sink { first.append($0) }.store(in: &subscriptions)
        shared.sink { second.append($0) }.store(in: &subscriptions)
        model.hexText = "#0"
        #expect(first == ["#", "#0"])
        #expect(second == ["#0"])
    }

    @Test func lateSubscribersMissEarlierValues() {
        let upstream = TestUpstream<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        upstream.send(1)
        let second = TrackingSubscriber<Int, Never>()
        shared.subscribe(second)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(first.values == [1, 2])
        #expect(second.values == [2])
        #expect(first.completions == [.finished])
        #expect(second.completions == [.finished])
        #expect(upstream.subscriptionCount == 1)
        #expect(upstream.calls == [.request(.unlimited)])
    }

    @Test func lastCancelDisconnectsAndNextSubscriberReconnects() {
        let upstream = TestUpstream<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        #expect(upstream.calls == [.request(.unlimited)])
        second.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        let third = TrackingSubscriber<Int, Never>()
        shared.subscribe(third)
        #expect(upstream.subscriptionCount == 2)
        upstream.send(7)
        #expect(third.values == [7])
        #expect(first.values.isEmpty)
    }

    @Test func failureReachesEverySubscriber() {
        let upstream = TestUpstream<Int, Boom>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Boom>()
        let second = TrackingSubscriber<Int, Boom>()
        shared.subscribe(first)
        shared.subscribe(second)
        upstream.send(completion: .failure(.boom))
        #expect(first.completions == [.failure(.boom)])
        #expect(second.completions == [.failure(.boom)])
    }

    @Test func equatableByIdentity() {
        let upstream = TestUpstream<Int, Never>()
        let a = upstream.share()
        let b = upstream.share()
        #expect(a == a)
        #expect(a != b)
        #expect(a.upstream === upstream)
    }

    @Test func subscriptionDescription() throws {
        let subscriber = TrackingSubscriber<Int, Never>()
        TestUpstream<Int, Never>().share().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Multicast")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Multicast")
        // Spec §28: autoconnect's wrapper has no mirror of its own.
        #expect(!(subscription is CustomReflectable))
    }

    @Test func subscriberHoldingItsSubscriptionIsReleasedAtTheCancelAndAtTheCompletion() {
        // Apple's chain lets go of the subscriber at either end, though it keeps its
        // subscription; the upstream is cancelled when the last one goes (spec §5, §18).
        let upstream = TestUpstream<Int, Never>()
        let shared = upstream.share()
        weak var cancelled: TrackingSubscriber<Int, Never>?
        weak var completed: TrackingSubscriber<Int, Never>?
        do {
            let first = TrackingSubscriber<Int, Never>()
            let second = TrackingSubscriber<Int, Never>()
            cancelled = first
            completed = second
            shared.subscribe(first)
            shared.subscribe(second)
            first.subscription?.cancel()
            upstream.send(completion: .finished)
            #expect(second.completions == [.finished])
        }
        #expect(cancelled == nil)
        #expect(completed == nil)
    }

    @Test func releasedWhenEveryoneCancels() {
        weak var weakShare: Publishers.Share<ReleasingTestUpstream<Int, Never>>?
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let shared = upstream.share()
            weakShare = shared
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            shared.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(1)
            #expect(subscriber.values == [1])
            subscriber.cancel()
        }
        #expect(!upstream.hasSubscriber)
        #expect(weakSubscription == nil)
        _ = weakShare
    }

    @Test func concurrentSubscribeCancelAndSend() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let keeper = SerializationCheckingSubscriber<Int, Never>()
        shared.subscribe(keeper)
        let recorders = (0..<6).map { _ in SerializationCheckingSubscriber<Int, Never>() }
        let count = 3_000
        onThreadsBlocking(recorders.count + 1) { worker in
            if worker == recorders.count {
                for value in 0..<count { subject.send(value) }
                subject.send(completion: .finished)
                return
            }
            let recorder = recorders[worker]
            usleep(UInt32(50 * worker))
            shared.subscribe(recorder)
            if worker.isMultiple(of: 2) { recorder.cancel() }
        }
        let keptAll = keeper.values == Array(0..<count)
        #expect(keptAll)
        #expect(keeper.completions.count == 1)
        for recorder in recorders {
            #expect(recorder.valuesAreConsecutive)
            #expect(recorder.overlaps == 0)
            #expect(recorder.completions.count <= 1)
        }
    }
}

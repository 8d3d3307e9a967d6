import Combine
import CombineTesting
import Testing

@Suite("TestPublisher")
struct TestPublisherTests {
    struct Boom: Error, Equatable {}

    @Test func coldRestartsForEachSubscriber() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a-b|")
        let first = scheduler.record(input)
        scheduler.advance(by: 2)
        let second = scheduler.record(input)
        scheduler.advance(by: 10)
        #expect(first.timedEvents.map(\.time) == [0, 1, 3, 4])
        #expect(second.timedEvents.map(\.time) == [2, 3, 5, 6])
        #expect(first.marbles() == "-a-b|")
        #expect(second.marbles() == "-a-b|")  // drawn from the recorder's own start
        #expect(input.subscriptionCount == 2)
        #expect(input.temperature == .cold)
    }

    @Test func hotPlaysOnceFromCreation() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("a-b-c-|")
        let early = scheduler.record(input)
        scheduler.advance(by: 3)
        let late = scheduler.record(input)
        scheduler.advance(by: 10)
        #expect(early.values == ["a", "b", "c"])
        #expect(late.values == ["c"])
        #expect(late.timedEvents.last == .init(time: 6, .finished))
        let afterCompletion = scheduler.record(input)
        #expect(afterCompletion.events == [.subscription, .finished])
    }

    @Test func hotSkipsFramesBeforeTheSubscriptionPoint() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("ab^-c|")
        let recorder = scheduler.record(input)
        scheduler.run()
        #expect(recorder.timedEvents == [.init(time: 0, .subscription), .init(time: 2, .value("c")), .init(time: 3, .finished)])
    }

    @Test func hotCompletedBeforeTheSubscriptionPoint() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("a|^--")
        let recorder = scheduler.record(input)
        #expect(recorder.events == [.subscription, .finished])
        scheduler.run()
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func hotDropsValuesForSubscribersWithoutDemand() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("abcd|")
        let recorder = scheduler.record(input, initialDemand: .max(1))
        recorder.request(.max(1), at: 2)
        recorder.request(.max(1), at: 3)
        scheduler.run()
        // The hot publisher scheduled its events when it was made, before these requests, so at
        // tick 2 `c` is played (and dropped, no demand) before the request of tick 2 runs; that
        // demand takes `d` at tick 3, and the request of tick 3 finds nothing left but `|`.
        #expect(recorder.values == ["a", "d"])
        #expect(recorder.completion == .finished)
    }

    @Test func coldBuffersValuesAndCompletionUntilDemand() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("ab#", error: Boom())
        let recorder = scheduler.record(input, initialDemand: .none)
        scheduler.advance(by: 5)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value("a")])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value("a"), .value("b"), .failure(Boom())])
    }

    @Test func valuesDictionaryAndFrameDuration() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-x-y|", values: ["x": 10, "y": 20], frameDuration: .milliseconds(100))
        let recorder = scheduler.record(input)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [10, 20])
        #expect(recorder.timedEvents[1].time == .init(ticks: 100_000_000))
        #expect(recorder.marbles(values: ["x": 10, "y": 20], frameDuration: .milliseconds(100)) == "-x-y|")
    }

    @Test func cancellationReleasesTheSubscriber() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("a-b-c|")
        weak var weakRecorder: RecordingSubscriber<String, Never>?
        do {
            let recorder = scheduler.record(input)
            weakRecorder = recorder
            scheduler.advance(by: 1)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        scheduler.run()
        #expect(input.calls.map(\.element) == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func completionReleasesTheSubscriber() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("a|")
        weak var weakRecorder: RecordingSubscriber<String, Never>?
        do {
            let recorder = scheduler.record(input)
            weakRecorder = recorder
            scheduler.run()
            #expect(recorder.completion == .finished)
        }
        #expect(weakRecorder == nil)
    }

    @Test func reentrantRequestDuringDeliveryKeepsOrder() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("(abc)|")
        let recorder = scheduler.record(input, initialDemand: .max(1), demandPerValue: .max(1))
        scheduler.run()
        #expect(recorder.marbles() == "(abc)|")
    }
}

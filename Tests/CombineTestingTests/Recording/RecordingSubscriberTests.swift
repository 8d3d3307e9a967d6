import Combine
import CombineTesting
import Testing

@Suite("RecordingSubscriber")
struct RecordingSubscriberTests {
    struct Boom: Error, Equatable {}

    @Test func recordsEveryEventWithItsTime() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a--b|", error: Boom())
        let recorder = scheduler.record(input)
        scheduler.advance(by: 10)
        #expect(
            recorder.timedEvents == [
                .init(time: 0, .subscription),
                .init(time: 1, .value("a")),
                .init(time: 4, .value("b")),
                .init(time: 5, .finished),
            ])
        #expect(recorder.values == ["a", "b"])
        #expect(recorder.completion == .finished)
        #expect(recorder.isSubscribed)
        #expect(recorder.demands == [.init(time: 0, .unlimited)])
        #expect(recorder.events == [.subscription, .value("a"), .value("b"), .finished])
    }

    @Test func controllableDemandShowsBackPressure() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("abcde|")
        let recorder = scheduler.record(input, initialDemand: .max(1))
        recorder.request(.max(2), at: 3)
        recorder.request(.unlimited, at: 8)
        scheduler.advance(by: 10)
        // Values wait in the cold publisher until demand arrives.
        #expect(
            recorder.timedEvents == [
                .init(time: 0, .subscription),
                .init(time: 0, .value("a")),
                .init(time: 3, .value("b")),
                .init(time: 3, .value("c")),
                .init(time: 8, .value("d")),
                .init(time: 8, .value("e")),
                .init(time: 8, .finished),
            ])
        #expect(recorder.demands == [.init(time: 0, .max(1)), .init(time: 3, .max(2)), .init(time: 8, .unlimited)])
        #expect(recorder.totalDemand == .unlimited)
        #expect(input.calls == [
            .init(time: 0, .subscribe), .init(time: 0, .request(.max(1))),
            .init(time: 3, .request(.max(2))), .init(time: 8, .request(.unlimited)),
        ])
    }

    @Test func demandPerValueIsRecorded() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a-b-c")
        let recorder = scheduler.record(input, initialDemand: .max(1), demandPerValue: .max(1))
        scheduler.advance(by: 6)
        #expect(recorder.values == ["a", "b", "c"])
        #expect(recorder.demands.map(\.time) == [0, 1, 3, 5])
    }

    @Test func noInitialDemandMeansNothingArrives() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("ab|")
        let recorder = scheduler.record(input, initialDemand: .none)
        scheduler.advance(by: 5)
        #expect(recorder.events == [.subscription])
        #expect(recorder.demands.isEmpty)
        recorder.request(.max(5))
        #expect(recorder.events == [.subscription, .value("a"), .value("b"), .finished])
    }

    @Test func cancelAtAVirtualTime() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("a-b-c-d|")
        let recorder = scheduler.record(input)
        recorder.cancel(at: 3)
        scheduler.advance(by: 10)
        #expect(recorder.values == ["a", "b"])
        #expect(recorder.isCancelled)
        #expect(recorder.completion == nil)
        #expect(input.calls.last == .init(time: 3, .cancel))
        recorder.request(.max(1))  // after cancel: ignored, not recorded
        #expect(recorder.demands.count == 1)
    }

    @Test func failureIsRecorded() throws {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(try scheduler.coldPublisher("a#", error: Boom()))
        scheduler.advance(by: 2)
        #expect(recorder.completion == .failure(Boom()))
        #expect(recorder.recording == Recording(events: [
            .init(time: 0, .subscription), .init(time: 0, .value("a")), .init(time: 1, .failure(Boom())),
        ], demands: [.init(time: 0, .unlimited)]))
    }

    @Test func descriptionListsEventsOnePerLine() throws {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(try scheduler.coldPublisher("-a|"))
        scheduler.advance(by: 3)
        #expect(recorder.description == "t=0 subscription\nt=1 value(a)\nt=2 finished\ndemands: unlimited@t=0")
    }

    @Test func recordsSubjectsToo() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = scheduler.record(subject)
        scheduler.schedule(after: 2) { subject.send(1) }
        scheduler.schedule(after: 5) { subject.send(completion: .finished) }
        scheduler.run()
        #expect(recorder.marbles() == "--1--|")
    }
}

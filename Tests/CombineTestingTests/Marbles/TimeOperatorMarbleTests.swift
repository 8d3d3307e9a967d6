import Combine
import CombineTesting
import Testing

/// Combine's time operators seen through marble diagrams: one character per tick of a
/// `TestScheduler`. These tests exercise the toolkit end to end (hot and cold test publishers,
/// recorders, rendering) on the operators it was built for.
@Suite("Time operators as marbles")
struct TimeOperatorMarbleTests {
    struct Boom: Error, Equatable {}

    @Test func debounceLetsTheLatestValueThroughAfterAQuietPeriod() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("-a--b-----")
        let recorder = scheduler.record(input.debounce(for: 2, scheduler: scheduler))
        scheduler.advance(by: 10)
        expectMarbles(recorder.marbles(), "---a--b---")
    }

    @Test func debounceDropsAValueThatIsInterruptedAndOneCutShortByCompletion() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("ab-c---d-|")
        let recorder = scheduler.record(input.debounce(for: 2, scheduler: scheduler))
        scheduler.advance(by: 12)
        // `b`'s quiet period ends at tick 3, when `c` arrives. The cold publisher scheduled `c` at
        // subscription, before debounce scheduled `b`'s deadline, so by the scheduler's FIFO rule
        // `c` comes first and replaces `b`. Likewise `|` at tick 9 beats `d`'s deadline, and
        // debounce drops a waiting value on completion.
        expectMarbles(recorder.marbles(), "-----c---|")
    }

    @Test func throttleLatestTrue() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("abc-d-----e")
        let recorder = scheduler.record(input.throttle(for: 3, scheduler: scheduler, latest: true))
        scheduler.advance(by: 12)
        expectMarbles(recorder.marbles(), "a--c--d---e")
    }

    @Test func throttleLatestFalse() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("abc-d-----e")
        let recorder = scheduler.record(input.throttle(for: 3, scheduler: scheduler, latest: false))
        scheduler.advance(by: 12)
        expectMarbles(recorder.marbles(), "a--b--d---e")
    }

    @Test func delayShiftsValuesAndCompletion() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a-b|")
        let recorder = scheduler.record(input.delay(for: 2, scheduler: scheduler))
        scheduler.advance(by: 10)
        expectMarbles(recorder.marbles(), "---a-b|")
    }

    @Test func delayInRealUnitsWithAFrameDuration() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a-b|", frameDuration: .milliseconds(100))
        let recorder = scheduler.record(input.delay(for: .milliseconds(200), scheduler: scheduler))
        scheduler.advance(by: .seconds(1))
        expectMarbles(recorder.marbles(frameDuration: .milliseconds(100)), "---a-b|")
    }

    @Test func timeoutFinishesAfterSilence() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a-----b")
        let recorder = scheduler.record(input.timeout(3, scheduler: scheduler))
        scheduler.advance(by: 10)
        expectMarbles(recorder.marbles(), "-a--|")
        #expect(input.calls.last == .init(time: 4, .cancel))
    }

    @Test func timeoutFailsWithTheCustomError() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a-----b", error: Boom())
        let recorder = scheduler.record(input.timeout(3, scheduler: scheduler, customError: { Boom() }))
        scheduler.advance(by: 10)
        expectMarbles(recorder.marbles(), "-a--#")
        #expect(recorder.completion == .failure(Boom()))
    }

    @Test func measureIntervalReportsTheGaps() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("-a--b-c|")
        let recorder = scheduler.record(input.measureInterval(using: scheduler))
        scheduler.advance(by: 10)
        #expect(recorder.values == [1, 3, 2])
        expectMarbles(recorder.marbles { Character(String($0.ticks)) }, "-1--3-2|")
    }

    @Test func collectByTimeGroupsPerWindow() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("ab--de-g|")
        let recorder = scheduler.record(input.collect(.byTime(scheduler, 3)))
        scheduler.advance(by: 12)
        #expect(recorder.values == [["a", "b"], ["d", "e"], ["g"]])
        expectMarbles(recorder.marbles { Character(String($0.count)) }, "---2--2-(1|)")
    }

    @Test func collectByTimeOrCountFlushesFullGroupsEarly() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("abc-d---|")
        let recorder = scheduler.record(input.collect(.byTimeOrCount(scheduler, 5, 2)))
        scheduler.advance(by: 12)
        #expect(recorder.values == [["a", "b"], ["c", "d"]])
    }

    @Test func backPressureThroughDelay() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.coldPublisher("abc|")
        let recorder = scheduler.record(input.delay(for: 1, scheduler: scheduler), initialDemand: .max(1))
        recorder.request(.max(2), at: 5)
        scheduler.advance(by: 10)
        expectMarbles(recorder.marbles(), "-a----(bc|)")
        #expect(input.calls.map(\.element) == [.subscribe, .request(.max(1)), .request(.max(2))])
    }
}

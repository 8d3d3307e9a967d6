import Combine
import CombineTesting
import Testing

/// The `shareReplay` example of the "Testing Combine code" article (module CombineTesting), run
/// against the book's own operator in this target.
@Suite("ShareReplay as marbles (article)")
struct ShareReplayMarbleTests {
    @Test func shareReplay() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.hotPublisher("0-1-2---3", values: ["0": 0, "1": 1, "2": 2, "3": 3])
        let shared = source.shareReplay(capacity: 2)

        let first = scheduler.record(shared)
        scheduler.advance(to: 6)
        let second = scheduler.record(shared)
        scheduler.advance(to: 10)

        #expect(first.marbles() == "0-1-2---3")
        #expect(second.marbles() == "(12)-3")
        #expect(first.timedEvents.last == .init(time: 8, .value(3)))
        #expect(second.timedEvents.last == .init(time: 8, .value(3)))
    }
}

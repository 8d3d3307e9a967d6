import Combine
import CombineTesting
import Testing

/// The examples of the "Testing Combine code" article, compiled and run, so the article cannot
/// drift from the toolkit. (Examples needing operators that have not landed yet are added as
/// they land.)
@Suite("Testing Combine code (article)")
struct TestingCombineCodeArticleTests {
    @Test func collect() {
        let values = [0, 1, 2]

        let output = values.publisher.collect().record()

        #expect(output == PublisherOutput(values: [[0, 1, 2]], completion: .finished))
    }

    @Test func timerTicks() {
        let scheduler = TestScheduler()
        let ticks = PassthroughSubject<TestScheduler.SchedulerTimeType, Never>()
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: .milliseconds(500)),
            interval: .milliseconds(500)
        ) {
            ticks.send(scheduler.now)
        }
        defer { timer.cancel() }

        let recorder = scheduler.record(ticks.prefix(3))
        scheduler.advance(by: .seconds(2))

        #expect(recorder.values.map(\.ticks) == [500_000_000, 1_000_000_000, 1_500_000_000])
        #expect(recorder.completion == .finished)
    }

    @Test func timerTicksAsMarbles() throws {
        let scheduler = TestScheduler()
        let ticks = try scheduler.hotPublisher("-----t----t----t----t", frameDuration: .milliseconds(100))

        let recorder = scheduler.record(ticks.prefix(3))
        scheduler.advance(by: .seconds(2))

        expectMarbles(recorder.marbles(frameDuration: .milliseconds(100)), "-----t----t----(t|)")
    }

    @Test func demandControlsDelivery() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.coldPublisher("abcd|")

        let recorder = scheduler.record(upstream, initialDemand: .max(1))
        recorder.request(.max(2), at: 3)
        scheduler.advance(by: 5)

        #expect(recorder.values == ["a", "b", "c"])
        #expect(recorder.demands == [.init(time: 0, .max(1)), .init(time: 3, .max(2))])
    }
}

import Combine
import CombineTesting
import Foundation
import Testing
import Tributary

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

    @Test func flatMapWithMaxTwoPublishers() {
        let scheduler = TestScheduler()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let third = PassthroughSubject<Int, Never>()
        let publishers = CurrentValueSubject<PassthroughSubject<Int, Never>, Never>(first)

        let recorder = scheduler.record(publishers.flatMap(maxPublishers: .max(2)) { $0 })

        first.send(1)
        publishers.send(second)
        second.send(2)
        publishers.send(third)  // over the limit: flatMap has no demand left for it
        third.send(3)  // so nobody is subscribed to `third`, and 3 is lost
        second.send(4)
        publishers.send(completion: .finished)

        #expect(recorder.values == [1, 2, 4])
        #expect(recorder.completion == nil)  // the inner subjects are still open
    }

    @Test func flatMapAsksUpstreamForExactlyTwoPublishers() throws {
        let scheduler = TestScheduler()
        let inner = try scheduler.coldPublisher("a|")
        let upstream = try scheduler.coldPublisher("xyz|", values: ["x": inner, "y": inner, "z": inner])

        let recorder = scheduler.record(upstream.flatMap(maxPublishers: .max(2)) { $0 })
        scheduler.advance(by: 10)

        #expect(upstream.calls.prefix(2).map(\.element) == [.subscribe, .request(.max(2))])
        #expect(recorder.values == ["a", "a", "a"])  // each finished inner frees a slot
        #expect(recorder.completion == .finished)
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

    @Test func debounce() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hotPublisher("-a--b-----")

        let recorder = scheduler.record(input.debounce(for: 2, scheduler: scheduler))
        scheduler.advance(by: 10)

        expectMarbles(recorder.marbles(), "---a--b---")
    }

    final class SearchModel {
        typealias Queue = AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
        let query = PassthroughSubject<String, Never>()
        let results: AnyPublisher<String, Never>

        init(scheduler: Queue = DispatchQueue.main.eraseToAnyScheduler()) {
            results = query.debounce(for: .milliseconds(300), scheduler: scheduler).eraseToAnyPublisher()
        }
    }

    @Test func searchWaitsForTheUserToStopTyping() {
        let scheduler = VirtualTimeScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
            now: .init(.init(uptimeNanoseconds: 1))
        )
        let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
        var results: [String] = []
        let subscription = model.results.sink { results.append($0) }
        defer { subscription.cancel() }

        model.query.send("co")
        scheduler.advance(by: .milliseconds(100))
        model.query.send("combine")
        scheduler.advance(by: .milliseconds(299))
        #expect(results == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(results == ["combine"])
    }
}

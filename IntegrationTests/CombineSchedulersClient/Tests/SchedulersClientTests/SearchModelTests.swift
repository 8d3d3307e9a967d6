#if canImport(Combine)
import Combine
#endif
import CombineSchedulers
import Foundation
import SchedulersClient
import XCTest

/// Smoke test: combine-schedulers' `TestScheduler` drives Tributary's `debounce` and `delay`.
final class SearchModelTests: XCTestCase {
    func testDebounceAndDelayOnCombineSchedulersTestScheduler() {
        let scheduler = DispatchQueue.test
        let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler())

        model.type("h")
        scheduler.advance(by: .milliseconds(100))
        model.type("he")
        scheduler.advance(by: .milliseconds(100))
        model.type("hel")
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(model.searches, [])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(model.searches, ["hel"])
        XCTAssertEqual(model.responses, [])
        scheduler.advance(by: .milliseconds(100))
        XCTAssertEqual(model.responses, ["results for hel"])

        model.type("hello")
        scheduler.run()
        XCTAssertEqual(model.searches, ["hel", "hello"])
        XCTAssertEqual(model.responses, ["results for hel", "results for hello"])
    }

    func testImmediateSchedulerFromCombineSchedulers() {
        let model = SearchModel(scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
        model.type("now")
        XCTAssertEqual(model.searches, ["now"])
        XCTAssertEqual(model.responses, ["results for now"])
    }

    func testTimerPublisherFromCombineSchedulers() {
        let scheduler = DispatchQueue.test
        var ticks = 0
        // combine-schedulers' own connectable timer; connected by hand (`autoconnect()` is not in
        // this build of Tributary yet).
        let timer = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
        let cancellable = timer.sink { _ in ticks += 1 }
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(ticks, 3)
        connection.cancel()
        cancellable.cancel()
    }
}

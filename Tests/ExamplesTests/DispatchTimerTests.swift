import Combine
import Dispatch
@testable import ExamplesCatalogue
import Foundation
import Testing

/// The book's `DispatchTimer` runs on real dispatch time, so instead of comparing its console
/// text, this checks its behaviour with short intervals: exactly `times` ticks, then `finished`;
/// and cancelling stops it.
@Suite("DispatchTimer")
struct DispatchTimerTests {
    final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var values = 0
        var finished = false
    }

    @Test func emitsTheConfiguredNumberOfTicksThenFinishes() async throws {
        let recorder = Recorder()
        let cancellable = Publishers.timer(interval: .milliseconds(20), times: .max(6))
            .sink(
                receiveCompletion: { _ in recorder.lock.withLock { recorder.finished = true } },
                receiveValue: { _ in recorder.lock.withLock { recorder.values += 1 } }
            )
        for _ in 0..<100 where !recorder.lock.withLock({ recorder.finished }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(100))
        recorder.lock.withLock {
            #expect(recorder.values == 6)
            #expect(recorder.finished)
        }
        cancellable.cancel()
    }

    @Test func cancellingStopsTheTicks() async throws {
        let recorder = Recorder()
        let cancellable = Publishers.timer(interval: .milliseconds(40), times: .max(6))
            .sink(receiveValue: { _ in recorder.lock.withLock { recorder.values += 1 } })
        try await Task.sleep(for: .milliseconds(140))
        cancellable.cancel()
        let atCancel = recorder.lock.withLock { recorder.values }
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.lock.withLock { recorder.values } == atCancel)
        #expect(atCancel < 6)
    }
}

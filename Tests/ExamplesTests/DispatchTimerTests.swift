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
        // The subscriber cancels its own subscription on the second tick, so the test does not
        // depend on how quickly a loaded machine wakes the test task.
        let holder = CancellableHolder()
        holder.cancellable = Publishers.timer(interval: .milliseconds(30), times: .max(6))
            .sink(receiveValue: { _ in
                let count = recorder.lock.withLock { () -> Int in recorder.values += 1; return recorder.values }
                if count == 2 { holder.cancel() }
            })
        for _ in 0..<400 where recorder.lock.withLock({ recorder.values }) < 2 {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(recorder.lock.withLock { recorder.values } == 2)
    }

    final class CancellableHolder: @unchecked Sendable {
        let lock = NSLock()
        var cancellable: AnyCancellable? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
        private var stored: AnyCancellable?
        func cancel() { cancellable?.cancel() }
    }
}

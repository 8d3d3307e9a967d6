// The plain baselines: the same work as some of the workloads, done without a reactive library,
// under the same names, so the report shows how far above the floor each library is. Only the
// rows whose work has an obvious library-free form are here:
// - 2a: a value handed to a closure kept in an object (what a subject's send must do at least);
// - 9c: an `@Observable` property set, then read again under `withObservationTracking` at the
//   next turn (`PlainObservationLoop`: what any Combine bridge over Observation pays at least);
// - 10: an `AsyncStream` consumed by one task, values yielded by the benchmark's thread;
// - 11a, 11b: threads handing values to one closure under one lock (a send serialised by a lock);
// - 12: one `DispatchQueue.async` per value on a serial queue, then a `sync` (what a
//   `receive(on:)` that schedules each value as its own action pays to Dispatch alone).

import Benchmark
import Foundation

let baselineConfiguration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 1_000
)

/// A closure kept in an object and called through a method the optimiser cannot see into, as a
/// subject keeps and calls its subscriber.
final class PlainRelay: @unchecked Sendable {
    let receive: (Int) -> Void
    let lock = NSLock()

    init(_ receive: @escaping (Int) -> Void) { self.receive = receive }

    @inline(never)
    func send(_ value: Int) { receive(value) }

    @inline(never)
    func sendLocked(_ value: Int) {
        lock.lock()
        receive(value)
        lock.unlock()
    }
}

/// A running total written only under the relay's lock or on the serial queue.
final class PlainTotal: @unchecked Sendable {
    var sum = 0
}

let benchmarks: @Sendable () -> Void = {
    Benchmark("2a PassthroughSubject→sink", configuration: baselineConfiguration) { benchmark in
        var sum = 0
        let relay = PlainRelay { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { relay.send(value) }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    Benchmark("9c observable property set → sink", configuration: baselineConfiguration) { benchmark in
        let loop = PlainObservationLoop(ObservableModel())
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            loop.model.count = value &+ 1
            loop.drain()
        }
        benchmark.stopMeasurement()
        blackHole(loop.sum)
    }

    Benchmark("10 values (async consumer)", configuration: baselineConfiguration) { benchmark in
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        benchmark.startMeasurement()
        let consumer = Task {
            var sum = 0
            for await value in stream { sum &+= value }
            return sum
        }
        for value in benchmark.scaledIterations { continuation.yield(value) }
        continuation.finish()
        blackHole(await consumer.value)
    }

    for senders in [2, 4] {
        let name = senders == 2 ? "11a 2 threads → one PassthroughSubject" : "11b 4 threads → one PassthroughSubject"
        Benchmark(name, configuration: baselineConfiguration) { benchmark in
            let total = PlainTotal()
            let relay = PlainRelay { total.sum &+= $0 }
            let perThread = benchmark.scaledIterations.count / senders
            benchmark.startMeasurement()
            onThreads(senders) { _ in
                for value in 0..<perThread { relay.sendLocked(value) }
            }
            benchmark.stopMeasurement()
            blackHole(total.sum)
        }
    }

    Benchmark("12 subject→receive(on: DispatchQueue)→sink", configuration: baselineConfiguration) { benchmark in
        let queue = DispatchQueue(label: "receive-on")
        let total = PlainTotal()
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { queue.async { total.sum &+= value } }
        queue.sync {}
        benchmark.stopMeasurement()
        blackHole(total.sum)
    }
}

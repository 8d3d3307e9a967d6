// The benchmark workloads, written once and compiled twice: against Tributary's `Combine` and,
// with the `OPENCOMBINE` condition, against OpenCombine 0.14.0. Every workload processes
// `benchmark.scaledIterations` values (or subscriptions), so with `scalingFactor: .kilo` the
// reported figures are per 1 000 values; divide by 1 000 for the cost of one.

import Benchmark
import Foundation
#if OPENCOMBINE
import OpenCombine
#else
import Combine
import Tributary
#endif

/// The allocation regression guard (`Scripts/check-thresholds`): a run may allocate at most 100
/// more than the p90 recorded in `Thresholds/` per iteration of 1 000 values, i.e. 0.1 per value.
/// One extra allocation per value (1 000 per iteration) fails; run-to-run noise (the benchmark
/// harness, the async workload's task) stays well inside.
let mallocThresholds: [BenchmarkMetric: BenchmarkThresholds] = [
    .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 100])
]

let valueConfiguration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 1_000,
    thresholds: mallocThresholds
)

/// Guards against the two targets accidentally linking the same library (both modules spell
/// their types the same way).
func checkLibrary() {
    let typeName = String(reflecting: PassthroughSubject<Int, Never>.self)
    #if OPENCOMBINE
    let expected = "OpenCombine.PassthroughSubject<Swift.Int, Swift.Never>"
    #else
    let expected = "Combine.PassthroughSubject<Swift.Int, Swift.Never>"
    #endif
    if typeName != expected {
        fatalError("Benchmark target \(library) runs \(typeName), expected \(expected)")
    }
}

/// The failure type of workload 13, whose subject never actually fails.
struct WorkloadError: Error {}

/// A value with a stored property for the key-path row to read.
struct Reading {
    var value: Int
    var unit: String
}

final class Model: ObservableObject {
    @Published var count = 0
}

/// A subscriber's running total, written only by the subscriber (whose calls are serialised).
final class Total: @unchecked Sendable {
    var sum = 0
}

let benchmarks: @Sendable () -> Void = {
    checkLibrary()

    // 1. Sequence publisher → map → filter → sink.
    Benchmark("1a sequence→map→filter→sink", configuration: valueConfiguration) { benchmark in
        let input = Array(benchmark.scaledIterations)
        benchmark.startMeasurement()
        var sum = 0
        _ = input.publisher.map { $0 &* 3 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
        blackHole(sum)
    }

    Benchmark("1b erased sequence→map→filter→sink", configuration: valueConfiguration) { benchmark in
        let input = Array(benchmark.scaledIterations)
        benchmark.startMeasurement()
        var sum = 0
        _ = input.publisher.eraseToAnyPublisher().map { $0 &* 3 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
        blackHole(sum)
    }

    // 2. Subjects.
    Benchmark("2a PassthroughSubject→sink", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("2b PassthroughSubject→10 sinks", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellables = (0..<10).map { _ in subject.sink { sum &+= $0 } }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellables.forEach { $0.cancel() }
        blackHole(sum)
    }

    Benchmark("2c CurrentValueSubject→sink", configuration: valueConfiguration) { benchmark in
        let subject = CurrentValueSubject<Int, Never>(0)
        var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("2d PassthroughSubject→map→filter→sink", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { $0 &* 3 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("2e PassthroughSubject→AnyPublisher→sink", configuration: valueConfiguration) { benchmark in
        // The view-model shape: a subject kept private and handed out erased.
        let subject = PassthroughSubject<Int, Never>()
        let erased = subject.eraseToAnyPublisher()
        var sum = 0
        let cancellable = erased.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    // 3. Ten chained maps.
    Benchmark("3a 10 maps (fusable)", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject
            .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
            .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
            .sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("3b 10 maps, erased between", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        var chain = subject.eraseToAnyPublisher()
        for _ in 0..<10 { chain = chain.map { $0 &+ 1 }.eraseToAnyPublisher() }
        let cancellable = chain.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("3c key-path map of a struct field", configuration: valueConfiguration) { benchmark in
        // A key path to a stored property, as in `.map(\.data)` after a data task.
        let subject = PassthroughSubject<Reading, Never>()
        var sum = 0
        let cancellable = subject.map(\.value).sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(Reading(value: value, unit: "m")) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    // 4. flatMap: N/10 outer values, each an inner sequence of 10.
    Benchmark("4 flatMap (10 inner values each)", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let inner = Array(0..<10)
        var sum = 0
        let cancellable = subject.flatMap { base in inner.publisher.map { base &+ $0 } }.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<(benchmark.scaledIterations.count / 10) { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("4b map{Just}→switchToLatest", configuration: valueConfiguration) { benchmark in
        // The search-field shape: each value starts a new inner publisher that replaces the last.
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { Just($0 &* 2) }.switchToLatest().sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("4c flatMap{Just}", configuration: valueConfiguration) { benchmark in
        // Every value turned into a publisher of one value and merged back. Tributary's `flatMap`
        // hands a `Just`'s value over without subscribing to it when it can deliver at once;
        // OpenCombine opens, drains and closes one inner subscription per value.
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.flatMap { Just($0 &* 2) }.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("4d flatMap{Deferred{Just}}", configuration: valueConfiguration) { benchmark in
        // The same values through an inner publisher that has to be subscribed to (`Deferred`
        // hides the `Just`): one inner subscription per value, opened, drained and closed.
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.flatMap { value in Deferred { Just(value &* 2) } }.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("4e map{Deferred{Just}}→switchToLatest", configuration: valueConfiguration) { benchmark in
        // 4b through an inner publisher that has to be subscribed to, as a search field's
        // requests are: each value switches to a new inner subscription and cancels none (the
        // last inner has finished by then).
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { value in Deferred { Just(value &* 2) } }.switchToLatest()
            .sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    // 5. Combining two subjects.
    #if OPENCOMBINE
    print("OpenCombine 0.14.0 has no merge or combineLatest: workloads 5a and 5b run on Tributary only.")
    #else
    Benchmark("5a merge of 2 subjects", configuration: valueConfiguration) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = left.merge(with: right).sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    Benchmark("5b combineLatest of 2 subjects", configuration: valueConfiguration) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = left.combineLatest(right).sink { sum &+= $0.0 &+ $0.1 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }
    #endif

    Benchmark("5c zip of 2 subjects (alternating)", configuration: valueConfiguration) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = left.zip(right).sink { sum &+= $0.0 &+ $0.1 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    // 6. Cost per subscription.
    Benchmark("6a subject subscribe+cancel churn", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let cancellable = subject.sink { blackHole($0) }
            cancellable.cancel()
        }
    }

    Benchmark("6b Just(v).sink churn", configuration: valueConfiguration) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            _ = Just(value).sink { sum &+= $0 }
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    Benchmark("6c Future churn", configuration: valueConfiguration) { benchmark in
        // A callback API wrapped in a Future, fulfilled at once, then subscribed to.
        var sum = 0
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            _ = Future<Int, Never> { promise in promise(.success(value)) }.sink { sum &+= $0 }
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    // 7. scan → removeDuplicates → collect(100).
    Benchmark("7 scan→removeDuplicates→collect(100)", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var count = 0
        let cancellable = subject
            .scan(0) { $0 &+ ($1 & 3 == 0 ? 0 : 1) }
            .removeDuplicates()
            .collect(100)
            .sink { count &+= $0.count }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(count)
    }

    // 8. receive(on: ImmediateScheduler).
    Benchmark("8 subject→receive(on: Immediate)→sink", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    // 9. @Published → objectWillChange + $property sinks.
    Benchmark("9 @Published set → objectWillChange + $count", configuration: valueConfiguration) { benchmark in
        let model = Model()
        var changes = 0
        var sum = 0
        let willChange = model.objectWillChange.sink { changes &+= 1 }
        let values = model.$count.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { model.count = value }
        benchmark.stopMeasurement()
        willChange.cancel()
        values.cancel()
        blackHole(changes &+ sum)
    }

    Benchmark("9b objectWillChange.send()", configuration: valueConfiguration) { benchmark in
        // A view model announcing a change itself (state that is not `@Published`): each call
        // reads the synthesised `objectWillChange`, then sends through it to one subscriber.
        let model = Model()
        var changes = 0
        let willChange = model.objectWillChange.sink { changes &+= 1 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { model.objectWillChange.send() }
        benchmark.stopMeasurement()
        willChange.cancel()
        blackHole(changes)
    }

    // 9c. The same set on an `@Observable` model, published with Tributary's
    // `publisher(for:on:)`: each change reports itself from its `willSet`, the read (which tracks
    // the property again) runs on the scheduler's next turn, and the value goes to the sink.
    #if OPENCOMBINE
    print("OpenCombine 0.14.0 has no Observation bridge: workload 9c runs on Tributary only.")
    #else
    Benchmark("9c observable property set → sink", configuration: valueConfiguration) { benchmark in
        let model = ObservableModel()
        let scheduler = TurnScheduler()
        var sum = 0
        let values = model.publisher(for: \.count, on: scheduler).sink { sum &+= $0 }
        benchmark.startMeasurement()
        // `&+ 1`: an `@Observable` property assigned its current value reports no change.
        for value in benchmark.scaledIterations {
            model.count = value &+ 1
            scheduler.drain()
        }
        benchmark.stopMeasurement()
        values.cancel()
        blackHole(sum)
    }
    #endif

    // 10. values: one task consuming a subject's values. A buffer that prefetches everything sits
    // in front, so no value is dropped while the consumer is between two `next()` calls.
    Benchmark("10 values (async consumer)", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let count = benchmark.scaledIterations.count
        let (ready, signalReady) = AsyncStream<Void>.makeStream()
        let publisher = subject
            .handleEvents(receiveRequest: { _ in signalReady.yield() })
            .buffer(size: count, prefetch: .keepFull, whenFull: .dropNewest)
        benchmark.startMeasurement()
        let consumer = Task {
            var sum = 0
            for await value in publisher.values { sum &+= value }
            return sum
        }
        var readiness = ready.makeAsyncIterator()
        _ = await readiness.next()
        for value in benchmark.scaledIterations { subject.send(value) }
        subject.send(completion: .finished)
        blackHole(await consumer.value)
    }

    // 11. Contention: threads sending into one subject at once (a delivery at a time; a thread
    // that sends while another delivers waits for its value to be delivered).
    for senders in [2, 4] {
        let name = senders == 2 ? "11a 2 threads → one PassthroughSubject" : "11b 4 threads → one PassthroughSubject"
        Benchmark(name, configuration: valueConfiguration) { benchmark in
            let subject = PassthroughSubject<Int, Never>()
            let total = Total()
            let cancellable = subject.sink { total.sum &+= $0 }
            let perThread = benchmark.scaledIterations.count / senders
            benchmark.startMeasurement()
            onThreads(senders) { _ in
                for value in 0..<perThread { subject.send(value) }
            }
            benchmark.stopMeasurement()
            cancellable.cancel()
            blackHole(total.sum)
        }
    }

    // 12. receive(on: DispatchQueue): every value is its own `schedule(options:_:)` call on a serial
    // queue. The measurement ends when the queue has run every delivery (a `sync` on the queue
    // after the last send), equally for both libraries.
    Benchmark("12 subject→receive(on: DispatchQueue)→sink", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let queue = DispatchQueue(label: "receive-on")
        let total = Total()
        let cancellable = subject.receive(on: dispatchScheduler(queue)).sink { total.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        queue.sync {}
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(total.sum)
    }

    // 13. The error-handling tail of a request pipeline (`handleEvents` → `catch` → `map`), fed
    // by a subject that never fails: the cost of operators whose stages keep state per subscriber.
    Benchmark("13 subject→handleEvents→catch→map→sink", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, WorkloadError>()
        var sum = 0
        let cancellable = subject
            .handleEvents(receiveOutput: { _ in })
            .catch { _ in Just(-1) }
            .map { $0 &+ 1 }
            .sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sum)
    }

    // 14. `share()`: one subject's values to two subscribers through the shared stage's own subject.
    Benchmark("14 subject→share→2 sinks", configuration: valueConfiguration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let shared = subject.share()
        let first = shared.sink { sum &+= $0 }
        let second = shared.map { $0 &* 2 }.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        first.cancel()
        second.cancel()
        blackHole(sum)
    }

    #if !OPENCOMBINE
    Benchmark("11c merge of 2 subjects, one thread each", configuration: valueConfiguration) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let total = Total()
        let cancellable = left.merge(with: right).sink { total.sum &+= $0 }
        let perThread = benchmark.scaledIterations.count / 2
        benchmark.startMeasurement()
        onThreads(2) { index in
            let subject = index == 0 ? left : right
            for value in 0..<perThread { subject.send(value) }
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(total.sum)
    }
    #endif
}

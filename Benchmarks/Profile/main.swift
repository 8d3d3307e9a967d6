// A plain executable for instruction-count profiling of single workloads, outside ordo-one's
// harness (which adds its own work to every measurement):
//
//     swift build -c release --product TributaryProfile
//     objcopy --strip-debug "$(swift build -c release --show-bin-path)/TributaryProfile" /tmp/TP
//     valgrind --tool=callgrind /tmp/TP 2a 0       # setup only
//     valgrind --tool=callgrind /tmp/TP 2a 20000   # setup + 20 000 values
//
// (valgrind 3.19 cannot read the toolchain's DWARF 5, hence the stripped copy; the benchmark
// executables themselves cannot run under valgrind, their malloc interposer crashes it.)
//
// The difference of the two totals divided by the count is the cost of one value in
// instructions, independent of the machine's load. The workloads mirror those of
// `Shared/Workloads.swift` with the same numbering.

import Combine
import Foundation
import Tributary
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

struct ProfileError: Error {}

final class Model: ObservableObject {
    @Published var count = 0
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: TributaryProfile WORKLOAD COUNT   (WORKLOAD: 1a 1b 2a 2b 2c 2d 2e 3a 3b 3c 4 4b 4c 4d 4e 5a 5b 5c 6a 6b 6c 7 8 9 9b 9c 9c-plain 10 12 13 14 15 flood flood-merge)")
    exit(1)
}

@inline(never)
func run(_ workload: String, _ count: Int) {
    switch workload {
    case "1a":
        let input = Array(0..<count)
        var sum = 0
        _ = input.publisher.map { $0 &* 3 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
        blackHole(sum)
    case "1b":
        let input = Array(0..<count)
        var sum = 0
        _ = input.publisher.eraseToAnyPublisher().map { $0 &* 3 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
        blackHole(sum)
    case "2a":
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        blackHole(sum)
    case "2e":
        erasedSubject(count)
    case "2b":
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellables = (0..<10).map { _ in subject.sink { sum &+= $0 } }
        for value in 0..<count { subject.send(value) }
        cancellables.forEach { $0.cancel() }
        blackHole(sum)
    case "2c":
        let subject = CurrentValueSubject<Int, Never>(0)
        var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        blackHole(sum)
    case "2d":
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { $0 &* 3 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        blackHole(sum)
    case "3a":
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject
            .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
            .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
            .sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        blackHole(sum)
    case "3b":
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        var chain = subject.eraseToAnyPublisher()
        for _ in 0..<10 { chain = chain.map { $0 &+ 1 }.eraseToAnyPublisher() }
        let cancellable = chain.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        blackHole(sum)
    case "4":
        // `count` inner values: count / 10 outer values, each an inner sequence of 10.
        let subject = PassthroughSubject<Int, Never>()
        let inner = Array(0..<10)
        var sum = 0
        let cancellable = subject.flatMap { base in inner.publisher.map { base &+ $0 } }.sink { sum &+= $0 }
        for value in 0..<(count / 10) { subject.send(value) }
        cancellable.cancel()
        blackHole(sum)
    case "5a":
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = left.merge(with: right).sink { sum &+= $0 }
        for value in 0..<count {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        cancellable.cancel()
        blackHole(sum)
    case "5b":
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = left.combineLatest(right).sink { sum &+= $0.0 &+ $0.1 }
        for value in 0..<count {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        cancellable.cancel()
        blackHole(sum)
    case "5c":
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = left.zip(right).sink { sum &+= $0.0 &+ $0.1 }
        for value in 0..<count {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        cancellable.cancel()
        blackHole(sum)
    case "6a":
        let subject = PassthroughSubject<Int, Never>()
        for _ in 0..<count {
            let cancellable = subject.sink { blackHole($0) }
            cancellable.cancel()
        }
    case "6a-own-function":
        subscribeCancelChurnInOwnFunction(count)
    case "6b":
        var sum = 0
        for value in 0..<count {
            _ = Just(value).sink { sum &+= $0 }
        }
        blackHole(sum)
    case "3c":
        keyPathMap(count)
    case "4b":
        switchToLatestOfJusts(count)
    case "4c":
        flatMapOfJusts(count)
    case "4d":
        flatMapOfDeferredJusts(count)
    case "4e":
        switchToLatestOfDeferredJusts(count)
    case "6c":
        futureChurn(count)
    case "7":
        let subject = PassthroughSubject<Int, Never>()
        var total = 0
        let cancellable = subject
            .scan(0) { $0 &+ ($1 & 3 == 0 ? 0 : 1) }
            .removeDuplicates()
            .collect(100)
            .sink { total &+= $0.count }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        blackHole(total)
    case "8":
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        blackHole(sum)
    case "9":
        let model = Model()
        var changes = 0
        var sum = 0
        let willChange = model.objectWillChange.sink { changes &+= 1 }
        let values = model.$count.sink { sum &+= $0 }
        for value in 0..<count { model.count = value }
        willChange.cancel()
        values.cancel()
        blackHole(changes &+ sum)
    case "9c":
        observationBridge(count)
    case "9c-plain":
        // Not a workload: 9c's plain baseline, the hand-written tracking loop, for comparison.
        plainObservationLoop(count)
    case "9b":
        let model = Model()
        var changes = 0
        let willChange = model.objectWillChange.sink { changes &+= 1 }
        for _ in 0..<count { model.objectWillChange.send() }
        willChange.cancel()
        blackHole(changes)
    case "12":
        // Every value is scheduled on a serial queue; the `sync` waits until all are delivered.
        let subject = PassthroughSubject<Int, Never>()
        let queue = DispatchQueue(label: "receive-on")
        var sum = 0
        let cancellable = subject.receive(on: queue).sink { sum &+= $0 }
        queue.sync {}
        for value in 0..<count { subject.send(value) }
        queue.sync {}
        cancellable.cancel()
        blackHole(sum)
    case "10":
        valuesOfBufferedSubject(count)
    case "13":
        handleEventsCatchMap(count)
    case "14":
        shareIntoTwoSinks(count)
    case "15":
        subscribeOnImmediate(count)
    case "flood":
        flood(count)
    case "flood-merge":
        flood(count, merged: true)
    default:
        print("unknown workload \(workload)")
        exit(1)
    }
}

// Workloads kept out of `run`, so that adding one does not change how the optimiser treats
// the others (a larger `run` made it stop promoting 6b's AnyCancellable to the stack).

@inline(never)
func valuesOfBufferedSubject(_ count: Int) {
    // The `values` bridge alone: one task drains a buffer that already holds every value
    // (row 10 also pays the hand-over between the sending thread and the task).
    let subject = PassthroughSubject<Int, Never>()
    let subscribed = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let publisher = subject
        .handleEvents(receiveRequest: { _ in subscribed.signal() })
        .buffer(size: Swift.max(count, 1), prefetch: .keepFull, whenFull: .dropNewest)
    let consumer = Task {
        var sum = 0
        for await value in publisher.values { sum &+= value }
        finished.signal()
        return sum
    }
    subscribed.wait()
    for value in 0..<count { subject.send(value) }
    subject.send(completion: .finished)
    finished.wait()
    blackHole(consumer)
}

@inline(never)
func handleEventsCatchMap(_ count: Int) {
    // The error-handling tail of a typical request pipeline, fed by a subject.
    let subject = PassthroughSubject<Int, ProfileError>()
    var sum = 0
    let cancellable = subject
        .handleEvents(receiveOutput: { _ in })
        .catch { _ in Just(-1) }
        .map { $0 &+ 1 }
        .sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
    blackHole(sum)
}

@inline(never)
func shareIntoTwoSinks(_ count: Int) {
    // One subject shared by two subscribers.
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let shared = subject.share()
    let first = shared.sink { sum &+= $0 }
    let second = shared.map { $0 &* 2 }.sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    first.cancel()
    second.cancel()
    blackHole(sum)
}

@inline(never)
func subscribeOnImmediate(_ count: Int) {
    // A pipeline that subscribes on a scheduler (every value then passes its stage), here
    // `ImmediateScheduler`, so that only the value path is measured.
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject
        .subscribe(on: ImmediateScheduler.shared)
        .map { $0 &+ 1 }
        .sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
    blackHole(sum)
}

/// The cross-thread scenario (not an instruction count; run it directly): one thread sends
/// `count` values into a subject while a second sends one value every 0.2 ms; the subscriber
/// works a few hundred nanoseconds per value. Prints the occasional sender's slowest `send`, the
/// growth of the peak resident memory and the time taken. `merged`: each thread sends into its
/// own subject, and the subscriber gets `merge(with:)` of the two (`flood-merge`).
func flood(_ count: Int, merged: Bool = false) {
    final class Shared: @unchecked Sendable {
        var sum = 0
        var done = false
        var slowest: UInt64 = 0
        var occasional = 0
    }
    func peakResidentKB() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage.ru_maxrss
    }
    let subject = PassthroughSubject<Int, Never>()
    let occasionalSubject = merged ? PassthroughSubject<Int, Never>() : subject
    let shared = Shared()
    let source = merged ? subject.merge(with: occasionalSubject).eraseToAnyPublisher() : subject.eraseToAnyPublisher()
    let cancellable = source.sink { value in
        var x = value
        for _ in 0..<200 { x = (x ^ (x >> 13)) &* 0x5bd1_e995 }
        shared.sum &+= x
    }
    let before = peakResidentKB()
    let start = DispatchTime.now().uptimeNanoseconds
    let group = DispatchGroup()
    group.enter()
    Thread {
        for value in 0..<count { subject.send(value) }
        shared.done = true
        group.leave()
    }.start()
    group.enter()
    Thread {
        while !shared.done {
            let sendStart = DispatchTime.now().uptimeNanoseconds
            occasionalSubject.send(-1)
            let took = DispatchTime.now().uptimeNanoseconds - sendStart
            if took > shared.slowest { shared.slowest = took }
            shared.occasional += 1
            usleep(200)
        }
        group.leave()
    }.start()
    group.wait()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    cancellable.cancel()
    print("flood of \(count): \(shared.occasional) occasional sends, slowest \(Double(shared.slowest) / 1e6) ms; peak resident memory +\((peakResidentKB() - before) / 1024) MB; \(elapsed) s")
    blackHole(shared.sum)
}

run(arguments[1], count)

@inline(never)
func erasedSubject(_ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let erased = subject.eraseToAnyPublisher()
    var sum = 0
    let cancellable = erased.sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
    blackHole(sum)
}

@inline(never)
func futureChurn(_ count: Int) {
    var sum = 0
    for value in 0..<count {
        _ = Future<Int, Never> { promise in promise(.success(value)) }.sink { sum &+= $0 }
    }
    blackHole(sum)
}

struct Reading {
    var value: Int
    var unit: String
}

@inline(never)
func keyPathMap(_ count: Int) {
    let subject = PassthroughSubject<Reading, Never>()
    var sum = 0
    let cancellable = subject.map(\.value).sink { sum &+= $0 }
    for value in 0..<count { subject.send(Reading(value: value, unit: "m")) }
    cancellable.cancel()
    blackHole(sum)
}

@inline(never)
func flatMapOfJusts(_ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject.flatMap { Just($0 &* 2) }.sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
    blackHole(sum)
}

@inline(never)
func flatMapOfDeferredJusts(_ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject.flatMap { value in Deferred { Just(value &* 2) } }.sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
    blackHole(sum)
}

@inline(never)
func switchToLatestOfDeferredJusts(_ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject.map { value in Deferred { Just(value &* 2) } }.switchToLatest().sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
    blackHole(sum)
}

@inline(never)
func switchToLatestOfJusts(_ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject.map { Just($0 &* 2) }.switchToLatest().sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
    blackHole(sum)
}

@inline(never)
func observationBridge(_ count: Int) {
    let model = ObservableModel()
    let scheduler = TurnScheduler()
    var sum = 0
    let values = model.publisher(for: \.count, on: scheduler).sink { sum &+= $0 }
    for value in 0..<count {
        model.count = value &+ 1
        scheduler.drain()
    }
    values.cancel()
    blackHole(sum)
}

@inline(never)
func plainObservationLoop(_ count: Int) {
    let loop = PlainObservationLoop(ObservableModel())
    for value in 0..<count {
        loop.model.count = value &+ 1
        loop.drain()
    }
    blackHole(loop.sum)
}

/// Row 6a in a function of its own, as the benchmark harness compiles it: `sink` is inlined into
/// the loop and the `AnyCancellable` it returns lives on the stack (two allocations per
/// subscription; inside `run(_:_:)`, `sink` stays out of line and the cancellable is a third).
@inline(never)
func subscribeCancelChurnInOwnFunction(_ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    for _ in 0..<count {
        let cancellable = subject.sink { opaqueUse($0) }
        cancellable.cancel()
    }
}

/// Uses a value where the optimiser cannot see, as the harness's `blackHole` does.
@inline(never)
func opaqueUse(_ value: some Any) {}

// Memory figures that ordo-one's harness cannot give, compiled twice like the benchmark targets:
// `TributaryMemory` against our `Combine`, `OpenCombineMemory` (with the `OPENCOMBINE` condition)
// against OpenCombine 0.14.0. Run each in its own process, from `Benchmarks/`:
//
//     swift build -c release --product TributaryMemory --product OpenCombineMemory
//     .build/release/TributaryMemory burst 1000000
//     .build/release/OpenCombineMemory burst 1000000
//     .build/release/TributaryMemory held-burst 1000000
//     .build/release/OpenCombineMemory held-burst 1000000
//     .build/release/TributaryMemory subscriptions 10000
//     .build/release/OpenCombineMemory subscriptions 10000
//
// `burst N`: one thread sends N values as fast as it can into `subject.receive(on: serial
// DispatchQueue).sink`, then waits until the queue has delivered them all. Prints the process's
// peak resident memory (getrusage's maxrss, what `/usr/bin/time -v` reports) and its growth during
// the burst, the growth of the resident memory when the last value has been sent, and the
// wall-clock time per value (sends and deliveries). Build with `-c debug` for a user's debug build.
//
// `held-burst N`: the same with the queue suspended while the values are sent, so that all N
// deliveries wait at once: the peak is then N times what one waiting value costs, whatever the
// machine's load (in `burst` it depends on how far the queue's thread falls behind).
//
// `part0` … `part3 N`: the parts of a subscription's cost, one per process (see
// `subscriptionPart`).
//
// `subscriptions N`: keeps N live `subject.map{}.sink{}` subscriptions and prints what each costs:
// the growth of the resident memory divided by N (malloc's small chunks, their headers included,
// are not handed back to the system while live; with N = 100,000 the page granularity is below a
// tenth of a byte per subscription).

import Foundation
#if OPENCOMBINE
import OpenCombine
#else
import Combine
#endif
#if canImport(Glibc)
import Glibc
#endif

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A subscriber's running total, written only by the subscriber.
final class Total: @unchecked Sendable {
    var sum = 0
}

func peakResidentKB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// The current resident memory, from /proc/self/statm (in pages).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func burst(_ count: Int, held: Bool) {
    let subject = PassthroughSubject<Int, Never>()
    let queue = DispatchQueue(label: "burst")
    let total = Total()
    let cancellable = subject.receive(on: dispatchScheduler(queue)).sink { total.sum &+= $0 }
    queue.sync {}  // the queue's thread exists before the measurement starts
    let peakBefore = peakResidentKB()
    let residentBefore = residentBytes()
    let start = DispatchTime.now().uptimeNanoseconds
    if held { queue.suspend() }
    for value in 0..<count { subject.send(value) }
    let residentAfterSends = residentBytes()
    if held { queue.resume() }
    queue.sync {}
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    let peak = peakResidentKB()
    let peakGrowth = peak - peakBefore
    cancellable.cancel()
    print(
        "\(library) \(held ? "held " : "")burst of \(count): peak resident \(peak / 1024) MB"
            + " (+\(peakGrowth / 1024) MB during the burst),"
            + " resident after the last send +\((residentAfterSends - residentBefore) / 1_048_576) MB,"
            + " \(Double(elapsed) / Double(count)) ns/value"
    )
    blackHole(total.sum)
}

func subscriptions(_ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(count)
    // One subscription first, so that lazily created state (the subject's subscriber list,
    // metadata caches) is outside the figure.
    let first = subject.map { $0 &+ 1 }.sink { total.sum &+= $0 }
    let residentBefore = residentBytes()
    for _ in 0..<count {
        cancellables.append(subject.map { $0 &+ 1 }.sink { total.sum &+= $0 })
    }
    let residentGrowth = residentBytes() - residentBefore
    subject.send(1)
    print(
        "\(library) \(count) live subject.map{}.sink{} subscriptions:"
            + " \(residentGrowth / count) bytes each (resident growth / \(count))"
    )
    cancellables.forEach { $0.cancel() }
    first.cancel()
    blackHole(total.sum)
}

/// One part of a subscription's cost, in a process of its own (memory freed by one measurement
/// would be reused by the next): 0 `subject.sink{}` (what `map` adds is `subscriptions` minus
/// this), 1 a `Sink` subscribed directly (so without its `AnyCancellable`), 2 a `Sink` alone,
/// unsubscribed, 3 an `AnyCancellable` of a closure alone.
func subscriptionPart(_ part: Int, _ count: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    func measure(_ name: String, _ make: () -> AnyObject) {
        var kept: [AnyObject] = []
        kept.reserveCapacity(count + 1)
        kept.append(make())
        let residentBefore = residentBytes()
        for _ in 0..<count { kept.append(make()) }
        print("\(library) \(name): \((residentBytes() - residentBefore) / count) bytes each")
        blackHole(kept)
    }
    switch part {
    case 0: measure("subject.sink{}") { subject.sink { total.sum &+= $0 } }
    case 1:
        measure("Sink subscribed to the subject, no AnyCancellable") {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { total.sum &+= $0 })
            subject.subscribe(sink)
            return sink
        }
    case 2:
        measure("Sink alone") {
            Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { total.sum &+= $0 })
        }
    default: measure("AnyCancellable of a closure alone") { AnyCancellable {} }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: \(library)Memory burst|held-burst|subscriptions|part0…part3 COUNT")
    exit(1)
}
switch arguments[1] {
case "burst": burst(count, held: false)
case "held-burst": burst(count, held: true)
case "subscriptions": subscriptions(count)
case let mode where mode.hasPrefix("part"):
    subscriptionPart(Int(mode.dropFirst(4)) ?? 0, count)
default:
    print("unknown mode \(arguments[1])")
    exit(1)
}

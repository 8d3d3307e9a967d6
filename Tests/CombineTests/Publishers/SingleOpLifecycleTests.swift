import Combine
import Foundation
import TestSupport
import Testing

/// Cancellation and completion release every stage of the single-upstream operators (checked with
/// weak references), and the stages survive concurrent request/cancel/value traffic.
@Suite("Single-upstream operators: release and concurrency", .tags(.concurrency))
struct SingleOpLifecycleTests {
    typealias Up = ReleasingTestUpstream<Int, SingleOp.TestError>

    /// Subscribes through `make`, ends the subscription with `end`, and reports whether the stage
    /// (the subscription the downstream saw) is gone afterwards.
    private func stageIsReleased<P: Publisher>(
        _ make: (Up) -> P, end: (Up, ReleasingTestSubscriber<P.Output, P.Failure>) -> Void
    ) -> Bool {
        weak var stage: AnyObject?
        do {
            let upstream = Up()
            let subscriber = ReleasingTestSubscriber<P.Output, P.Failure>()
            make(upstream).subscribe(subscriber)
            stage = subscriber.subscription as AnyObject?
            #expect(stage != nil)
            end(upstream, subscriber)
        }
        return stage == nil
    }

    @Test func cancellationReleasesStages() {
        let cancel: (Up, ReleasingTestSubscriber<Int, SingleOp.TestError>) -> Void = { _, s in s.cancel() }
        #expect(stageIsReleased({ $0.filter { $0 > 0 } }, end: cancel))
        #expect(stageIsReleased({ $0.dropFirst(2) }, end: cancel))
        #expect(stageIsReleased({ $0.prefix(3) }, end: cancel))
        #expect(stageIsReleased({ $0.scan(0, +) }, end: cancel))
        #expect(stageIsReleased({ $0.first() }, end: cancel))
        #expect(stageIsReleased({ $0.reduce(0, +) }, end: cancel))
        #expect(stageIsReleased({ $0.append(Up()) }, end: cancel))
        #expect(stageIsReleased({ $0.drop(untilOutputFrom: Up()) }, end: cancel))
        #expect(stageIsReleased({ $0.prefix(untilOutputFrom: Up()) }, end: cancel))
        #expect(stageIsReleased({ $0.count() }, end: { _, s in s.cancel() }))
        #expect(stageIsReleased({ $0.collect(2) }, end: { _, s in s.cancel() }))
    }

    @Test func completionReleasesStages() {
        let finish: (Up, ReleasingTestSubscriber<Int, SingleOp.TestError>) -> Void = { u, _ in u.send(completion: .finished) }
        #expect(stageIsReleased({ $0.filter { $0 > 0 } }, end: finish))
        #expect(stageIsReleased({ $0.tryMap { $0 } }, end: { u, _ in u.send(completion: .finished) }))
        #expect(stageIsReleased({ $0.max() }, end: finish))
        #expect(stageIsReleased({ $0.contains(1) }, end: { u, _ in u.send(1) }))
        #expect(stageIsReleased({ $0.collect() }, end: { u, _ in u.send(completion: .failure(.boom)) }))
    }

    @Test func concurrentRequestsCancelsAndValuesDoNotBreakTheStages() async {
        for _ in 0..<50 {
            let upstream = TestUpstream<Int, Never>()
            let filtered = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
            let counted = TrackingSubscriber<Int, Never>(initialDemand: nil)
            upstream.filter { $0 % 2 == 0 }.subscribe(filtered)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for v in 0..<200 { upstream.send(v) } }
                group.addTask { for _ in 0..<50 { filtered.request(.max(1)) } }
                group.addTask { filtered.cancel() }
            }
            let other = TestUpstream<Int, Never>()
            other.count().subscribe(counted)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for v in 0..<200 { other.send(v) }; other.send(completion: .finished) }
                group.addTask { counted.request(.max(1)) }
                group.addTask { counted.request(.max(1)) }
            }
            #expect(counted.values == [200])
            #expect(counted.completions.count == 1)
            #expect(filtered.completions.isEmpty)
        }
    }
}

import Combine
import Foundation
import TestSupport
import Testing

@Suite("Subscribers.Sink", .tags(.concurrency))
struct SubscribersSinkTests {
    @Test func requestsUnlimitedAndDeliversEverything() {
        let upstream = TestUpstream<Int, Never>()
        var values: [Int] = []
        var completions = 0
        let cancellable = upstream.sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
        #expect(upstream.calls == [.request(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(values == [1, 2])
        #expect(completions == 1)
        cancellable.cancel()
        #expect(!upstream.isCancelled)
    }

    @Test func ignoresEverythingAfterCancel() {
        let upstream = TestUpstream<Int, Never>()
        var values: [Int] = []
        var completed = false
        let cancellable = upstream.sink(receiveCompletion: { _ in completed = true }, receiveValue: { values.append($0) })
        upstream.send(1)
        cancellable.cancel()
        #expect(upstream.isCancelled)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(values == [1])
        #expect(!completed)
    }

    @Test func secondSubscriptionIsCancelled() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = TestUpstream<Int, Never>()
        let second = TestUpstream<Int, Never>()
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(first.calls == [.request(.unlimited)])
        #expect(second.calls == [.cancel])
    }

    @Test func descriptionAndReflection() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.description == "Sink")
        #expect(String(describing: sink.playgroundDescription) == "Sink")
        #expect(sink.customMirror.children.isEmpty)
    }

    @Test func releasedAfterCompletionAndAfterCancel() {
        weak var completedSink: Subscribers.Sink<Int, Never>?
        do {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            completedSink = sink
            Just(1).subscribe(sink)
        }
        #expect(completedSink == nil)

        weak var cancelledSink: Subscribers.Sink<Int, Never>?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            cancelledSink = sink
            subject.subscribe(sink)
            sink.cancel()
        }
        #expect(cancelledSink == nil)
    }

    @Test func sinkWithoutCompletionForNeverFailing() {
        var values: [Int] = []
        _ = [1, 2, 3].publisher.sink { values.append($0) }
        #expect(values == [1, 2, 3])
    }

    // MARK: races on real threads (the sink's lock-free phase word)

    /// Runs `first` and `second` on two threads, released together by a spinning start flag.
    private static func race(_ first: @escaping @Sendable () -> Void, _ second: @escaping @Sendable () -> Void) {
        let ready = NSCondition()
        nonisolated(unsafe) var arrived = 0
        let group = DispatchGroup()
        for body in [first, second] {
            DispatchQueue.global().async(group: group) {
                ready.lock()
                arrived += 1
                if arrived == 2 { ready.broadcast() } else { while arrived < 2 { ready.wait() } }
                ready.unlock()
                body()
            }
        }
        group.wait()
    }

    @Test func cancelRacingSubscriptionCancelsItExactlyOnceAndReleasesIt() {
        for _ in 0..<2_000 {
            weak var weakSubscription: RecordingSubscription?
            weak var weakSink: Subscribers.Sink<Int, Never>?
            var requests = 0
            var cancels = 0
            do {
                let subscription = RecordingSubscription()
                let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
                weakSubscription = subscription
                weakSink = sink
                let unsafeSink = sink
                Self.race({ unsafeSink.receive(subscription: subscription) }, { unsafeSink.cancel() })
                requests = subscription.requests.count
                cancels = subscription.cancelCount
                // Either the cancel came first and, with no subscription yet, was ignored (§21: the
                // subscription is then asked for everything), or it cancelled the subscription once.
                #expect((cancels == 1 && requests <= 1) || (cancels == 0 && requests == 1))
            }
            #expect(weakSubscription == nil)
            #expect(weakSink == nil)
            if cancels > 1 || weakSubscription != nil { break }
        }
    }

    @Test func cancelRacingCompletionEndsExactlyOneWay() {
        for _ in 0..<2_000 {
            weak var weakSubscription: RecordingSubscription?
            let completions = Locked(0)
            var ok = true
            do {
                let subscription = RecordingSubscription()
                weakSubscription = subscription
                let sink = Subscribers.Sink<Int, Never>(
                    receiveCompletion: { _ in completions.increment() },
                    receiveValue: { _ in }
                )
                sink.receive(subscription: subscription)
                let unsafeSink = sink
                Self.race({ unsafeSink.receive(completion: .finished) }, { unsafeSink.cancel() })
                // Either the completion won (delivered, no cancel) or the cancel did (the reverse).
                let delivered = completions.current
                ok = delivered + subscription.cancelCount == 1 && subscription.requests.count == 1
                #expect(ok)
                // Events after the end are ignored.
                sink.receive(completion: .finished)
                #expect(sink.receive(1) == .none)
                #expect(completions.current == delivered)
            }
            #expect(weakSubscription == nil)
            if !ok || weakSubscription != nil { break }
        }
    }

    /// A subscription that is a value (the sink keeps it in a box of its own) is asked for
    /// everything, cancelled once, and released.
    @Test func valueSubscriptionIsRequestedCancelledOnceAndReleased() {
        final class Log {
            var calls: [String] = []
        }
        struct ValueSubscription: Subscription {
            let log: Log
            let combineIdentifier = CombineIdentifier()
            func request(_ demand: Subscribers.Demand) { log.calls.append("request \(demand)") }
            func cancel() { log.calls.append("cancel") }
        }
        weak var weakLog: Log?
        do {
            let log = Log()
            weakLog = log
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            sink.receive(subscription: ValueSubscription(log: log))
            sink.cancel()
            sink.cancel()
            #expect(log.calls == ["request unlimited", "cancel"])
        }
        #expect(weakLog == nil)
    }

    /// A sink that goes away while subscribed (its upstream does not keep it) releases its
    /// subscription without cancelling it.
    @Test func sinkReleasedWhileSubscribedReleasesItsSubscription() {
        final class Probe: Subscription {
            var cancels = 0
            func request(_ demand: Subscribers.Demand) {}
            func cancel() { cancels += 1 }
        }
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            do {
                let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
                sink.receive(subscription: probe)
            }
            #expect(probe.cancels == 0)
        }
        #expect(weakProbe == nil)
    }

    @Test func cancelBeforeSubscriptionIsIgnored() {
        // §21: with no subscription, a cancel is ignored; a later subscription is asked for
        // everything and its values reach the closure, as on Apple's platforms.
        var values: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        sink.cancel()
        let upstream = TestUpstream<Int, Never>()
        upstream.subscribe(sink)
        #expect(upstream.calls == [.request(.unlimited)])
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(values == [1])
    }

    @Test func completionReleasesTheSubscriptionBeforeTheClosureRuns() {
        var subscriptionAliveInClosure = true
        final class Probe: Subscription {
            func request(_ demand: Subscribers.Demand) {}
            func cancel() {}
        }
        weak var probe: Probe?
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in subscriptionAliveInClosure = probe != nil },
            receiveValue: { _ in }
        )
        do {
            let subscription = Probe()
            probe = subscription
            sink.receive(subscription: subscription)
        }
        #expect(probe != nil)
        sink.receive(completion: .finished)
        #expect(!subscriptionAliveInClosure)
        #expect(probe == nil)
    }

    // MARK: letting go of the closures (§21)

    private struct SinkTestError: Error {}

    /// A sink whose two closures capture one token each, and weak references to both tokens.
    private final class CapturingSink: @unchecked Sendable {
        weak var valueToken: CaptureToken?
        weak var completionToken: CaptureToken?
        let sink: Subscribers.Sink<Int, SinkTestError>
        init() {
            let value = CaptureToken(), completion = CaptureToken()
            valueToken = value
            completionToken = completion
            sink = Subscribers.Sink(
                receiveCompletion: { _ in _ = completion },
                receiveValue: { _ in _ = value }
            )
        }
        var capturesReleased: Bool { valueToken == nil && completionToken == nil }
    }

    @Test(arguments: [false, true])
    func completionReleasesBothClosures(failing: Bool) {
        let upstream = TestUpstream<Int, SinkTestError>()
        let probe = CapturingSink()
        upstream.subscribe(probe.sink)
        _ = upstream.send(1)
        #expect(!probe.capturesReleased)
        upstream.send(completion: failing ? .failure(SinkTestError()) : .finished)
        #expect(probe.capturesReleased)
    }

    @Test func completionBeforeAnySubscriptionReleasesBothClosures() {
        let probe = CapturingSink()
        var completed = false
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in completed = true }, receiveValue: { _ in })
        sink.receive(completion: .finished)
        #expect(completed)
        probe.sink.receive(completion: .finished)
        #expect(probe.capturesReleased)
    }

    @Test func cancelOnceSubscribedReleasesBothClosures() {
        let upstream = TestUpstream<Int, SinkTestError>()
        let probe = CapturingSink()
        upstream.subscribe(probe.sink)
        probe.sink.cancel()
        #expect(upstream.isCancelled)
        #expect(probe.capturesReleased)
    }

    @Test func cancelBeforeTheSubscriptionKeepsTheClosuresForALaterOne() {
        let probe = CapturingSink()
        probe.sink.cancel()
        #expect(!probe.capturesReleased)
        var values: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        sink.cancel()
        let upstream = TestUpstream<Int, Never>()
        upstream.subscribe(sink)
        upstream.send(7)
        #expect(upstream.calls == [.request(.unlimited)])
        #expect(values == [7])
    }

    @Test func publicClosuresAreTheUsersUntilTheEndThenDoNothing() {
        var seen: [Int] = []
        var completions = 0
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in completions += 1 },
            receiveValue: { seen.append($0) }
        )
        sink.receiveValue(1)
        sink.receiveCompletion(.finished)
        #expect(seen == [1] && completions == 1)
        Just(2).subscribe(sink)
        #expect(seen == [1, 2] && completions == 2)
        sink.receiveValue(3)
        sink.receiveCompletion(.finished)
        #expect(seen == [1, 2] && completions == 2, "after the end the properties are no-op closures")
    }

    /// A cancel from inside the value closure must not free that closure while it runs: what it
    /// captured is still usable after the cancel, and released once the call has returned.
    @Test func cancelFromInsideTheValueClosureReleasesAfterItReturns() {
        let upstream = TestUpstream<Int, Never>()
        weak var weakToken: CaptureToken?
        var readAfterCancel: [Int] = []
        var sink: Subscribers.Sink<Int, Never>?
        do {
            let token = CaptureToken()
            weakToken = token
            final class Slot { var value: Subscribers.Sink<Int, Never>? }
            let box = Slot()
            let made = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { value in
                box.value?.cancel()
                // Still running the closure: its context, and the token, must be alive.
                readAfterCancel.append(ObjectIdentifier(token).hashValue == 0 ? -1 : value)
            })
            box.value = made
            sink = made
        }
        upstream.subscribe(sink!)
        #expect(weakToken != nil)
        upstream.send(5)
        #expect(readAfterCancel == [5])
        #expect(upstream.isCancelled)
        #expect(weakToken == nil)
        upstream.send(6)
        #expect(readAfterCancel == [5])
        withExtendedLifetime(sink) {}
    }

    /// A completion delivered from inside the value closure (a re-entrant upstream) runs the
    /// completion closure at once; the closures are released when the value call returns.
    @Test func completionFromInsideTheValueClosureReleasesAfterTheValueCall() {
        let upstream = TestUpstream<Int, Never>()
        weak var weakToken: CaptureToken?
        var log: [String] = []
        let sink: Subscribers.Sink<Int, Never>
        do {
            let token = CaptureToken()
            weakToken = token
            sink = Subscribers.Sink(
                receiveCompletion: { _ in log.append("finished") },
                receiveValue: { value in
                    upstream.send(completion: .finished)
                    log.append("value \(value), token \(ObjectIdentifier(token) == ObjectIdentifier(token))")
                }
            )
        }
        upstream.subscribe(sink)
        upstream.send(1)
        #expect(log == ["finished", "value 1, token true"])
        #expect(weakToken == nil)
    }

    /// Values on one thread, a cancel on another: the value closure never runs after its
    /// captures are gone, the captures are released exactly once, by whoever is last.
    @Test func cancelRacingValuesReleasesTheClosuresOnceNobodyIsInThem() {
        for _ in 0..<500 {
            let upstream = TestUpstream<Int, Never>()
            weak var weakToken: CaptureToken?
            let delivered = Locked(0)
            let sink: Subscribers.Sink<Int, Never>
            do {
                let token = CaptureToken()
                weakToken = token
                sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { _ in
                    withExtendedLifetime(token) { delivered.withLock { $0 += 1 } }
                })
            }
            upstream.subscribe(sink)
            let unsafeSink = UncheckedBox(sink)
            let unsafeUpstream = UncheckedBox(upstream)
            Self.race({ for value in 0..<50 { _ = unsafeUpstream.value.send(value) } }, { unsafeSink.value.cancel() })
            #expect(weakToken == nil)
            #expect(delivered.withLock { $0 } <= 50)
            if weakToken != nil { break }
        }
    }
}


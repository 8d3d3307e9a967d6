import Combine
import TestSupport
import Testing

@Suite("Publishers.ReplaceEmpty")
struct PublishersReplaceEmptyTests {
    @Test func emptyUpstreamGetsTheReplacement() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) })
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "value(42)", "finished"])
    }

    @Test func valuesPassAndNoReplacement() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) }, demand: .max(1))
        #expect(up.send(1) == .none)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "value(1)", "finished"])
        // Spec §19 and §7: the downstream's request, then the stage's own `unlimited`.
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(unlimited)"])
    }

    @Test func failureIsNotReplaced() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) })
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "failure(boom)"])
    }

    @Test func replacementWaitsForDemand() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) }, demand: nil)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)"])
        sub.request(.max(1))
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)", "value(42)", "finished"])
        // Spec §19: the stage asks for `unlimited` itself once the subscription is handed down.
        #expect(SingleOp.calls(up) == ["request(unlimited)"])
    }

    @Test func cancellation() {
        let (up, sub) = SingleOp.attach({ $0.replaceEmpty(with: 42) })
        sub.cancel()
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)"])
        #expect(up.isCancelled)
        #expect(Publishers.ReplaceEmpty(upstream: Just(1), output: 2) == Publishers.ReplaceEmpty(upstream: Just(1), output: 2))
    }

    @Test func cancelBeforeTheSubscriptionDoesNothing() {
        // Spec §6: the late subscription goes downstream and gets `unlimited`.
        let capture = CapturingUpstream()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: nil)
        capture.replaceEmpty(with: 42).subscribe(sub)
        (capture.raw as? any Cancellable)?.cancel()
        let link = SingleOp.Upstream()
        link.subscribe(capture.erased!)
        #expect(SingleOp.events(sub) == ["subscription(ReplaceEmpty)"])
        #expect(SingleOp.calls(link) == ["request(unlimited)"])
    }
}

/// Keeps the subscriber attached to it, as it is and type-erased, and sends nothing.
private final class CapturingUpstream: Publisher {
    typealias Output = Int
    typealias Failure = SingleOp.TestError

    var raw: Any?
    var erased: AnySubscriber<Int, SingleOp.TestError>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == SingleOp.TestError {
        raw = subscriber
        erased = AnySubscriber(subscriber)
    }
}

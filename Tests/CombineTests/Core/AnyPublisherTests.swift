import Combine
import TestSupport
import Testing

@Suite("AnyPublisher")
struct AnyPublisherTests {
    @Test func forwardsEverything() {
        let subject = PassthroughSubject<Int, Never>()
        let erased = subject.eraseToAnyPublisher()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        erased.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subscriber.request(.max(1))
        subject.send(3)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription("PassthroughSubject"), .value(1), .value(3), .completion(.finished)])
        subscriber.cancel()
    }

    @Test func neverDoubleWraps() {
        let erased = Just(1).eraseToAnyPublisher()
        let again = erased.eraseToAnyPublisher()
        let wrapped = AnyPublisher(erased)
        var values: [Int] = []
        _ = again.sink { values.append($0) }
        _ = wrapped.sink { values.append($0) }
        #expect(values == [1, 1])
        #expect(erased.description == "AnyPublisher")
        #expect(String(describing: erased.playgroundDescription) == "AnyPublisher")
    }

    @Test func subscriberKeepsItsIdentityThroughErasure() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        var seen: CombineIdentifier?
        let probe = ProbePublisher { seen = $0 }
        probe.eraseToAnyPublisher().subscribe(subscriber)
        #expect(seen == subscriber.combineIdentifier)
    }

    // MARK: Same-type maps erased one by one (fused into one stage)

    @Test func erasedMapsRunInOrderAndPassEverythingThrough() {
        let upstream = TestUpstream<Int, Never>(name: "Upstream")
        var chain = upstream.eraseToAnyPublisher()
        for step in 1...5 { chain = chain.map { $0 * 10 + step }.eraseToAnyPublisher() }
        // A map to another type ends the run; a same-type map after it starts a new one.
        let mixed = chain.map { String($0) }.eraseToAnyPublisher().map { $0 + "!" }.eraseToAnyPublisher()
        let subscriber = TrackingSubscriber<String, Never>(initialDemand: .max(1), demandAfterValue: { _ in .max(2) })
        mixed.subscribe(subscriber)
        #expect(upstream.send(0) == .max(2))
        #expect(upstream.send(1) == .max(2))
        upstream.send(completion: .finished)
        #expect(
            subscriber.events == [
                .subscription("Upstream"), .value("12345!"), .value("112345!"), .completion(.finished),
            ])
        #expect(upstream.calls == [.request(.max(1))])
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(1)), .cancel])
    }

    @Test func erasedMapsCanBeSubscribedRepeatedlyAndBranch() {
        let subject = PassthroughSubject<Int, Never>()
        let base = subject.eraseToAnyPublisher().map { $0 + 1 }.eraseToAnyPublisher()
        let left = base.map { $0 * 2 }.eraseToAnyPublisher()
        let right = base.map { $0 * 3 }.eraseToAnyPublisher().map { $0 - 1 }.eraseToAnyPublisher()
        var values: [String] = []
        let a = left.sink { values.append("left \($0)") }
        let b = right.sink { values.append("right \($0)") }
        let c = base.sink { values.append("base \($0)") }
        subject.send(1)
        #expect(values == ["left 4", "right 5", "base 2"])
        a.cancel()
        b.cancel()
        c.cancel()
    }

    @Test func theUpstreamSeesOneMapStage() {
        var seen: [String] = []
        let probe = DescribingProbe { seen.append($0) }
        var chain = probe.eraseToAnyPublisher()
        for _ in 0..<3 { chain = chain.map { $0 + 1 }.eraseToAnyPublisher() }
        _ = chain.sink { _ in }
        #expect(seen == ["Map"])
    }

    @Test func fusedStageIsReleasedWithTheSubscription() {
        weak var weakToken: Token?
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            var chain = subject.eraseToAnyPublisher()
            for _ in 0..<3 { chain = chain.map { [token] in $0 + (token.value) }.eraseToAnyPublisher() }
            var values: [Int] = []
            cancellable = chain.sink { values.append($0) }
            subject.send(1)
            #expect(values == [4])
        }
        #expect(weakToken != nil)  // the chain is alive while subscribed
        cancellable?.cancel()
        cancellable = nil
        #expect(weakToken == nil)
    }
}

private final class Token {
    let value = 1
}

/// Reports the description of whatever subscribes.
private struct DescribingProbe: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let report: (String) -> Void
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        report(String(describing: subscriber))
        subscriber.receive(subscription: Subscriptions.empty)
    }
}

/// Reports the combine identifier of whatever subscribes.
private struct ProbePublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let report: (CombineIdentifier) -> Void
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        report(subscriber.combineIdentifier)
        subscriber.receive(subscription: Subscriptions.empty)
    }
}

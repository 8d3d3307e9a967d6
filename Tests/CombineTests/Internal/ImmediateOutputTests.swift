import Combine
import TestSupport
import Testing

/// `flatMap` and `switchToLatest` deliver the value of an inner `Just` (and of an
/// `Optional.Publisher` or a successful `Result.Publisher`) without subscribing to it when they
/// could deliver it at once anyway. Each test runs one script twice: over such inner publishers,
/// and over the same publishers behind `Deferred`, which the operators cannot see through and so
/// subscribe to as any other inner. What the subscriber and the upstream see must be the same.
@Suite("Inner publishers delivered without a subscription")
struct ImmediateOutputTests {
    enum TestError: Error, Equatable { case boom }

    /// What one run recorded: the subscriber's events, then the upstream's calls.
    typealias Trace = (events: [String], upstream: [String])

    /// The operators under test, each over a transform from an upstream value to an inner
    /// publisher.
    enum Operator: CaseIterable {
        case flatMap, switchToLatest

        func apply<Inner: Publisher>(
            _ upstream: TestUpstream<Int, TestError>, _ transform: @escaping (Int) -> Inner
        ) -> AnyPublisher<Int, TestError> where Inner.Output == Int, Inner.Failure == TestError {
            switch self {
            case .flatMap: return upstream.flatMap(transform).eraseToAnyPublisher()
            case .switchToLatest: return upstream.map(transform).switchToLatest().eraseToAnyPublisher()
            }
        }
    }

    /// Runs `script` over `inner` directly and behind `Deferred`, and returns both traces.
    func traces<Inner: Publisher>(
        _ op: Operator,
        inner: @escaping (Int) -> Inner,
        initialDemand: Subscribers.Demand? = .unlimited,
        onValue: ((Int, TestUpstream<Int, TestError>, TrackingSubscriber<Int, TestError>) -> Void)? = nil,
        transformHook: ((Int, TestUpstream<Int, TestError>) -> Void)? = nil,
        script: (TestUpstream<Int, TestError>, TrackingSubscriber<Int, TestError>) -> Void
    ) -> (immediate: Trace, subscribed: Trace) where Inner.Output == Int, Inner.Failure == TestError {
        func run<P: Publisher>(_ make: @escaping (Int) -> P) -> Trace where P.Output == Int, P.Failure == TestError {
            let upstream = TestUpstream<Int, TestError>(name: "Upstream")
            var subscriber: TrackingSubscriber<Int, TestError>!
            subscriber = TrackingSubscriber(initialDemand: initialDemand, onValue: { value in
                onValue?(value, upstream, subscriber)
            })
            op.apply(upstream) { value in
                transformHook?(value, upstream)
                return make(value)
            }.subscribe(subscriber)
            script(upstream, subscriber)
            let trace = (subscriber.events.map(\.description), upstream.calls.map(\.description))
            subscriber = nil
            return trace
        }
        return (run(inner), run { value in Deferred { inner(value) } })
    }

    func expectSame(_ pair: (immediate: Trace, subscribed: Trace), sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(pair.immediate.events == pair.subscribed.events, sourceLocation: sourceLocation)
        #expect(pair.immediate.upstream == pair.subscribed.upstream, sourceLocation: sourceLocation)
    }

    func just(_ value: Int) -> Publishers.SetFailureType<Just<Int>, TestError> {
        Just(value * 10).setFailureType(to: TestError.self)
    }

    @Test(arguments: Operator.allCases)
    func unlimitedDemand(_ op: Operator) {
        let pair = traces(op, inner: just) { upstream, _ in
            for value in 1...3 { upstream.send(value) }
            upstream.send(completion: .finished)
        }
        #expect(pair.immediate.events == ["subscription(\(op == .flatMap ? "FlatMap" : "SwitchToLatest"))",
                                          "value(10)", "value(20)", "value(30)", "finished"])
        expectSame(pair)
    }

    @Test(arguments: Operator.allCases)
    func finiteDemandHoldsTheValuesBack(_ op: Operator) {
        let pair = traces(op, inner: just, initialDemand: .max(1)) { upstream, subscriber in
            upstream.send(1)
            upstream.send(2)
            upstream.send(3)
            subscriber.request(.max(1))
            upstream.send(completion: .finished)
            subscriber.request(.max(5))
        }
        // flatMap keeps every inner's value; switchToLatest only the latest inner's.
        #expect(pair.immediate.events.dropFirst() == (op == .flatMap
            ? ["value(10)", "value(20)", "value(30)", "finished"]
            : ["value(10)", "value(30)", "finished"]))
        expectSame(pair)
    }

    @Test(arguments: Operator.allCases)
    func upstreamFinishedFromInsideTheTransform(_ op: Operator) {
        let pair = traces(op, inner: just, transformHook: { value, upstream in
            if value == 2 { upstream.send(completion: .finished) }
        }) { upstream, _ in
            upstream.send(1)
            upstream.send(2)
        }
        expectSame(pair)
        if op == .flatMap {
            // The inner made while the upstream finished still delivers, then the operator ends.
            #expect(pair.immediate.events.dropFirst() == ["value(10)", "value(20)", "finished"])
        }
    }

    /// The transform of the first value sends the second into its own upstream, whose transform
    /// returns at once; then the first transform finishes the upstream. Both inners were running
    /// uncounted at that moment, and the operator waits for both.
    @Test(arguments: Operator.allCases)
    func upstreamFinishedFromInsideATransformAfterANestedOne(_ op: Operator) {
        let pair = traces(op, inner: just, transformHook: { value, upstream in
            guard value == 1 else { return }
            upstream.send(2)
            upstream.send(completion: .finished)
        }) { upstream, _ in
            upstream.send(1)
        }
        expectSame(pair)
        if op == .flatMap {
            #expect(pair.immediate.events.dropFirst() == ["value(20)", "value(10)", "finished"])
        }
    }

    @Test(arguments: Operator.allCases)
    func subscriberSendsIntoTheUpstreamFromItsReceive(_ op: Operator) {
        let pair = traces(op, inner: just, onValue: { value, upstream, _ in
            if value < 30 { upstream.send(value / 10 + 1) }
        }) { upstream, _ in
            upstream.send(1)
            upstream.send(completion: .finished)
        }
        #expect(pair.immediate.events.dropFirst() == ["value(10)", "value(20)", "value(30)", "finished"])
        expectSame(pair)
    }

    @Test(arguments: Operator.allCases)
    func subscriberFinishesTheUpstreamFromItsReceive(_ op: Operator) {
        let pair = traces(op, inner: just, onValue: { _, upstream, _ in
            upstream.send(completion: .finished)
        }) { upstream, _ in
            upstream.send(1)
            upstream.send(2)
        }
        #expect(pair.immediate.events.dropFirst() == ["value(10)", "finished"])
        expectSame(pair)
    }

    @Test(arguments: Operator.allCases)
    func subscriberCancelsFromItsReceive(_ op: Operator) {
        let pair = traces(op, inner: just, onValue: { _, _, subscriber in
            subscriber.cancel()
        }) { upstream, _ in
            upstream.send(1)
            upstream.send(2)
            upstream.send(completion: .finished)
        }
        #expect(pair.immediate.events.dropFirst() == ["value(10)"])
        #expect(pair.immediate.upstream == ["request(unlimited)", "cancel"])
        expectSame(pair)
    }

    @Test(arguments: Operator.allCases)
    func optionalAndResultPublishers(_ op: Operator) {
        let optional = traces(op, inner: { value in
            (value.isMultiple(of: 2) ? nil : value).publisher.setFailureType(to: TestError.self)
        }) { upstream, _ in
            for value in 1...3 { upstream.send(value) }
            upstream.send(completion: .finished)
        }
        #expect(optional.immediate.events.dropFirst() == ["value(1)", "value(3)", "finished"])
        expectSame(optional)

        let result = traces(op, inner: { value in
            Result<Int, TestError>.Publisher(value == 3 ? .failure(.boom) : .success(value))
        }) { upstream, _ in
            for value in 1...4 { upstream.send(value) }
        }
        #expect(result.immediate.events.dropFirst() == ["value(1)", "value(2)", "failure(boom)"])
        expectSame(result)
    }

    @Test(arguments: Operator.allCases)
    func cancellingReleasesTheSubscriber(_ op: Operator) {
        weak var released: TrackingSubscriber<Int, TestError>?
        let upstream = TestUpstream<Int, TestError>(name: "Upstream")
        do {
            let subscriber = TrackingSubscriber<Int, TestError>()
            released = subscriber
            op.apply(upstream, just).subscribe(subscriber)
            upstream.send(1)
            #expect(subscriber.values == [10])
            subscriber.cancel()
        }
        #expect(released == nil)
    }
}

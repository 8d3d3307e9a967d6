import Combine
import TestSupport
import Testing

/// Shared helpers for the single-upstream operator suites (names kept under `SingleOp` so they
/// cannot collide with other suites' helpers in this test module).
enum SingleOp {
    /// The error the tests push through pipelines; prints as `boom`.
    enum TestError: Error, Equatable, CustomStringConvertible {
        case boom
        case other
        var description: String { self == .boom ? "boom" : "other" }
    }

    typealias Upstream = TestUpstream<Int, TestError>

    /// Subscribes a ``TrackingSubscriber`` to `make(upstream)` and returns both ends.
    static func attach<P: Publisher>(
        _ make: (Upstream) -> P,
        name: String = "TestUpstream",
        demand: Subscribers.Demand? = .unlimited,
        after: @escaping (P.Output) -> Subscribers.Demand = { _ in .none }
    ) -> (Upstream, TrackingSubscriber<P.Output, P.Failure>) {
        let upstream = Upstream(name: name)
        let subscriber = TrackingSubscriber<P.Output, P.Failure>(initialDemand: demand, demandAfterValue: after)
        make(upstream).subscribe(subscriber)
        return (upstream, subscriber)
    }

    /// Subscribes a ``TrackingSubscriber`` to `make(upstream)` over an upstream that never sends
    /// a subscription, then calls `request(.max(1))` on the operator's upstream-facing object, as
    /// a `Subscription`: the misuse spec §10 rule 1 is about. Does nothing if that object is not a
    /// `Subscription`.
    static func requestBeforeSubscription<P: Publisher>(_ make: (SubscriberCapturingUpstream<Int, TestError>) -> P) {
        let upstream = SubscriberCapturingUpstream<Int, TestError>()
        make(upstream).subscribe(TrackingSubscriber<P.Output, P.Failure>())
        (upstream.subscriber as? any Subscription)?.request(.max(1))
    }

    /// What an exit test's process wrote to its standard error.
    static func standardError(_ result: ExitTest.Result?) -> String {
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }

    /// The subscriber's events as text: `subscription(Filter)`, `value(2)`, `finished`, `failure(boom)`.
    static func events<I, F>(_ subscriber: TrackingSubscriber<I, F>) -> [String] {
        subscriber.events.map(\.description)
    }

    /// What the upstream was asked: `request(max(1))`, `request(unlimited)`, `cancel`.
    static func calls(_ upstream: Upstream) -> [String] {
        upstream.calls.map(\.description)
    }

    /// Collects what a book example prints, headed the way the books' `example(of:)` helper does.
    final class Console: @unchecked Sendable {
        private(set) var lines: [String] = []
        init(example: String) { lines.append("——— Example of: \(example) ———") }
        func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }
    }
}

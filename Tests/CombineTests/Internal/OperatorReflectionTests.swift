import Combine
import Testing
import TestSupport

/// What `dump` prints of the objects a chain hands out, step by step, against the exact shapes
/// the edge specification gives for Apple's (§28): the checks the differential harness cannot
/// make where OpenCombine is not Apple, or has no such object.
@Suite("Operator reflection")
struct OperatorReflectionTests {
    private enum Boom: Error { case boom }

    /// `dump`'s text of `value`.
    private func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    /// `label: value` for each child of `subject`'s mirror, the values as `String(describing:)`
    /// spells them.
    private func children(_ subject: Any) -> [String] {
        Mirror(reflecting: subject).children.map { "\($0.label ?? "_"): \($0.value)" }
    }

    @Test func oneValueSubscriptionsShowTheValueAsOneUnlabelledChild() throws {
        // §28: `"Just"`, `"Optional"`, `"Once"`, each with the value as its one unlabelled child.
        let just = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Just(42).subscribe(just)
        #expect(dumped(try #require(just.subscription)) == "▿ Just #0\n  - 42\n")

        let optional = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Optional(42).publisher.subscribe(optional)
        #expect(dumped(try #require(optional.subscription)) == "▿ Optional #0\n  - 42\n")

        let result = TrackingSubscriber<Int, Boom>(initialDemand: nil)
        Result<Int, Boom>.success(42).publisher.subscribe(result)
        #expect(dumped(try #require(result.subscription)) == "▿ Once #0\n  - 42\n")
    }

    @Test func subjectConduitLetsGoOfParentAndDownstreamAtTheCancel() throws {
        // §28: children `parent`, `downstream`, `demand` (`max(0)` at first), `subject`;
        // `parent` and `downstream` become `nil` after a cancel.
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["parent", "downstream", "demand", "subject"])
        #expect(children(subscription)[2] == "demand: max(0)")
        let parent = mirror.children.first?.value
        #expect((parent.flatMap { Mirror(reflecting: $0).children.first?.value } as AnyObject?) === subject)
        subscription.request(.max(2))
        #expect(children(subscription)[2] == "demand: max(2)")
        subscription.cancel()
        #expect(Array(children(subscription).prefix(2)) == ["parent: nil", "downstream: nil"])
    }

    @Test func subjectConduitLetsGoOfParentAndDownstreamAtTheCompletion() throws {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(children(subscription)[2] == "demand: max(0)")
        subject.send(completion: .finished)
        #expect(Array(children(subscription).prefix(2)) == ["parent: nil", "downstream: nil"])
    }

    @Test func catchShowsDownstreamAndDemandBeforeAndAfterTheSwitch() throws {
        // §28: children `downstream` and `demand`, `max(0)` at first, before and after recovery.
        let upstream = TestUpstream<Int, Boom>()
        let replacement = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        upstream.catch { _ in replacement }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(Mirror(reflecting: subscription).children.map(\.label) == ["downstream", "demand"])
        #expect(children(subscription).last == "demand: max(0)")
        subscription.request(.max(2))
        #expect(children(subscription).last == "demand: max(2)")
        upstream.send(1)
        #expect(children(subscription).last == "demand: max(1)")
        upstream.send(completion: .failure(.boom))
        #expect(subscription is CustomReflectable)
        #expect(Mirror(reflecting: subscription).children.map(\.label) == ["downstream", "demand"])
        #expect(children(subscription).last == "demand: max(1)")
        replacement.send(2)
        #expect(children(subscription).last == "demand: max(0)")
    }

    @Test func innerObjectsWithoutAShapeShowNone() throws {
        // §28: Apple's `delay` and `prefix(untilOutputFrom:)` objects have no description,
        // mirror or playground description.
        let scheduler = ImmediateScheduler.shared
        let delayed = TrackingSubscriber<Int, Never>(initialDemand: nil)
        TestUpstream<Int, Never>().delay(for: .zero, scheduler: scheduler).subscribe(delayed)
        let prefixed = TrackingSubscriber<Int, Never>(initialDemand: nil)
        TestUpstream<Int, Never>().prefix(untilOutputFrom: TestUpstream<Int, Never>()).subscribe(prefixed)
        for subscription in [try #require(delayed.subscription), try #require(prefixed.subscription)] {
            #expect(!(subscription is CustomStringConvertible))
            #expect(!(subscription is CustomReflectable))
            #expect(!(subscription is CustomPlaygroundDisplayConvertible))
        }
    }
}

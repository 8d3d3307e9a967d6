import Combine
import Foundation
import Testing
import TestSupport

/// Regression tests for the bugs the stress suite, the leak audit and the random pipeline checker
/// found, each reduced to the smallest case that showed it.
@Suite("Found bugs")
struct FoundBugsTests {
    /// `prefix(untilOutputFrom:)` marked its trigger subscription finished when the trigger fired
    /// but never cancelled it, so a subject used as trigger kept the pipeline (and itself) alive.
    @Test func prefixUntilOutputCancelsTheTriggerWhenItFires() {
        let upstream = TestUpstream<Int, Never>(name: "upstream")
        let trigger = TestUpstream<Int, Never>(name: "trigger")
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        _ = upstream.send(1)
        _ = trigger.send(0)
        #expect(trigger.isCancelled)
        #expect(upstream.isCancelled)
        #expect(subscriber.events.map(\.description) == ["subscription(PrefixUntilOutput)", "value(1)", "finished"])
    }
}

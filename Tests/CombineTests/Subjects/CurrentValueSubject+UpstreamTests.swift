import Combine
import TestSupport
import Testing

/// A `CurrentValueSubject` given an upstream subscription asks it for everything at once, as
/// Apple's does, so its value follows the upstream with or without subscribers; and after its
/// completion the `value` setter still changes the value while `send(_:)` does not.
@Suite("CurrentValueSubject upstream and completion")
struct CurrentValueSubjectUpstreamTests {
    @Test func sendSubscriptionRequestsUnlimitedAtOnceEveryTime() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let upstream = TestUpstream<Int, Never>()
        let link = upstream.subscribe(subject)
        #expect(upstream.calls == [.request(.unlimited)])
        // A second subscriber's demand asks nothing more of the upstream.
        let first = subject.sink { _ in }
        let second = subject.sink { _ in }
        #expect(upstream.calls == [.request(.unlimited)])
        withExtendedLifetime((link, first, second)) {}
    }

    @Test func aSubscriptionSentTwiceIsAskedTwiceAndCancelledWithTheSubject() {
        final class Recording: Subscription {
            var calls: [String] = []
            func request(_ demand: Subscribers.Demand) { calls.append("request(\(demand))") }
            func cancel() { calls.append("cancel") }
        }
        let recording = Recording()
        var subject: CurrentValueSubject<Int, Never>? = CurrentValueSubject(0)
        subject?.send(subscription: recording)
        subject?.send(subscription: recording)
        #expect(recording.calls == ["request(unlimited)", "request(unlimited)"])
        subject = nil
        #expect(recording.calls == ["request(unlimited)", "request(unlimited)", "cancel", "cancel"])
    }

    @Test func justIntoASubjectWithoutSubscribersUpdatesItsValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = Just(7).subscribe(subject)
        #expect(subject.value == 7)
        withExtendedLifetime(cancellable) {}
    }

    /// Two chained subjects: a later subscriber of the second gets the newest value once, then
    /// every later one (a relay built this way used to see the stale first value twice).
    @Test func chainedSubjectsRelayTheNewestValue() {
        let input = CurrentValueSubject<String, Never>("initial")
        let output = CurrentValueSubject<String, Never>("unset")
        let link = input.subscribe(output)
        #expect(output.value == "initial")
        var received: [String] = []
        let sink = output.sink { received.append($0) }
        input.send("1")
        input.send("2")
        input.send("3")
        #expect(received == ["initial", "1", "2", "3"])
        withExtendedLifetime((link, sink)) {}
    }

    @Test func afterCompletionTheValueSetterChangesTheValueAndSendDoesNot() {
        let subject = CurrentValueSubject<Int, Never>(1)
        var received: [Int] = []
        let sink = subject.sink { received.append($0) }
        subject.send(completion: .finished)
        subject.value = 5
        #expect(subject.value == 5)
        subject.send(6)
        #expect(subject.value == 5)
        #expect(received == [1])
        withExtendedLifetime(sink) {}
    }
}

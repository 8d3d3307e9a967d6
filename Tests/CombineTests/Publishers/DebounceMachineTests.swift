@testable import Combine
import TestSupport
import Testing

/// debounce's bookkeeping, driven event by event without a scheduler: one trip through the lock
/// hands out everything a completion or a cancel needs.
@Suite("Publishers.Debounce.Machine")
struct DebounceMachineTests {
    enum TestError: Error { case boom }
    typealias Machine = Publishers.Debounce<PassthroughSubject<Int, TestError>, ImmediateScheduler>.Machine<String>

    final class Timer: Cancellable {
        var cancelled = false
        func cancel() { cancelled = true }
    }

    @Test func theUpstreamsCompletionHandsOutTheUpstreamTheTimerAndTheSubscriberAtOnce() throws {
        var machine = Machine(downstream: "downstream")
        let upstream = RecordingSubscription(name: "upstream")
        let subscriber = machine.subscribed(upstream)
        #expect(subscriber == "downstream")
        guard case .startTimer(let generation) = machine.received(1) else {
            Issue.record("a value does not arm a timer")
            return
        }
        let timer = Timer()
        let replaced = machine.store(timer, armed: generation)
        #expect(replaced == nil)
        let completed = machine.upstreamCompleted()
        let completing = try #require(completed)
        #expect((completing.upstream as? RecordingSubscription) === upstream)
        #expect((completing.timer as? Timer) === timer)
        #expect(completing.downstream == "downstream")
        // The waiting value is dropped: the armed timer no longer delivers it.
        #expect(machine.pending == nil)
        let fired = machine.timerEnded(generation)
        #expect(fired == nil)
        // A second completion finds nothing to hand out.
        let second = machine.upstreamCompleted()
        #expect(second == nil)
    }

    @Test func aCancelHandsOutTheTimerAndTheUpstreamInOneStep() throws {
        var machine = Machine(downstream: "downstream")
        let upstream = RecordingSubscription(name: "upstream")
        _ = machine.subscribed(upstream)
        guard case .startTimer(let generation) = machine.received(1) else {
            Issue.record("a value does not arm a timer")
            return
        }
        let timer = Timer()
        _ = machine.store(timer, armed: generation)
        let cancelled = machine.cancel()
        let (heldTimer, heldUpstream) = try #require(cancelled)
        #expect((heldTimer as? Timer) === timer)
        #expect((heldUpstream as? RecordingSubscription) === upstream)
        #expect(machine.downstream == nil)
        #expect(machine.finished)
        // Nothing is left for a second cancel.
        let cancelledAgain = machine.cancel()
        let again = try #require(cancelledAgain)
        #expect(again.timer == nil && again.upstream == nil)
    }

    @Test func aCancelBeforeTheSubscriptionDoesNothing() {
        var machine = Machine(downstream: "downstream")
        let cancelled = machine.cancel()
        #expect(cancelled == nil)
        let subscriber = machine.subscribed(RecordingSubscription())
        #expect(subscriber == "downstream")
    }
}

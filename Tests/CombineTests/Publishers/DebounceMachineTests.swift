@testable import Combine
import TestSupport
import Testing

/// debounce's bookkeeping, driven event by event without a scheduler: one trip through the lock
/// hands out everything a value, a completion or a cancel needs.
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
        let timer = Timer()
        let generation: UInt64 = 1
        let arrival = machine.received(1, generation: generation, timer: timer, thread: 1)
        #expect(arrival.replaced == nil && arrival.emitted == nil && arrival.emission == nil)
        let completed = machine.upstreamCompleted()
        let completing = try #require(completed)
        #expect((completing.upstream as? RecordingSubscription) === upstream)
        #expect((completing.timer as? Timer) === timer)
        #expect(completing.downstream == "downstream")
        // The waiting value is dropped: the armed timer no longer delivers it.
        #expect(machine.pending == nil)
        let fired = machine.timerEnded(generation, thread: 1)
        #expect(fired == nil)
        // A second completion finds nothing to hand out.
        let second = machine.upstreamCompleted()
        #expect(second == nil)
    }

    @Test func aCancelHandsOutTheTimerAndTheUpstreamInOneStep() throws {
        var machine = Machine(downstream: "downstream")
        let upstream = RecordingSubscription(name: "upstream")
        _ = machine.subscribed(upstream)
        let timer = Timer()
        _ = machine.received(1, generation: 1, timer: timer, thread: 1)
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

    @Test func aValueTakesItsTimerAndHandsBackTheOneItReplaces() throws {
        var machine = Machine(downstream: "downstream")
        _ = machine.subscribed(RecordingSubscription())
        let first = Timer()
        let second = Timer()
        _ = machine.received(1, generation: 1, timer: first, thread: 1)
        let arrival = machine.received(2, generation: 2, timer: second, thread: 1)
        #expect((arrival.replaced as? Timer) === first)
        #expect(arrival.emitted == nil && arrival.emission == nil)
        #expect(machine.pending == 2)
        // The first timer is stale; the second one ends with the latest value, which is dropped
        // for want of demand, and hands back its own token.
        let stale = machine.timerEnded(1, thread: 1)
        #expect(stale == nil)
        machine.demand = .max(1)
        let ended = machine.timerEnded(2, thread: 1)
        let fired = try #require(ended)
        #expect((fired.0 as? Timer) === second)
        #expect(fired.1?.1 == 2)
        #expect(machine.demand == .none)
    }

    @Test func aTimerThatFiresOnTheValuesThreadBeforeTheValueArrivesDeliversItAtOnce() throws {
        var machine = Machine(downstream: "downstream")
        _ = machine.subscribed(RecordingSubscription())
        machine.demand = .unlimited
        let previous = Timer()
        _ = machine.received(1, generation: 1, timer: previous, thread: 7)
        // The scheduler ran generation 2's action inside `schedule`, on thread 7.
        #expect(machine.timerEnded(2, thread: 7) == nil)
        let token = Timer()
        let arrival = machine.received(2, generation: 2, timer: token, thread: 7)
        #expect((arrival.replaced as? Timer) === previous)
        #expect((arrival.emitted as? Timer) === token)
        let emission = try #require(arrival.emission)
        #expect(emission.0 == "downstream" && emission.1 == 2)
        #expect(machine.pending == nil && machine.timer == nil)
    }

    @Test func aTimerThatFiresOnAnotherThreadBeforeTheValueArrivesLeavesItToTheNextFiring() throws {
        var machine = Machine(downstream: "downstream")
        _ = machine.subscribed(RecordingSubscription())
        machine.demand = .unlimited
        #expect(machine.timerEnded(1, thread: 9) == nil)
        let token = Timer()
        let arrival = machine.received(1, generation: 1, timer: token, thread: 7)
        #expect(arrival.replaced == nil && arrival.emitted == nil && arrival.emission == nil)
        let ended = machine.timerEnded(1, thread: 9)
        let fired = try #require(ended)
        #expect((fired.0 as? Timer) === token)
        #expect(fired.1?.1 == 1)
    }

    @Test func aValueAfterACancelHandsBackItsOwnTimer() {
        var machine = Machine(downstream: "downstream")
        _ = machine.subscribed(RecordingSubscription())
        _ = machine.cancel()
        let token = Timer()
        let arrival = machine.received(1, generation: 1, timer: token, thread: 1)
        #expect((arrival.replaced as? Timer) === token)
        #expect(machine.pending == nil)
    }
}

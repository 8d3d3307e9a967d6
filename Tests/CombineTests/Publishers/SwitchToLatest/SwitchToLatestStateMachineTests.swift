@testable import Combine
import TestSupport
import Testing

/// switchToLatest's state machine, driven event by event without threads: the current inner's
/// phases across switches, completions and failures.
@Suite("SwitchToLatestStateMachine")
struct SwitchToLatestStateMachineTests {
    enum TestError: Error, Equatable { case boom }
    typealias Machine = SwitchToLatestStateMachine<AnySubscriber<Int, TestError>>

    func subscribed() -> (Machine, RecordingSubscription) {
        var machine = Machine(downstream: AnySubscriber<Int, TestError>())
        let upstream = RecordingSubscription(name: "upstream")
        let kept = machine.receiveUpstream(subscription: SubscriptionHandle(upstream))
        #expect(kept)
        return (machine, upstream)
    }

    @Test func aPublisherBeforeTheUpstreamSubscribesIsIgnored() {
        var machine = Machine(downstream: AnySubscriber<Int, TestError>())
        let switched = machine.switchInner()
        #expect(switched == nil)
        #expect(machine.innerPhase == .none)
    }

    @Test func switchingLetsGoOfThePreviousInnerAndDropsItsLateEvents() {
        var (machine, _) = subscribed()
        let first = machine.switchInner()!
        #expect(machine.innerPhase == .awaitingSubscription)
        let firstInner = RecordingSubscription(name: "first")
        _ = machine.receiveInner(subscription: SubscriptionHandle(firstInner), generation: first.generation)
        #expect(machine.innerPhase == .subscribed)
        let second = machine.switchInner()!
        #expect(second.generation != first.generation)
        #expect((second.previous?.subscription as? RecordingSubscription) === firstInner)
        guard case .drop = machine.receiveInner(1, generation: first.generation) else {
            Issue.record("a replaced inner's value is not dropped")
            return
        }
        // A replaced inner's subscription arriving late is refused.
        let late = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: first.generation)
        #expect(late == nil)
    }

    @Test func theOperatorFinishesOnceTheUpstreamAndTheCurrentInnerHave() {
        var (machine, _) = subscribed()
        let inner = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        _ = machine.receiveUpstream(completion: .finished)
        #expect(machine.gate.pendingCompletion == nil)
        let action = machine.receiveInner(completion: .finished, generation: inner.generation)
        #expect(machine.innerPhase == .finished)
        // Nobody delivers: this call takes the role, and its first step is the completion.
        guard case .completion(_, .finished)? = action?.step else {
            Issue.record("not finished after the upstream and the inner")
            return
        }
    }

    @Test func anInnersFailureFailsTheOperatorAndCancelsTheUpstream() {
        var (machine, upstream) = subscribed()
        let inner = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        let action = machine.receiveInner(completion: .failure(.boom), generation: inner.generation)
        #expect((action?.cancel?.subscription as? RecordingSubscription) === upstream)
        #expect(machine.innerPhase == .dropped)
        guard case .completion(_, .failure(.boom))? = action?.step else {
            Issue.record("the failure is not delivered next")
            return
        }
    }

    @Test func aValueBeyondTheDemandPassedOnIsReportedNotDelivered() {
        var (machine, _) = subscribed()
        let inner = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        guard case .beyondDemand = machine.receiveInner(1, generation: inner.generation) else {
            Issue.record("a value without demand is not reported beyond it")
            return
        }
        _ = machine.request(.max(1))
        guard case .step(.value(_, 1)) = machine.receiveInner(1, generation: inner.generation) else {
            Issue.record("a value with demand is not handed out")
            return
        }
    }

    @Test func cancelReturnsTheUpstreamAndTheInner() {
        var (machine, upstream) = subscribed()
        let inner = machine.switchInner()!
        let innerSubscription = RecordingSubscription(name: "inner")
        _ = machine.receiveInner(subscription: SubscriptionHandle(innerSubscription), generation: inner.generation)
        let (heldUpstream, heldInner) = machine.cancel()
        #expect((heldUpstream?.subscription as? RecordingSubscription) === upstream)
        #expect((heldInner?.subscription as? RecordingSubscription) === innerSubscription)
        #expect(machine.gate.isTerminated)
        let after = machine.switchInner()
        #expect(after == nil)
    }
}

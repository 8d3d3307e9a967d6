@testable import Combine
import TestSupport
import Testing

/// switchToLatest's state machine, driven event by event without threads: the current inner's
/// phases across switches, completions and failures, and what it hands the emitter.
@Suite("SwitchToLatestStateMachine")
struct SwitchToLatestStateMachineTests {
    enum TestError: Error, Equatable { case boom }
    typealias Machine = SwitchToLatestStateMachine<AnySubscriber<Int, TestError>>

    func makeMachine() -> Machine {
        Machine(box: Machine.Box(AnySubscriber<Int, TestError>()))
    }

    func subscribed() -> (Machine, RecordingSubscription) {
        var machine = makeMachine()
        let upstream = RecordingSubscription(name: "upstream")
        let kept = machine.receiveUpstream(subscription: SubscriptionHandle(upstream))
        #expect(kept)
        return (machine, upstream)
    }

    @Test func aPublisherBeforeTheUpstreamSubscribesIsIgnored() {
        var machine = makeMachine()
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
        guard case .drop = machine.receiveInner(1, generation: first.generation, nested: false) else {
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
        let upstreamEnd = machine.receiveUpstream(completion: .finished)
        #expect(upstreamEnd.accepted)
        #expect(machine.emitter.pendingCompletion == nil)
        guard case .accepted(cancel: nil) = machine.receiveInner(completion: .finished, generation: inner.generation) else {
            Issue.record("the inner's completion is not accepted")
            return
        }
        #expect(machine.innerPhase == .finished)
        // Nothing is queued: the emitter's next step is the completion.
        guard case .completion(.finished, _) = machine.emitter.next() else {
            Issue.record("not finished after the upstream and the inner")
            return
        }
    }

    @Test func anInnerFinishingBeforeTheUpstreamEndsQuietly() {
        var (machine, _) = subscribed()
        let inner = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        guard case .ignored = machine.receiveInner(completion: .finished, generation: inner.generation) else {
            Issue.record("an inner finishing while the upstream goes on leaves the emitter something to settle")
            return
        }
        #expect(machine.innerPhase == .finished)
        #expect(machine.emitter.isOpen)
        #expect(!machine.emitter.hasWork)
        // The next inner is taken as usual.
        let next = machine.switchInner()
        #expect(next?.generation == inner.generation + 1)
    }

    @Test func theQuietEndLeavesEveryOtherCompletionToTheFullPath() {
        var (machine, _) = subscribed()
        let inner = machine.switchInner()!
        // Before the inner's subscription: the full path reports it.
        let quiet1 = machine.endInnerQuietly(finished: true, generation: inner.generation)
        #expect(!quiet1)
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        // A failure, or a finish after the upstream's, may end the operator: nothing is changed.
        let quiet2 = machine.endInnerQuietly(finished: false, generation: inner.generation)
        #expect(!quiet2)
        #expect(machine.innerPhase == .subscribed)
        // A replaced inner's completion is nothing to do.
        let quiet3 = machine.endInnerQuietly(finished: false, generation: inner.generation - 1)
        #expect(quiet3)
        // The current inner finishing while the upstream goes on ends quietly.
        let quiet4 = machine.endInnerQuietly(finished: true, generation: inner.generation)
        #expect(quiet4)
        #expect(machine.innerPhase == .finished)
        #expect(machine.inner == nil)
        #expect(machine.emitter.isOpen)

        let next = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: next.generation)
        _ = machine.receiveUpstream(completion: .finished)
        let quiet5 = machine.endInnerQuietly(finished: true, generation: next.generation)
        #expect(!quiet5)
        #expect(machine.innerPhase == .subscribed)
    }

    @Test func anInnersFailureFailsTheOperatorAndCancelsTheUpstream() {
        var (machine, upstream) = subscribed()
        let inner = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        guard case .accepted(let cancel) = machine.receiveInner(completion: .failure(.boom), generation: inner.generation)
        else {
            Issue.record("the inner's failure is not accepted")
            return
        }
        #expect((cancel?.subscription as? RecordingSubscription) === upstream)
        #expect(machine.innerPhase == .dropped)
        guard case .completion(.failure(.boom), _) = machine.emitter.next() else {
            Issue.record("the failure is not delivered next")
            return
        }
    }

    @Test func anInnerCompletingBeforeItsSubscriptionIsReported() {
        var (machine, _) = subscribed()
        let inner = machine.switchInner()!
        guard case .beforeSubscription = machine.receiveInner(completion: .finished, generation: inner.generation) else {
            Issue.record("a completion before the subscription is not reported")
            return
        }
    }

    @Test func aValueBeyondTheDemandPassedOnIsReportedNotDelivered() {
        var (machine, _) = subscribed()
        let inner = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        guard case .beyondDemand = machine.receiveInner(1, generation: inner.generation, nested: false) else {
            Issue.record("a value without demand is not reported beyond it")
            return
        }
        _ = machine.request(.max(1))
        guard case .accept = machine.receiveInner(1, generation: inner.generation, nested: false) else {
            Issue.record("a value with demand is not handed to the emitter")
            return
        }
        // Handing it to the emitter is the subscription's part: the demand is not spent here.
        #expect(machine.emitter.demand == .max(1))
    }

    @Test func aValueSentFromInsideTheSubscriberSpendsItsDemandAndGoesOutNested() {
        var (machine, _) = subscribed()
        let inner = machine.switchInner()!
        _ = machine.receiveInner(subscription: SubscriptionHandle(RecordingSubscription()), generation: inner.generation)
        _ = machine.request(.max(2))
        guard case .nested = machine.receiveInner(1, generation: inner.generation, nested: true) else {
            Issue.record("a value from inside the subscriber is not delivered nested")
            return
        }
        #expect(machine.emitter.demand == .max(1))
        #expect(machine.emitter.queue.isEmpty)
    }

    @Test func answersToOtherThreadsValuesAreRequestedFromTheCurrentInnerUntilASwitch() {
        var (machine, _) = subscribed()
        let first = machine.switchInner()!
        let firstInner = RecordingSubscription(name: "first")
        _ = machine.receiveInner(subscription: SubscriptionHandle(firstInner), generation: first.generation)
        _ = machine.request(.max(1))
        let owed = machine.delivered(additional: .max(2))
        #expect(owed)
        guard let (target, demand) = machine.topUp(at: 0) else {
            Issue.record("the answer is not requested from the inner")
            return
        }
        #expect(((target as? SubscriptionHandle)?.subscription as? RecordingSubscription) === firstInner)
        #expect(demand == .max(2))
        let again = machine.topUp(at: 0)
        #expect(again == nil)
        // An answer set aside before a switch is not requested: the new inner is granted the
        // free demand, which includes it.
        let owedBeforeSwitch = machine.delivered(additional: .max(1))
        #expect(owedBeforeSwitch)
        _ = machine.switchInner()
        let afterSwitch = machine.topUp(at: 0)
        #expect(afterSwitch == nil)
        // Nothing is requested of an inner whose subscription has not arrived.
        let owedToNobody = machine.delivered(additional: .max(1))
        #expect(!owedToNobody)
    }

    @Test func cancelReturnsTheInnerThenTheUpstream() {
        var (machine, upstream) = subscribed()
        let inner = machine.switchInner()!
        let innerSubscription = RecordingSubscription(name: "inner")
        _ = machine.receiveInner(subscription: SubscriptionHandle(innerSubscription), generation: inner.generation)
        let held = machine.cancel()
        #expect(held.count == 2)
        #expect(((held.first as? SubscriptionHandle)?.subscription as? RecordingSubscription) === innerSubscription)
        #expect(((held.last as? SubscriptionHandle)?.subscription as? RecordingSubscription) === upstream)
        #expect(machine.emitter.terminated)
        let after = machine.switchInner()
        #expect(after == nil)
    }
}

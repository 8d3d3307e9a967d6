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

    /// Switches to a new inner: its generation and the previous inner's subscription, `nil` when
    /// the core handed over its placeholder.
    func switchInner(_ machine: inout Machine) -> (generation: Int, previous: (any Subscription)?)? {
        var previous: any Subscription = PlaceholderSubscription()
        guard let generation = machine.core.switchInner(handingOver: &previous) else { return nil }
        return (generation, previous is PlaceholderSubscription ? nil : previous)
    }

    func subscribed() -> (Machine, RecordingSubscription) {
        var machine = makeMachine()
        let upstream = RecordingSubscription(name: "upstream")
        let kept = machine.receiveUpstream(subscription: upstream)
        #expect(kept)
        return (machine, upstream)
    }

    @Test func aPublisherBeforeTheUpstreamSubscribesIsIgnored() {
        var machine = makeMachine()
        let switched = switchInner(&machine)
        #expect(switched == nil)
        #expect(machine.core.innerPhase == .none)
    }

    @Test func switchingLetsGoOfThePreviousInnerAndDropsItsLateEvents() {
        var (machine, _) = subscribed()
        let first = switchInner(&machine)!
        #expect(machine.core.innerPhase == .awaitingSubscription)
        let firstInner = RecordingSubscription(name: "first")
        _ = machine.core.receiveInner(subscription: firstInner, generation: first.generation)
        #expect(machine.core.innerPhase == .subscribed)
        let second = switchInner(&machine)!
        #expect(second.generation != first.generation)
        #expect((second.previous as? RecordingSubscription) === firstInner)
        guard case .drop = machine.receiveInner(generation: first.generation, nested: false) else {
            Issue.record("a replaced inner's value is not dropped")
            return
        }
        // A replaced inner's subscription arriving late is refused.
        let late = machine.core.receiveInner(subscription: RecordingSubscription(), generation: first.generation)
        #expect(late == .cancel)
    }

    @Test func theOperatorFinishesOnceTheUpstreamAndTheCurrentInnerHave() {
        var (machine, _) = subscribed()
        let inner = switchInner(&machine)!
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: inner.generation)
        let upstreamEnd = machine.receiveUpstream(completion: .finished)
        #expect(upstreamEnd.accepted)
        #expect(machine.emitter.pendingCompletion == nil)
        guard case .accepted(cancel: nil) = machine.receiveInner(completion: .finished, generation: inner.generation) else {
            Issue.record("the inner's completion is not accepted")
            return
        }
        #expect(machine.core.innerPhase == .finished)
        // Nothing is queued: the emitter's next step is the completion.
        guard case .completion(.finished, _) = machine.emitter.next() else {
            Issue.record("not finished after the upstream and the inner")
            return
        }
    }

    @Test func anInnerFinishingBeforeTheUpstreamEndsQuietly() {
        var (machine, _) = subscribed()
        let inner = switchInner(&machine)!
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: inner.generation)
        guard case .ignored = machine.receiveInner(completion: .finished, generation: inner.generation) else {
            Issue.record("an inner finishing while the upstream goes on leaves the emitter something to settle")
            return
        }
        #expect(machine.core.innerPhase == .finished)
        #expect(machine.emitter.isOpen)
        #expect(!machine.emitter.hasWork)
        // The next inner is taken as usual.
        let next = switchInner(&machine)
        #expect(next?.generation == inner.generation + 1)
    }

    @Test func theQuietEndLeavesEveryOtherCompletionToTheFullPath() {
        var (machine, _) = subscribed()
        let inner = switchInner(&machine)!
        // Before the inner's subscription: the full path reports it.
        let quiet1 = machine.core.endInnerQuietly(finished: true, generation: inner.generation)
        #expect(!quiet1)
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: inner.generation)
        // A failure, or a finish after the upstream's, may end the operator: nothing is changed.
        let quiet2 = machine.core.endInnerQuietly(finished: false, generation: inner.generation)
        #expect(!quiet2)
        #expect(machine.core.innerPhase == .subscribed)
        // A replaced inner's completion is nothing to do.
        let quiet3 = machine.core.endInnerQuietly(finished: false, generation: inner.generation - 1)
        #expect(quiet3)
        // The current inner finishing while the upstream goes on ends quietly.
        let quiet4 = machine.core.endInnerQuietly(finished: true, generation: inner.generation)
        #expect(quiet4)
        #expect(machine.core.innerPhase == .finished)
        #expect(machine.core.inner is PlaceholderSubscription)
        #expect(machine.emitter.isOpen)

        let next = switchInner(&machine)!
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: next.generation)
        _ = machine.receiveUpstream(completion: .finished)
        let quiet5 = machine.core.endInnerQuietly(finished: true, generation: next.generation)
        #expect(!quiet5)
        #expect(machine.core.innerPhase == .subscribed)
    }

    @Test func anInnersFailureFailsTheOperatorAndCancelsTheUpstream() {
        var (machine, upstream) = subscribed()
        let inner = switchInner(&machine)!
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: inner.generation)
        guard case .accepted(let cancel) = machine.receiveInner(completion: .failure(.boom), generation: inner.generation)
        else {
            Issue.record("the inner's failure is not accepted")
            return
        }
        #expect((cancel as? RecordingSubscription) === upstream)
        #expect(machine.core.innerPhase == .dropped)
        guard case .completion(.failure(.boom), _) = machine.emitter.next() else {
            Issue.record("the failure is not delivered next")
            return
        }
    }

    @Test func anInnerCompletingBeforeItsSubscriptionIsReported() {
        var (machine, _) = subscribed()
        let inner = switchInner(&machine)!
        guard case .beforeSubscription = machine.receiveInner(completion: .finished, generation: inner.generation) else {
            Issue.record("a completion before the subscription is not reported")
            return
        }
    }

    @Test func aValueBeyondTheDemandPassedOnIsReportedNotDelivered() {
        var (machine, _) = subscribed()
        let inner = switchInner(&machine)!
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: inner.generation)
        guard case .beyondDemand = machine.receiveInner(generation: inner.generation, nested: false) else {
            Issue.record("a value without demand is not reported beyond it")
            return
        }
        _ = machine.request(.max(1))
        guard case .accept = machine.receiveInner(generation: inner.generation, nested: false) else {
            Issue.record("a value with demand is not handed to the emitter")
            return
        }
        // Handing it to the emitter is the subscription's part: the demand is not spent here.
        #expect(machine.emitter.demand == .max(1))
    }

    @Test func aValueSentFromInsideTheSubscriberSpendsItsDemandAndGoesOutNested() {
        var (machine, _) = subscribed()
        let inner = switchInner(&machine)!
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: inner.generation)
        _ = machine.request(.max(2))
        guard case .nested = machine.receiveInner(generation: inner.generation, nested: true) else {
            Issue.record("a value from inside the subscriber is not delivered nested")
            return
        }
        #expect(machine.emitter.demand == .max(1))
        #expect(machine.emitter.queue.isEmpty)
    }

    @Test func answersToOtherThreadsValuesAreRequestedFromTheCurrentInnerUntilASwitch() {
        var (machine, _) = subscribed()
        let first = switchInner(&machine)!
        let firstInner = RecordingSubscription(name: "first")
        _ = machine.core.receiveInner(subscription: firstInner, generation: first.generation)
        _ = machine.request(.max(1))
        let owed = machine.delivered(additional: .max(2))
        #expect(owed)
        guard let (target, demand) = machine.topUp(at: 0) else {
            Issue.record("the answer is not requested from the inner")
            return
        }
        #expect((target as? RecordingSubscription) === firstInner)
        #expect(demand == .max(2))
        let again = machine.topUp(at: 0)
        #expect(again == nil)
        // An answer set aside before a switch is not requested: the new inner is granted the
        // free demand, which includes it.
        let owedBeforeSwitch = machine.delivered(additional: .max(1))
        #expect(owedBeforeSwitch)
        _ = switchInner(&machine)
        let afterSwitch = machine.topUp(at: 0)
        #expect(afterSwitch == nil)
        // Nothing is requested of an inner whose subscription has not arrived.
        let owedToNobody = machine.delivered(additional: .max(1))
        #expect(!owedToNobody)
    }

    @Test func cancelReturnsTheInnerThenTheUpstream() {
        var (machine, upstream) = subscribed()
        let inner = switchInner(&machine)!
        let innerSubscription = RecordingSubscription(name: "inner")
        _ = machine.core.receiveInner(subscription: innerSubscription, generation: inner.generation)
        let held = machine.cancel()
        #expect(held.count == 2)
        #expect((held.first as? RecordingSubscription) === innerSubscription)
        #expect((held.last as? RecordingSubscription) === upstream)
        #expect(machine.emitter.terminated)
        let after = switchInner(&machine)
        #expect(after == nil)
    }

    @Test func theCoreFollowsTheEmittersPhaseAndAnUnlimitedDemand() {
        var (machine, _) = subscribed()
        let inner = switchInner(&machine)!
        _ = machine.core.receiveInner(subscription: RecordingSubscription(), generation: inner.generation)
        // A finite demand is counted by the machine, not decided by the core alone.
        _ = machine.request(.max(1))
        #expect(!machine.core.emitterFlags.demandUnlimited)
        guard case .nested = machine.receiveInner(generation: inner.generation, nested: true) else {
            Issue.record("a value from inside the subscriber is not delivered nested")
            return
        }
        #expect(machine.emitter.demand == .none)
        // An answer that makes the demand unlimited reaches the core's copy.
        machine.deliveredOwn(additional: .unlimited)
        #expect(machine.core.emitterFlags.demandUnlimited)
        guard case .accept = machine.core.receiveInner(generation: inner.generation, hasFreeDemand: true, nested: false)
        else {
            Issue.record("a value under an unlimited demand is not handed to the emitter")
            return
        }
        // The inner's failure closes the emitter, and the core's copy with it.
        #expect(machine.core.emitterFlags.open)
        _ = machine.receiveInner(completion: .failure(.boom), generation: inner.generation)
        #expect(!machine.core.emitterFlags.open)
        #expect(!machine.isOpen)
        #expect(switchInner(&machine) == nil)
    }

    @Test func aCancelClosesTheCoresCopyOfThePhase() {
        var (machine, _) = subscribed()
        _ = machine.cancel()
        #expect(!machine.core.emitterFlags.open)
        #expect(!machine.isOpen)
    }
}

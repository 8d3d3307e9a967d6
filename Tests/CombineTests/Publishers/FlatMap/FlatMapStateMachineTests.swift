@testable import Combine
import TestSupport
import Testing

/// The phases of flatMap's state machine, driven event by event without threads: the upstream's
/// side, each inner slot, and the subscriber's side.
@Suite("FlatMapStateMachine")
struct FlatMapStateMachineTests {
    enum TestError: Error, Equatable { case boom }
    typealias Machine = FlatMapStateMachine<AnySubscriber<Int, TestError>>

    func machine(maxPublishers: Subscribers.Demand = .unlimited) -> Machine {
        Machine(box: SubscriberBox(AnySubscriber<Int, TestError>()), maxPublishers: maxPublishers)
    }

    /// A machine whose upstream has subscribed.
    func subscribed(maxPublishers: Subscribers.Demand = .unlimited) -> (Machine, RecordingSubscription) {
        var machine = machine(maxPublishers: maxPublishers)
        let upstream = RecordingSubscription(name: "upstream")
        let kept = machine.receiveUpstream(subscription: upstream)
        #expect(kept)
        return (machine, upstream)
    }

    func isFinished(_ completion: Subscribers.Completion<TestError>?) -> Bool {
        if case .finished = completion { return true }
        return false
    }

    // MARK: Upstream side

    @Test func upstreamValuesAreWantedOnlyOnceItsSubscriptionHasArrived() {
        var machine = machine()
        guard case .awaitingSubscription = machine.core.upstreamPhase else {
            Issue.record("starts \(machine.core.upstreamPhase)")
            return
        }
        let early = machine.registerInner()
        #expect(early == nil)
        let kept = machine.receiveUpstream(subscription: RecordingSubscription())
        #expect(kept)
        guard case .subscribed = machine.core.upstreamPhase else {
            Issue.record("after its subscription: \(machine.core.upstreamPhase)")
            return
        }
        let registered = machine.registerInner()
        #expect(registered != nil)
        // A second subscription is refused (the caller cancels it).
        let second = machine.receiveUpstream(subscription: RecordingSubscription())
        #expect(!second)
    }

    @Test func upstreamFinishingWithNoInnerFinishesTheOperator() {
        var (machine, _) = subscribed()
        _ = machine.receiveUpstream(completion: .finished)
        guard case .finished(awaitingTransforms: 0) = machine.core.upstreamPhase else {
            Issue.record("after .finished: \(machine.core.upstreamPhase)")
            return
        }
        #expect(isFinished(machine.emitter.pendingCompletion))
        let late = machine.registerInner()
        #expect(late == nil)
    }

    @Test func upstreamFinishingInsideATransformWaitsForThatTransformsInner() {
        var (machine, _) = subscribed()
        machine.emitter.demand = .unlimited
        #expect(machine.fastEligible)
        _ = machine.receiveUpstream(completion: .finished, duringTransforms: 1)
        guard case .finished(awaitingTransforms: 1) = machine.core.upstreamPhase else {
            Issue.record("after .finished inside a transform: \(machine.core.upstreamPhase)")
            return
        }
        #expect(machine.emitter.pendingCompletion == nil)
        #expect(!machine.fastEligible)
        let slot = machine.core.registerAfterTransform()
        guard case .finished(awaitingTransforms: 0) = machine.core.upstreamPhase else {
            Issue.record("after the inner is registered: \(machine.core.upstreamPhase)")
            return
        }
        // The operator finishes once that inner does.
        _ = machine.receiveInner(subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        _ = machine.receiveInner(completion: .finished, at: slot.index, generation: slot.generation)
        #expect(isFinished(machine.emitter.pendingCompletion))
    }

    @Test func cancelBeforeTheUpstreamSubscribesRefusesItsSubscription() {
        var machine = machine()
        let held = machine.cancel()
        #expect(held.isEmpty)
        #expect(machine.core.upstreamFinished)
        let late = machine.receiveUpstream(subscription: RecordingSubscription())
        #expect(!late)
    }

    // MARK: Inner slots

    @Test func aFinishedInnersSlotIsReusedWithANewGeneration() {
        var (machine, _) = subscribed()
        let first = machine.registerInner()!
        #expect(!machine.core.inners[first.index].isSubscribed)
        let inner = RecordingSubscription()
        guard case .request(.max(1), replaced: nil) = machine.receiveInner(
            subscription: inner, at: first.index, generation: first.generation)
        else {
            Issue.record("the inner's subscription is not asked for one value")
            return
        }
        #expect(machine.core.inners[first.index].isSubscribed)
        let quietly = machine.finishInnerQuietly(at: first.index, generation: first.generation)
        #expect(quietly)
        #expect(machine.core.inners[first.index].isFree)
        #expect(inner.cancelCount == 0)
        let second = machine.registerInner()!
        #expect(second.index == first.index)
        #expect(second.generation != first.generation)
        // The finished inner's late events no longer reach the new one's slot.
        guard case .drop = machine.receiveInner(1, at: first.index, generation: first.generation, emitting: false)
        else {
            Issue.record("a value of a finished inner is not dropped")
            return
        }
    }

    @Test func anInnerThatCompletesBeforeItsSubscriptionKeepsItsSlot() {
        var (machine, _) = subscribed()
        let slot = machine.registerInner()!
        _ = machine.receiveUpstream(completion: .finished)
        _ = machine.receiveInner(completion: .finished, at: slot.index, generation: slot.generation)
        guard case .awaitingSubscription = machine.core.inners[slot.index].phase else {
            Issue.record("after an early completion: \(machine.core.inners[slot.index].phase)")
            return
        }
        // It still counts as pending, so the operator has not finished.
        #expect(machine.emitter.pendingCompletion == nil)
    }

    @Test func anInnersSecondSubscriptionReplacesTheFirstWithoutACancel() {
        var (machine, _) = subscribed()
        let slot = machine.registerInner()!
        let first = RecordingSubscription(name: "first")
        _ = machine.receiveInner(subscription: first, at: slot.index, generation: slot.generation)
        guard case .request(_, replaced: let replaced?) = machine.receiveInner(
            subscription: RecordingSubscription(name: "second"), at: slot.index, generation: slot.generation)
        else {
            Issue.record("the first subscription is not handed back")
            return
        }
        #expect((replaced as? RecordingSubscription) === first)
        #expect(first.cancelCount == 0)
    }

    @Test func anInnersFailureClosesTheOtherInnersAndLeavesTheUpstreamAlone() {
        var (machine, upstream) = subscribed()
        let failing = machine.registerInner()!
        let other = machine.registerInner()!
        let failingSubscription = RecordingSubscription(name: "failing")
        let otherSubscription = RecordingSubscription(name: "other")
        _ = machine.receiveInner(subscription: failingSubscription, at: failing.index, generation: failing.generation)
        _ = machine.receiveInner(subscription: otherSubscription, at: other.index, generation: other.generation)
        let action = machine.receiveInner(completion: .failure(.boom), at: failing.index, generation: failing.generation)
        #expect(action.cancel.map { ($0 as? RecordingSubscription)?.description } == ["other"])
        #expect((action.releaseAfter as? RecordingSubscription) === failingSubscription)
        guard case .closed = machine.core.inners[other.index].phase, machine.core.inners[failing.index].isFree else {
            Issue.record("after the failure: \(machine.core.inners.map(\.phase))")
            return
        }
        #expect(machine.core.upstreamFinished)
        #expect(upstream.cancelCount == 0)
        guard case .failure(.boom) = machine.emitter.pendingCompletion else {
            Issue.record("the failure is not decided")
            return
        }
    }

    @Test func cancelReturnsTheInnersThenTheUpstream() {
        var (machine, _) = subscribed()
        let slot = machine.registerInner()!
        _ = machine.receiveInner(
            subscription: RecordingSubscription(name: "inner"), at: slot.index, generation: slot.generation)
        let held = machine.cancel()
        #expect(held.map { ($0 as? RecordingSubscription)?.description } == ["inner", "upstream"])
        guard case .closed = machine.core.inners[slot.index].phase else {
            Issue.record("after the cancel: \(machine.core.inners[slot.index].phase)")
            return
        }
        #expect(machine.emitter.terminated)
    }

    @Test func withFinitePublishersAFinishedInnerAsksTheUpstreamForOneMore() {
        var (machine, upstream) = subscribed(maxPublishers: .max(1))
        let slot = machine.registerInner()!
        _ = machine.receiveInner(subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        let quietly = machine.finishInnerQuietly(at: slot.index, generation: slot.generation)
        #expect(!quietly)
        let action = machine.receiveInner(completion: .finished, at: slot.index, generation: slot.generation)
        #expect((action.requestOne as? RecordingSubscription) === upstream)
        #expect(machine.core.inners[slot.index].isFree)
    }

    // MARK: Subscriber side

    @Test func aValueIsDeliveredWithDemandAndQueuedWithout() {
        var (machine, _) = subscribed()
        let slot = machine.registerInner()!
        _ = machine.receiveInner(subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        guard case .queued = machine.receiveInner(1, at: slot.index, generation: slot.generation, emitting: false)
        else {
            Issue.record("a value without demand is not queued")
            return
        }
        _ = machine.request(.max(2))
        // Behind a queued value, a value waits its turn.
        guard case .queued = machine.receiveInner(2, at: slot.index, generation: slot.generation, emitting: false)
        else {
            Issue.record("a value behind the queue is not queued")
            return
        }
        #expect(machine.emitter.queue.count == 2)
        let next = machine.emitter.next()
        guard case .value(1, tag: let tag) = next else {
            Issue.record("the queued value does not come out first")
            return
        }
        #expect(tag.index == slot.index && tag.generation == slot.generation)
    }

    @Test func aNestedValueGoesOutAtOnceExceptDuringTheFollowUpRequest() {
        var (machine, _) = subscribed()
        let slot = machine.registerInner()!
        let inner = RecordingSubscription()
        _ = machine.receiveInner(subscription: inner, at: slot.index, generation: slot.generation)
        _ = machine.request(.max(3))
        guard case .deliverNested(oneMore: .max(1)) = machine.receiveInner(
            1, at: slot.index, generation: slot.generation, emitting: true, nested: true)
        else {
            Issue.record("a value sent from inside the subscriber is not delivered nested")
            return
        }
        let followUp = machine.beginFollowUp(after: FlatMapTag(index: slot.index, generation: slot.generation))
        #expect((followUp as? RecordingSubscription) === inner)
        guard case .queued = machine.receiveInner(
            2, at: slot.index, generation: slot.generation, emitting: true, nested: true)
        else {
            Issue.record("a value sent from inside the follow-up request is not queued")
            return
        }
        machine.endFollowUp()
        #expect(!machine.core.requestingOne)
    }

    @Test func unlimitedDemandOpensTheLockFreePathAndAsksEveryInnerForEverything() {
        var (machine, _) = subscribed()
        #expect(!machine.fastEligible)
        let action = machine.request(.unlimited)
        #expect(action.requestAll)
        #expect(machine.fastEligible)
        let slot = machine.registerInner()!
        guard case .request(.unlimited, replaced: nil) = machine.receiveInner(
            subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        else {
            Issue.record("a new inner is not asked for everything")
            return
        }
        #expect(machine.heldInnerSubscriptions().count == 1)
    }

    // MARK: The core's copies of the subscriber's side

    /// The checks made for every inner publisher read copies of the emitter's phase and of
    /// whether the demand is unlimited, kept in the non-generic core: the copies must follow
    /// every way the emitter closes and the demand becomes unlimited.
    @Test func theCoresCopyOfTheDemandFollowsTheSubscribersAnswers() {
        var (machine, _) = subscribed()
        _ = machine.request(.max(1))
        #expect(!machine.core.emitterFlags.demandUnlimited)
        _ = machine.delivered(additional: .unlimited)
        #expect(machine.emitter.demand == .unlimited)
        #expect(machine.core.emitterFlags.demandUnlimited)
        let slot = machine.registerInner()!
        guard case .request(.unlimited, replaced: nil) = machine.receiveInner(
            subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        else {
            Issue.record("an inner subscribed after the subscriber answered .unlimited is not asked for everything")
            return
        }
    }

    @Test func theCoresCopyOfThePhaseFollowsEveryWayTheEmitterCloses() {
        var cancelled = subscribed().0
        _ = cancelled.cancel()
        var finished = subscribed().0
        _ = finished.receiveUpstream(completion: .finished)
        var failed = subscribed().0
        _ = failed.receiveUpstream(completion: .failure(.boom))
        var innerFailed = subscribed().0
        let slot = innerFailed.registerInner()!
        _ = innerFailed.receiveInner(
            subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        _ = innerFailed.receiveInner(completion: .failure(.boom), at: slot.index, generation: slot.generation)
        for (name, machine) in [
            ("cancelled", cancelled), ("finished", finished), ("failed", failed), ("inner failed", innerFailed),
        ] {
            #expect(!machine.core.emitterFlags.open, "\(name)")
            #expect(!machine.core.acceptsUpstreamValues, "\(name)")
        }
        // What the copy guards: no slot for a value, no subscription kept, no quiet finish.
        #expect(cancelled.registerInner() == nil)
        guard case .cancel = innerFailed.receiveInner(
            subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        else {
            Issue.record("a subscription arriving after the failure is not cancelled")
            return
        }
    }

    @Test func theCoresCopyOfThePhaseFollowsTheFinishDecidedAfterARequest() {
        var (machine, _) = subscribed()
        let slot = machine.registerInner()!
        // The inner's subscription arrives twice: one pending less than none, one held. Apple's
        // operator does not finish when the upstream does, but on the next request, where the
        // two counts add up to zero.
        _ = machine.receiveInner(subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        _ = machine.receiveInner(subscription: RecordingSubscription(), at: slot.index, generation: slot.generation)
        _ = machine.receiveUpstream(completion: .finished)
        #expect(machine.isOpen)
        #expect(machine.core.emitterFlags.open)
        _ = machine.request(.max(1))
        _ = machine.finishAfterRequest()
        #expect(!machine.isOpen)
        #expect(!machine.core.emitterFlags.open)
    }
}

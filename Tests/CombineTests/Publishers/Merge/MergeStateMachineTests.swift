@testable import Combine
import TestSupport
import Testing

/// Merge's state machine, driven event by event without threads: grants, completions, failures
/// and the lock-free path.
@Suite("MergeStateMachine")
struct MergeStateMachineTests {
    enum TestError: Error, Equatable { case boom }
    typealias Machine = MergeStateMachine<AnySubscriber<Int, TestError>>

    func machine(count: Int) -> Machine {
        Machine(box: SubscriberBox(AnySubscriber<Int, TestError>()), count: count)
    }

    /// A machine whose `count` upstreams have subscribed, with their subscriptions.
    func subscribed(count: Int) -> (Machine, [RecordingSubscription]) {
        var machine = machine(count: count)
        let subscriptions = (0..<count).map { RecordingSubscription(name: "upstream \($0)") }
        for (index, subscription) in subscriptions.enumerated() {
            guard case .none = machine.receive(subscription: subscription, at: index) else {
                Issue.record("upstream \(index) was asked for something before any demand")
                continue
            }
        }
        return (machine, subscriptions)
    }

    @Test func eachUpstreamIsGrantedTheDemandNoQueuedValueWaitsToSpend() {
        var (machine, _) = subscribed(count: 2)
        let grows = machine.request(.max(2))
        #expect(grows)
        guard let (first, extra) = machine.topUp(at: 0) else {
            Issue.record("upstream 0 is not topped up")
            return
        }
        #expect(extra == .max(2))
        #expect((first as? RecordingSubscription)?.description == "upstream 0")
        // Already granted: nothing more until the demand grows.
        #expect(machine.topUp(at: 0) == nil)
        // A value queued for lack of an emitter spends the free demand.
        let accepted = machine.accept(at: 0)
        #expect(accepted)
        _ = machine.emitter.deliverAtOnce(1, tag: (), emitting: true)
        #expect(machine.emitter.freeDemand == .max(1))
    }

    @Test func valuesFlowFreelyOnlyWithUnlimitedDemandAndNoUpstreamFinished() {
        var (machine, _) = subscribed(count: 2)
        #expect(!machine.fastEligible)
        _ = machine.request(.unlimited)
        #expect(machine.fastEligible)
        let (accepted, cancel) = machine.receive(completion: .finished, at: 0)
        #expect(accepted && cancel.isEmpty)
        #expect(!machine.fastEligible)
        // The finished upstream's later values are refused; the other's still go through.
        let late = machine.accept(at: 0)
        let other = machine.accept(at: 1)
        #expect(!late && other)
    }

    @Test func theMergeFinishesOnceEveryUpstreamHas() {
        var (machine, _) = subscribed(count: 2)
        _ = machine.receive(completion: .finished, at: 0)
        #expect(machine.emitter.pendingCompletion == nil)
        // A second completion of the same upstream is not counted.
        let (again, _) = machine.receive(completion: .finished, at: 0)
        #expect(!again)
        #expect(machine.emitter.pendingCompletion == nil)
        _ = machine.receive(completion: .finished, at: 1)
        guard case .finished = machine.emitter.pendingCompletion else {
            Issue.record("not finished after both upstreams")
            return
        }
    }

    @Test func aFailureDropsTheQueueAndCancelsTheOtherUpstreams() {
        var (machine, _) = subscribed(count: 3)
        _ = machine.emitter.deliverAtOnce(1, tag: (), emitting: true)
        let (accepted, cancel) = machine.receive(completion: .failure(.boom), at: 1)
        #expect(accepted)
        #expect(cancel.map { ($0 as? RecordingSubscription)?.description } == ["upstream 0", "upstream 2"])
        #expect(machine.emitter.queue.isEmpty)
        guard case .failure(.boom) = machine.emitter.pendingCompletion else {
            Issue.record("the failure is not decided")
            return
        }
    }

    @Test func anEmptyMergeManyFinishesAtOnce() {
        var machine = machine(count: 0)
        machine.finishIfEmpty()
        guard case .finished = machine.emitter.pendingCompletion else {
            Issue.record("an empty merge does not finish")
            return
        }
    }

    @Test func cancelRefusesLaterSubscriptionsAndReturnsTheHeldOnes() {
        var (machine, _) = subscribed(count: 2)
        let held = machine.cancel()
        #expect(held.count == 2)
        #expect(machine.emitter.terminated)
        guard case .cancel = machine.receive(subscription: RecordingSubscription(), at: 0) else {
            Issue.record("a subscription after the cancel is kept")
            return
        }
        // The box goes to the emitter, to be released outside the lock.
        guard case .release = machine.emitter.next() else {
            Issue.record("the subscriber's box is not handed out for release")
            return
        }
    }
}

@testable import Combine
import TestSupport
import Testing

/// buffer's state machine, driven event by event without threads: the upstream's stages, the
/// prefetch, the strategies when full, and the drainer's steps.
@Suite("Publishers.Buffer.StateMachine")
struct BufferStateMachineTests {
    enum TestError: Error, Equatable { case full, boom }
    typealias Machine = Publishers.Buffer<PassthroughSubject<Int, TestError>>.StateMachine

    /// A machine whose upstream has subscribed and whose subscriber has its subscription (the
    /// first drainer's turn is over).
    func subscribed(
        size: Int = 2, prefetch: Publishers.PrefetchStrategy = .keepFull,
        whenFull: Publishers.BufferingStrategy<TestError> = .dropNewest
    ) -> (Machine, Subscribers.Demand?) {
        var machine = Machine(size: size, prefetch: prefetch, whenFull: whenFull)
        let prefetched = machine.subscribed(RecordingSubscription())
        guard case .done = machine.nextDrainStep() else {
            Issue.record("the first turn delivers something")
            return (machine, prefetched)
        }
        return (machine, prefetched)
    }

    func values(_ machine: inout Machine) -> [Int] {
        var delivered: [Int] = []
        while case .deliver(let value) = machine.nextDrainStep() { delivered.append(value) }
        return delivered
    }

    @Test func thePrefetchFollowsTheStrategy() {
        let (_, keepFull) = subscribed(size: 3, prefetch: .keepFull)
        #expect(keepFull == .max(3))
        let (_, byRequest) = subscribed(size: 3, prefetch: .byRequest)
        #expect(byRequest == .unlimited)
    }

    @Test func aValueWithDemandAndNothingBufferedGoesStraightOut() {
        var (machine, _) = subscribed()
        let drains = machine.request(.max(1))
        #expect(drains)
        guard case .done = machine.nextDrainStep() else {
            Issue.record("a turn with nothing buffered delivers something")
            return
        }
        guard case .deliver(1) = machine.value(1) else {
            Issue.record("the value is not handed straight out")
            return
        }
        #expect(machine.role.isHeld)
    }

    @Test func whenFullDropNewestKeepsTheOldestValues() {
        var (machine, _) = subscribed(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
        for value in 1...3 { _ = machine.value(value) }
        _ = machine.request(.max(5))
        #expect(values(&machine) == [1, 2])
    }

    @Test func whenFullDropOldestKeepsTheNewestValues() {
        var (machine, _) = subscribed(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
        for value in 1...3 { _ = machine.value(value) }
        _ = machine.request(.max(5))
        #expect(values(&machine) == [2, 3])
    }

    @Test func whenFullCustomErrorMovesToFailing() {
        var (machine, _) = subscribed(size: 1, prefetch: .byRequest, whenFull: .customError { .full })
        _ = machine.value(1)
        guard case .overflow = machine.value(2) else {
            Issue.record("a full buffer does not overflow")
            return
        }
        guard case .failing = machine.phase else {
            Issue.record("after the overflow: \(machine.phase)")
            return
        }
        let drains = machine.failed(.full)
        #expect(drains)
        // The error waits behind the buffered value until a delivery has used up the demand.
        guard case .done = machine.nextDrainStep() else {
            Issue.record("the overflow error overtakes the buffered value")
            return
        }
        _ = machine.request(.max(1))
        guard case .deliver(1) = machine.nextDrainStep(),
            case .complete(.failure(.full), _, _, let dropped) = machine.nextDrainStep()
        else {
            Issue.record("the overflow error is not delivered after the buffered value")
            return
        }
        #expect(dropped.isEmpty)
        guard case .terminal = machine.phase else {
            Issue.record("after the failure: \(machine.phase)")
            return
        }
    }

    @Test func finishedWaitsForTheBufferToDrainAndForDemand() {
        var (machine, _) = subscribed()
        _ = machine.value(1)
        let completed = machine.completed(.finished)
        #expect(completed.drain)
        guard case .done = machine.nextDrainStep() else {
            Issue.record("finished goes out with a value still buffered")
            return
        }
        guard case .finished = machine.phase else {
            Issue.record("after the upstream finished: \(machine.phase)")
            return
        }
        _ = machine.request(.max(2))
        #expect(values(&machine) == [1])
    }

    /// The drainer answers whether `finished` is due from the stage, without reading the optional
    /// completion: once the buffer is empty it still waits for demand, and it goes out on the
    /// turn that demand starts.
    @Test func finishedWithTheBufferEmptyWaitsForDemandAndGoesOutOnce() {
        var (machine, _) = subscribed()
        _ = machine.value(1)
        _ = machine.completed(.finished)
        _ = machine.nextDrainStep()
        _ = machine.request(.max(1))
        #expect(values(&machine) == [1])
        // The buffer is empty and the demand spent: the turn ends, `finished` still waits.
        guard case .finished = machine.phase else {
            Issue.record("finished goes out without demand: \(machine.phase)")
            return
        }
        let drains = machine.request(.max(1))
        #expect(drains)
        guard case .complete(.finished, releasing: .some, _, _) = machine.nextDrainStep() else {
            Issue.record("finished does not go out once the subscriber asks")
            return
        }
        guard case .done = machine.nextDrainStep() else {
            Issue.record("the drainer goes on after the completion")
            return
        }
    }

    @Test func aFailureFromUpstreamDropsTheBufferAndLetsGoOfTheUpstreamAtOnce() {
        var (machine, _) = subscribed()
        _ = machine.value(1)
        let completed = machine.completed(.failure(.boom))
        #expect(completed.released != nil)
        #expect(completed.discarded.count == 1)
        guard case .complete(.failure(.boom), releasing: nil, _, _) = machine.nextDrainStep() else {
            Issue.record("the failure is not delivered at once")
            return
        }
    }

    @Test func valuesBeforeTheSubscriptionAreIgnored() {
        var machine = Machine(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
        guard case .none = machine.value(1) else {
            Issue.record("a value before the subscription is taken")
            return
        }
        let drains = machine.request(.max(1))
        #expect(!drains)
    }
}

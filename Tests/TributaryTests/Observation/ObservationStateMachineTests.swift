import Combine
import Testing
@testable import Tributary

/// The subscription's decisions, event by event, without a model, a scheduler or threads. The
/// subscriber and the reader are stand-in strings.
@Suite("ObservationStateMachine")
struct ObservationStateMachineTests {
    typealias Machine = ObservationStateMachine<Int, String, String>

    let here = ThreadIdentity.current

    /// A machine whose first read returned `value` and is armed, with `demand` requested.
    func armed(value: Int = 0, demand: Subscribers.Demand = .none) -> (Machine, UInt64) {
        var machine = Machine(downstream: "subscriber", reader: "reader")
        guard case .read(let generation, _) = machine.beginRead(on: here) else {
            Issue.record("the first read did not begin")
            return (machine, 0)
        }
        #expect(isNone(machine.endRead(value, generation: generation)))
        if demand > .none { _ = machine.request(demand) }
        return (machine, generation)
    }

    @Test func theFirstValueWaitsForDemandThenGoesOutFromRequest() {
        var (machine, generation) = armed(value: 7)
        #expect(machine.tracking == .armed(generation: generation))
        #expect(delivered(machine.request(.max(1))) == 7)
        #expect(machine.delivering)
        #expect(isNone(machine.delivered(.none)))
        #expect(!machine.delivering)
    }

    @Test func aChangeWithDemandAsksForARead() {
        var (machine, generation) = armed(demand: .max(1))
        _ = machine.delivered(.max(1))  // the first value went out; one more wanted
        #expect(machine.changed(generation: generation, on: here) == "reader")
        #expect(machine.tracking == .readPending)
        #expect(machine.handingOver == here)
        machine.handedOver(on: here)
        #expect(machine.handingOver == nil)
    }

    @Test func aChangeWithoutDemandWaitsForDemandAndDropsTheStaleValue() {
        var (machine, generation) = armed(value: 1)
        #expect(machine.changed(generation: generation, on: here) == nil)
        #expect(machine.tracking == .changed)
        #expect(machine.held == nil, "the value read before the change is stale")
        guard case .scheduleRead(let reader) = machine.request(.max(1)) else {
            Issue.record("demand after a change should ask for a read")
            return
        }
        #expect(reader == "reader")
        #expect(machine.tracking == .readPending)
    }

    @Test func aSecondReportOfTheSameChangeAndAReportFromAnOlderTrackingAreIgnored() {
        var (machine, generation) = armed(demand: .unlimited)
        _ = machine.delivered(.none)
        #expect(machine.changed(generation: generation, on: here) == "reader")
        #expect(machine.changed(generation: generation, on: here) == nil)
        machine.handedOver(on: here)
        guard case .read(let next, _) = machine.beginRead(on: here) else {
            Issue.record("the scheduled read did not begin")
            return
        }
        #expect(next == generation + 1)
        #expect(machine.changed(generation: generation, on: here) == nil)
        #expect(machine.tracking == .reading(generation: next, changed: false))
    }

    @Test func aReadRunInsideTheScheduleCallIsCaught() {
        var (machine, generation) = armed(demand: .unlimited)
        _ = machine.delivered(.none)
        _ = machine.changed(generation: generation, on: here)
        guard case .synchronousScheduler = machine.beginRead(on: here) else {
            Issue.record("a read on the handing-over thread before schedule returned was not caught")
            return
        }
    }

    @Test func aChangeDuringAReadWithDemandStillDeliversThenReadsAgain() {
        var (machine, generation) = armed(demand: .unlimited)
        _ = machine.delivered(.none)
        _ = machine.changed(generation: generation, on: here)
        machine.handedOver(on: here)
        guard case .read(let next, _) = machine.beginRead(on: here) else { return }
        #expect(machine.changed(generation: next, on: here) == nil)
        #expect(delivered(machine.endRead(2, generation: next)) == 2, "values are not starved by changes")
        guard case .scheduleRead = machine.delivered(.none) else {
            Issue.record("the newer value should be read after the delivery")
            return
        }
    }

    /// The first read happens before the subscriber can ask for anything: a change reported
    /// during it makes its value stale, and with no demand it is dropped.
    @Test func aChangeDuringTheFirstReadDropsItsValue() {
        var machine = Machine(downstream: "subscriber", reader: "reader")
        guard case .read(let generation, _) = machine.beginRead(on: here) else { return }
        #expect(machine.changed(generation: generation, on: here) == nil)
        #expect(isNone(machine.endRead(4, generation: generation)))
        #expect(machine.held == nil)
        #expect(machine.tracking == .changed)
        guard case .scheduleRead = machine.request(.max(1)) else {
            Issue.record("the first demand should ask for a fresh read")
            return
        }
    }

    @Test func valuesReadWhileAnotherThreadDeliversWaitAndReplaceEachOther() {
        var (machine, generation) = armed(value: 0, demand: .max(1))
        // Still inside receive(0): a change, and two reads complete meanwhile.
        #expect(machine.delivering)
        machine.demand = .max(5)
        _ = machine.changed(generation: generation, on: here)
        machine.handedOver(on: here)
        guard case .read(let first, _) = machine.beginRead(on: here) else { return }
        #expect(isNone(machine.endRead(1, generation: first)))
        _ = machine.changed(generation: first, on: here)
        machine.handedOver(on: here)
        guard case .read(let second, _) = machine.beginRead(on: here) else { return }
        #expect(isNone(machine.endRead(2, generation: second)))
        #expect(delivered(machine.delivered(.none)) == 2, "only the latest value waits")
    }

    @Test func theModelGoingAwayDuringADeliveryFinishesAfterIt() {
        var (machine, _) = armed(demand: .max(1))
        #expect(machine.delivering)
        #expect(isNone(machine.modelGone()))
        #expect(machine.finishPending)
        guard case .finish(let downstream) = machine.delivered(.unlimited) else {
            Issue.record("the deliverer should send finished")
            return
        }
        #expect(downstream == "subscriber")
        #expect(machine.downstream == nil && machine.reader == nil)
    }

    @Test func cancelLetsGoOfEverythingAndStopsADeliveryLoop() {
        var (machine, generation) = armed(demand: .max(1))
        let (downstream, reader) = machine.cancel()
        #expect(downstream == "subscriber" && reader == "reader")
        #expect(machine.downstream == nil && machine.reader == nil)
        #expect(isNone(machine.delivered(.unlimited)))
        #expect(isNone(machine.request(.max(1))))
        #expect(machine.changed(generation: generation, on: here) == nil)
        machine.tracking = .ended
        guard case .stop = machine.beginRead(on: here) else {
            Issue.record("a read after cancel should stop")
            return
        }
    }

    @Test func cancelWinsOverAPendingFinish() {
        var (machine, _) = armed(demand: .max(1))
        _ = machine.modelGone()
        _ = machine.cancel()
        #expect(isNone(machine.delivered(.none)))
    }

    private func isNone(_ action: Machine.Action) -> Bool {
        if case .none = action { return true }
        return false
    }

    private func delivered(_ action: Machine.Action) -> Int? {
        if case .deliver(let value, _) = action { return value }
        return nil
    }
}

@testable import Combine
import Testing

/// The downstream half every ``DeliveryEmitter`` machine keeps, driven step by step without
/// threads: what the emitter does next, and what the waiting senders are told.
@Suite("EmitterState")
struct EmitterStateTests {
    enum TestError: Error, Equatable { case boom }
    typealias State = EmitterState<AnySubscriber<Int, TestError>, Int>

    func state() -> State {
        State(box: SubscriberBox(AnySubscriber<Int, TestError>()))
    }

    @Test func aValueGoesOutAtOnceOnlyWithDemandNothingQueuedAndNobodyEmitting() {
        var state = state()
        let at1 = state.deliverAtOnce(1, tag: 10, emitting: false)
        #expect(!at1)
        #expect(state.queue.count == 1)
        _ = state.request(.max(2))
        // Behind a queued value, or while someone emits, a value waits its turn.
        let at2 = state.deliverAtOnce(2, tag: 20, emitting: false)
        #expect(!at2)
        #expect(state.freeDemand == .none)
        var fresh = self.state()
        _ = fresh.request(.max(1))
        let at3 = fresh.deliverAtOnce(3, tag: 30, emitting: true)
        #expect(!at3)
        var idle = self.state()
        _ = idle.request(.max(1))
        let at4 = idle.deliverAtOnce(4, tag: 40, emitting: false)
        #expect(at4)
        #expect(idle.demand == .none)
    }

    @Test func queuedValuesGoOutInOrderWithTheirTagsWhileDemandLasts() {
        var state = state()
        _ = state.deliverAtOnce(1, tag: 10, emitting: false)
        _ = state.deliverAtOnce(2, tag: 20, emitting: false)
        #expect(state.hasWork == false)
        _ = state.request(.max(1))
        #expect(state.hasWork)
        guard case .value(1, tag: 10) = state.next() else {
            Issue.record("the first queued value does not go out first")
            return
        }
        guard case .idle = state.next() else {
            Issue.record("a value goes out without demand")
            return
        }
        let grew = state.delivered(additional: .max(1))
        #expect(grew)
        guard case .value(2, tag: 20) = state.next() else {
            Issue.record("the second value does not follow once demand returns")
            return
        }
    }

    @Test func aFinishWaitsForTheQueueAndAFailureDropsIt() {
        var finishing = state()
        _ = finishing.deliverAtOnce(1, tag: 10, emitting: false)
        finishing.finish()
        #expect(!finishing.isOpen)
        _ = finishing.request(.max(1))
        guard case .value(1, tag: 10) = finishing.next(), case .completion(.finished, _) = finishing.next() else {
            Issue.record("finished does not follow the queued value")
            return
        }
        #expect(finishing.terminated)

        var failing = state()
        _ = failing.deliverAtOnce(1, tag: 10, emitting: false)
        failing.fail(.boom)
        #expect(failing.queue.isEmpty)
        guard case .completion(.failure(.boom), _) = failing.next() else {
            Issue.record("the failure does not go out at once")
            return
        }
        // Decided once: a later finish changes nothing.
        failing.finish()
        guard case .idle = failing.next() else {
            Issue.record("something goes out after the completion")
            return
        }
    }

    @Test func aCancelSettlesTheWaitingSendersAndHandsTheBoxOutForRelease() {
        var state = state()
        let ticket = state.tickets.enter()
        _ = state.deliverAtOnce(1, tag: 10, emitting: false)
        #expect(!state.tickets.isSettled(ticket))
        state.cancel()
        #expect(state.tickets.isSettled(ticket))
        #expect(state.queue.isEmpty)
        #expect(state.hasWork)
        guard case .release = state.next() else {
            Issue.record("the box is not handed out for release")
            return
        }
        #expect(!state.hasWork)
        let at5 = state.request(.max(1))
        #expect(!at5)
    }

    @Test func valuesFlowFreelyOnlyOpenWithUnlimitedDemandAndAnEmptyQueue() {
        var state = state()
        #expect(!state.flowsFreely)
        _ = state.request(.unlimited)
        #expect(state.flowsFreely)
        state.finish()
        #expect(!state.flowsFreely)
    }
}

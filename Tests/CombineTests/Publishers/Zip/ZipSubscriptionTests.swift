@testable import Combine
import TestSupport
import Testing

/// zip's state machine, driven event by event without threads: where the subscriber's answer to
/// a tuple goes, which the emitter cannot tell from the tuple alone.
@Suite("ZipStateMachine")
struct ZipStateMachineTests {
    typealias Machine = ZipStateMachine<ZipStorage2<Int, Int>, AnySubscriber<(Int, Int), Never>>

    func subscribed() -> (Machine, [RecordingSubscription]) {
        var machine = Machine(box: SubscriberBox(AnySubscriber<(Int, Int), Never>()), arity: 2)
        let upstreams = [RecordingSubscription(name: "a"), RecordingSubscription(name: "b")]
        for (index, upstream) in upstreams.enumerated() {
            machine.receive(subscription: upstream, at: index).perform()
        }
        return (machine, upstreams)
    }

    @Test func aTupleIsMadeWhateverTheDemand() {
        var (machine, _) = subscribed()
        let keptFirst = machine.store(1, into: ZipStorage2<Int, Int>.InputA.self)
        let early = machine.storage.takeOutput()
        #expect(keptFirst && early == nil)
        let keptSecond = machine.store(2, into: ZipStorage2<Int, Int>.InputB.self)
        let tuple = machine.storage.takeOutput()
        #expect(keptSecond)
        #expect(tuple?.0 == 1 && tuple?.1 == 2)
        // The emitter's own demand never holds a tuple back.
        #expect(machine.emitter.demand == .unlimited)
    }

    @Test func theAnswerGoesToTheInputThatAwaitsIt() {
        var (machine, _) = subscribed()
        machine.inputs.awaitAnswer(at: 1)
        machine.willDeliver(tag: 1)
        let owed = machine.delivered(additional: .max(3))
        #expect(!owed)
        #expect(machine.inputs.takeAnswer(at: 1) == .max(3))
        #expect(machine.inputs.takeAnswer(at: 1) == .none)
    }

    @Test func theAnswerToATupleWhoseSenderReturnedIsRequestedFromItsUpstream() {
        var (machine, upstreams) = subscribed()
        machine.willDeliver(tag: 0)
        let owed = machine.delivered(additional: .max(2))
        #expect(owed)
        let none = machine.topUp(at: 1)
        #expect(none == nil)
        guard let (subscription, demand) = machine.topUp(at: 0) else {
            Issue.record("the answer is not owed to the input's upstream")
            return
        }
        #expect((subscription as? RecordingSubscription) === upstreams[0])
        #expect(demand == .max(2))
        let again = machine.topUp(at: 0)
        #expect(again == nil)
    }

    @Test func aRequestDuringATuplesDeliveryJoinsItsAnswer() {
        var (machine, upstreams) = subscribed()
        machine.inputs.awaitAnswer(at: 0)
        machine.willDeliver(tag: 0)
        let targets = machine.request(.max(1))
        #expect(targets.count == 1)
        #expect((targets.first as? RecordingSubscription) === upstreams[1])
        _ = machine.delivered(additional: .max(1))
        #expect(machine.inputs.takeAnswer(at: 0) == .max(2))
    }
}

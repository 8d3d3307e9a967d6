import Combine
import TestSupport
import Testing

@Suite("Subscribers.Assign")
struct SubscribersAssignTests {
    private final class Model {
        var anInt = 0
        var log: [Int] = []
        var tracked: Int = 0 {
            didSet { log.append(tracked) }
        }
    }

    @Test func assignsEveryValue() {
        let model = Model()
        let cancellable = (0...2).publisher.assign(to: \.tracked, on: model)
        #expect(model.log == [0, 1, 2])
        _ = cancellable
    }

    @Test func holdsObjectUntilCompletionOrCancel() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakModel: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            weakModel = model
            cancellable = subject.assign(to: \.anInt, on: model)
        }
        #expect(weakModel != nil)
        subject.send(3)
        #expect(weakModel?.anInt == 3)
        cancellable?.cancel()
        #expect(weakModel == nil)

        do {
            let model = Model()
            weakModel = model
            cancellable = subject.assign(to: \.anInt, on: model)
        }
        subject.send(completion: .finished)
        #expect(weakModel == nil)
    }

    @Test func ignoresAfterCancelAndRejectsSecondSubscription() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.anInt)
        let first = TestUpstream<Int, Never>()
        let second = TestUpstream<Int, Never>()
        first.subscribe(assign)
        second.subscribe(assign)
        #expect(first.calls == [.request(.unlimited)])
        #expect(second.calls == [.cancel])
        first.send(1)
        assign.cancel()
        first.send(2)
        #expect(model.anInt == 1)
        #expect(assign.object == nil)
        #expect(first.calls == [.request(.unlimited), .cancel])
    }

    /// As on Apple's platforms (and as `Sink` does), a cancel before the subscription has arrived
    /// is ignored: the object is kept, the late subscription is asked for everything, and its
    /// values are assigned.
    @Test func cancelBeforeTheSubscriptionIsIgnored() {
        let model = Model()
        let upstream = LateSubscriptionUpstream<Int, Never>()
        let assign = Subscribers.Assign(object: model, keyPath: \.tracked)
        upstream.subscribe(assign)
        assign.cancel()
        #expect(assign.object === model)
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.requests == [.unlimited])
        #expect(late.cancelCount == 0)
        upstream.send(7)
        #expect(model.log == [7])
        assign.cancel()
        #expect(late.cancelCount == 1)
        #expect(assign.object == nil)
    }

    @Test func description() {
        let assign = Subscribers.Assign(object: Model(), keyPath: \Model.anInt)
        #expect(assign.description == "Assign Model.")
        #expect(assign.customMirror.children.map(\.label) == ["object", "keyPath", "status"])
    }

    /// The mirror's third child is where the subscriber stands with its upstream, as in Apple's.
    @Test func mirrorShowsTheStatusAtEachStep() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.anInt)
        func status() -> String {
            var text = ""
            dump(assign.customMirror.children.first { $0.label == "status" }!.value, to: &text)
            return text
        }
        #expect(status().contains("awaitingSubscription"))
        let upstream = TestUpstream<Int, Never>()
        upstream.subscribe(assign)
        #expect(status().contains("subscribed"))
        upstream.send(completion: .finished)
        #expect(status().contains("terminal"))
        #expect(assign.customMirror.children.first { $0.label == "object" }.map { "\($0.value)" } == "nil")
    }

    /// A value before any subscription is not assigned (an upstream breaking the contract); the
    /// subscriber asks for nothing more.
    @Test func valueBeforeTheSubscriptionIsNotAssigned() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.tracked)
        #expect(assign.receive(4) == .none)
        #expect(model.log == [])
        let upstream = TestUpstream<Int, Never>()
        upstream.subscribe(assign)
        _ = upstream.send(5)
        #expect(model.log == [5])
    }
}

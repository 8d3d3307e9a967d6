import Combine
import TestSupport
import Testing

@Suite("Publishers.MapKeyPath / MapKeyPath2 / MapKeyPath3")
struct PublishersMapKeyPathTests {
    struct Point { var x: Int; var y: Int; var z: Int }

    @Test func readsOneTwoThreeProperties() {
        let subject = TestUpstream<Point, SingleOp.TestError>()
        let one = TrackingSubscriber<Int, SingleOp.TestError>()
        let two = TrackingSubscriber<(Int, Int), SingleOp.TestError>()
        let three = TrackingSubscriber<(Int, Int, Int), SingleOp.TestError>()
        let p1: Publishers.MapKeyPath<TestUpstream<Point, SingleOp.TestError>, Int> = subject.map(\.x)
        p1.subscribe(one)
        subject.send(Point(x: 1, y: 2, z: 3))
        #expect(one.values == [1])
        #expect(SingleOp.events(one).first == "subscription(TestUpstream)")

        let p2: Publishers.MapKeyPath2<TestUpstream<Point, SingleOp.TestError>, Int, Int> = subject.map(\.x, \.y)
        p2.subscribe(two)
        subject.send(Point(x: 4, y: 5, z: 6))
        #expect(two.values.map { [$0.0, $0.1] } == [[4, 5]])

        let p3 = subject.map(\.z, \.y, \.x)
        p3.subscribe(three)
        subject.send(Point(x: 7, y: 8, z: 9))
        subject.send(completion: .failure(.boom))
        #expect(three.values.map { [$0.0, $0.1, $0.2] } == [[9, 8, 7]])
        #expect(SingleOp.events(three).last == "failure(boom)")
    }

    @Test func demandAndCancelPassThrough() {
        let up = TestUpstream<Point, SingleOp.TestError>()
        let sub = TrackingSubscriber<Int, SingleOp.TestError>(initialDemand: .max(1), demandAfterValue: { _ in .max(1) })
        up.map(\.y).subscribe(sub)
        #expect(up.send(Point(x: 0, y: 1, z: 0)) == .max(1))
        sub.cancel()
        #expect(up.calls.map(\.description) == ["request(max(1))", "cancel"])
    }

    /// Spec §28: the stage attached upstream shows itself as Apple's does, `ValueForKey` with a
    /// `keyPath` child, or `ValueForKeys` with one child per key path.
    @Test func stageShape() {
        let one = SubscriberCapturingUpstream<Point, Never>()
        _ = one.map(\.x).sink { _ in }
        let two = SubscriberCapturingUpstream<Point, Never>()
        _ = two.map(\.x, \.y).sink { _ in }
        let three = SubscriberCapturingUpstream<Point, Never>()
        _ = three.map(\.x, \.y, \.z).sink { _ in }
        for (capture, name, labels) in [
            (one, "ValueForKey", ["keyPath"]), (two, "ValueForKeys", ["keyPath0", "keyPath1"]),
            (three, "ValueForKeys", ["keyPath0", "keyPath1", "keyPath2"]),
        ] {
            let stage = capture.subscriber
            #expect((stage as? CustomStringConvertible)?.description == name)
            #expect((stage as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == name)
            #expect((stage as? CustomReflectable)?.customMirror.children.map(\.label) == labels)
            #expect(!(stage is Subscription))
        }
    }
}


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

    // Every shape of key path `map` reads: inline storage (read at its byte offset) and the
    // others (read through the key path), each giving what `value[keyPath:]` gives.
    final class Token {
        let name: String
        let onDeinit: () -> Void
        init(_ name: String, onDeinit: @escaping () -> Void = {}) { self.name = name; self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }
    struct Inner { var label: String; var token: Token }
    struct Outer {
        var flag: Bool
        var inner: Inner
        var pair: (Int, String)
        var optional: Inner?
        var computed: String { inner.label + "!" }
    }
    final class Node { var value = 7; var outer: Outer? }

    func read<Root, Value>(_ keyPath: KeyPath<Root, Value>, of roots: [Root]) -> [Value] {
        var values: [Value] = []
        _ = roots.publisher.map(keyPath).sink { values.append($0) }
        return values
    }

    @Test func everyKindOfKeyPathReadsWhatSubscriptingReads() {
        let outer = Outer(flag: true, inner: Inner(label: "in", token: Token("t")),
                          pair: (3, "three"), optional: Inner(label: "opt", token: Token("o")))
        #expect(read(\Outer.flag, of: [outer]) == [true])
        #expect(read(\Outer.inner.label, of: [outer]) == ["in"])
        #expect(read(\Outer.inner.token, of: [outer]).map(\.name) == ["t"])
        #expect(read(\Outer.pair.0, of: [outer]) == [3])
        #expect(read(\Outer.pair.1, of: [outer]) == ["three"])
        #expect(read(\Outer.computed, of: [outer]) == ["in!"])
        #expect(read(\Outer.optional?.label, of: [outer]) == ["opt"])
        #expect(read(\Outer.optional, of: [outer]).map { $0?.label } == ["opt"])
        #expect(read(\Outer.self, of: [outer]).map(\.inner.label) == ["in"])
        let node = Node()
        node.outer = outer
        #expect(read(\Node.value, of: [node]) == [7])
        #expect(read(\Node.outer?.inner.label, of: [node]) == ["in"])
        #expect(read(\[Int].count, of: [[1, 2, 3]]) == [3])
        #expect(read(\Int.self, of: [5, 6]) == [5, 6])
    }

    @Test func aReferenceReadFromInlineStorageIsRetainedOnceAndReleased() {
        // The value read at its offset is a copy that owns its references: the token outlives the
        // root while a subscriber keeps it, and is freed when both are gone.
        var released = false
        var kept: [Token] = []
        do {
            let root = Inner(label: "l", token: Token("kept") { released = true })
            _ = [root].publisher.map(\.token).sink { kept.append($0) }
        }
        #expect(!released)
        #expect(kept.map(\.name) == ["kept"])
        kept.removeAll()
        #expect(released)
    }

    @Test func twoAndThreeKeyPathsMixInlineAndComputedPaths() {
        let outer = Outer(flag: false, inner: Inner(label: "x", token: Token("t")), pair: (1, "one"), optional: nil)
        var pairs: [(String, Int)] = []
        _ = [outer].publisher.map(\.computed, \.pair.0).sink { pairs.append($0) }
        #expect(pairs.map { "\($0.0) \($0.1)" } == ["x! 1"])
        var triples: [(Bool, String?, String)] = []
        _ = [outer].publisher.map(\.flag, \.optional?.label, \.inner.label).sink { triples.append($0) }
        #expect(triples.map { "\($0.0) \($0.1 ?? "nil") \($0.2)" } == ["false nil x"])
    }
}

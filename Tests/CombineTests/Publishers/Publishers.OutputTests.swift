import Combine
import TestSupport
import Testing

@Suite("Publishers.Output (output(at:), output(in:), prefix(_:))")
struct PublishersOutputTests {
    @Test func rangesTranslate() {
        let p = [1].publisher
        func range<P: Publisher>(_ o: Publishers.Output<P>) -> Range<Int> { o.range }
        #expect(range(p.singleOpPrefix(89)) == 0..<89)
        #expect(range(p.singleOpOutput(at: 89)) == 89..<90)
        #expect(range(p.singleOpOutput(in: ...8)) == 0..<9)
        #expect(range(p.singleOpOutput(in: 8...)) == 8..<Int.max)
        #expect(range(p.singleOpOutput(in: 4...5)) == 4..<6)
    }

    // Mirrors the request history Apple shows for `output(in: 3..<7)`.
    @Test func skipsLeadingValuesAndFinishesAfterTheRange() {
        let (up, sub) = SingleOp.attach({ $0.output(in: 3..<7) }, demand: nil, after: { _ in .max(42) })
        #expect(up.send(1) == .max(1))
        #expect(up.send(2) == .max(1))
        #expect(up.send(3) == .max(1))
        sub.request(.max(31))
        sub.request(.max(32))
        #expect(up.send(4) == .max(42))
        #expect(up.send(5) == .max(42))
        #expect(up.send(6) == .max(42))
        // Spec §12: the last value in range returns the subscriber's answer too.
        #expect(up.send(7) == .max(42))
        #expect(up.send(8) == .none)
        #expect(SingleOp.events(sub) == ["subscription(Output)", "value(4)", "value(5)", "value(6)", "value(7)", "finished"])
        #expect(SingleOp.calls(up) == ["request(max(31))", "request(max(32))", "cancel"])
        sub.request(.max(33))
        sub.cancel()
        #expect(SingleOp.calls(up) == ["request(max(31))", "request(max(32))", "cancel"])
    }

    @Test func prefixAndOutputAt() {
        let (up, sub) = SingleOp.attach({ $0.prefix(2) })
        up.send(1); up.send(2); up.send(3)
        #expect(SingleOp.events(sub) == ["subscription(Output)", "value(1)", "value(2)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.output(at: 1) })
        up2.send(1); up2.send(2)
        #expect(SingleOp.events(sub2) == ["subscription(Output)", "value(2)", "finished"])
        #expect(SingleOp.calls(up2) == ["request(unlimited)", "cancel"])
    }

    @Test func earlyFinishFailureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.output(at: 5) })
        up.send(1)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(Output)", "finished"])
        let (up2, sub2) = SingleOp.attach({ $0.prefix(3) })
        up2.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub2) == ["subscription(Output)", "failure(boom)"])
        let (up3, sub3) = SingleOp.attach({ $0.prefix(3) })
        sub3.cancel()
        // Spec §12: values after a cancel are still handled; in range, they are delivered.
        up3.send(1)
        #expect(sub3.values == [1])
        #expect(up3.isCancelled)
    }
}

extension Publisher {
    fileprivate func singleOpPrefix(_ n: Int) -> Publishers.Output<Self> { prefix(n) }
    fileprivate func singleOpOutput(at i: Int) -> Publishers.Output<Self> { output(at: i) }
    fileprivate func singleOpOutput<R: RangeExpression>(in r: R) -> Publishers.Output<Self> where R.Bound == Int { output(in: r) }
}

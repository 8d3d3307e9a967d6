import Combine
import TestSupport
import Testing

@Suite("Publishers.PrefixWhile / TryPrefixWhile")
struct PublishersPrefixWhileTests {
    typealias E = SingleOp.TestError

    @Test func finishesAtFirstRejectedValue() {
        let (up, sub) = SingleOp.attach({ $0.prefix { $0 < 3 } }, demand: .max(5))
        up.send(1)
        up.send(2)
        up.send(3)
        up.send(1)
        #expect(SingleOp.events(sub) == ["subscription(PrefixWhile)", "value(1)", "value(2)", "finished"])
        #expect(SingleOp.calls(up) == ["request(max(5))", "cancel"])
    }

    @Test func demandFailureCancel() {
        let (up, sub) = SingleOp.attach({ $0.prefix { _ in true } }, demand: .max(1), after: { _ in .max(1) })
        #expect(up.send(1) == .max(1))
        sub.request(.max(2))
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(PrefixWhile)", "value(1)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(2))"])
        let (up2, sub2) = SingleOp.attach({ $0.prefix { _ in true } })
        sub2.cancel()
        up2.send(1)
        #expect(sub2.values.isEmpty)
        #expect(up2.isCancelled)
    }

    @Test func tryPrefixWhileFailsOnThrow() {
        let (up, sub) = SingleOp.attach({ $0.tryPrefix { v in if v == 2 { throw E.boom }; return true } })
        up.send(1)
        up.send(2)
        #expect(SingleOp.events(sub) == ["subscription(TryPrefixWhile)", "value(1)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func prefixWhileTrapsOnARequestBeforeItsSubscription() async {
        // Spec §10 rule 1: a request made on the upstream-facing object before the upstream's
        // subscription arrived stops the process, as Apple's does.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SingleOp.requestBeforeSubscription { $0.prefix { _ in true } }
        }
        #expect(SingleOp.standardError(result).contains("PrefixWhile received a request before its subscription"))
    }

    @Test func tryPrefixWhileTrapsOnARequestBeforeItsSubscription() async {
        // Spec §10 rule 1: a request made on the upstream-facing object before the upstream's
        // subscription arrived stops the process, as Apple's does.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SingleOp.requestBeforeSubscription { $0.tryPrefix { _ in true } }
        }
        #expect(SingleOp.standardError(result).contains("TryPrefixWhile received a request before its subscription"))
    }
}

import Combine
import TestSupport
import Testing

@Suite("Publishers.RemoveDuplicates / TryRemoveDuplicates")
struct PublishersRemoveDuplicatesTests {
    typealias E = SingleOp.TestError

    @Test func dropsConsecutiveRepeatsAndAsksForReplacement() {
        let (up, sub) = SingleOp.attach({ $0.removeDuplicates() }, demand: .max(3))
        up.send(1)
        #expect(up.send(1) == .max(1))
        up.send(2)
        up.send(1)
        up.send(completion: .finished)
        #expect(SingleOp.events(sub) == ["subscription(RemoveDuplicates)", "value(1)", "value(2)", "value(1)", "finished"])
    }

    @Test func byPredicateComparesWithLastPublished() {
        let (up, sub) = SingleOp.attach({ $0.removeDuplicates { abs($0 - $1) < 2 } })
        for v in [1, 2, 3, 4, 10] { up.send(v) }
        #expect(sub.values == [1, 3, 10])
    }

    @Test func demandFailureAndCancel() {
        let (up, sub) = SingleOp.attach({ $0.removeDuplicates() }, demand: .max(1))
        up.send(7)
        sub.request(.max(1))
        #expect(SingleOp.calls(up) == ["request(max(1))", "request(max(1))"])
        up.send(completion: .failure(.boom))
        #expect(SingleOp.events(sub) == ["subscription(RemoveDuplicates)", "value(7)", "failure(boom)"])

        let (up2, sub2) = SingleOp.attach({ $0.removeDuplicates() })
        sub2.cancel()
        up2.send(1)
        #expect(sub2.values.isEmpty)
        #expect(up2.isCancelled)
    }

    @Test func tryRemoveDuplicatesSendsNoValueForTheThrowingComparison() {
        let (up, sub) = SingleOp.attach({ $0.tryRemoveDuplicates { _, new in if new == 3 { throw E.boom }; return false } })
        up.send(1)
        up.send(3)
        up.send(4)
        #expect(SingleOp.events(sub) == ["subscription(TryRemoveDuplicates)", "value(1)", "failure(boom)"])
        #expect(SingleOp.calls(up) == ["request(unlimited)", "cancel"])
    }

    @Test func removeDuplicatesTrapsOnARequestBeforeItsSubscription() async {
        // Spec §10 rule 1: a request made on the upstream-facing object before the upstream's
        // subscription arrived stops the process, as Apple's does.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SingleOp.requestBeforeSubscription { $0.removeDuplicates { $0 == $1 } }
        }
        #expect(SingleOp.standardError(result).contains("RemoveDuplicates received a request before its subscription"))
    }

    @Test func tryRemoveDuplicatesTrapsOnARequestBeforeItsSubscription() async {
        // Spec §10 rule 1: a request made on the upstream-facing object before the upstream's
        // subscription arrived stops the process, as Apple's does.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SingleOp.requestBeforeSubscription { $0.tryRemoveDuplicates { $0 == $1 } }
        }
        #expect(SingleOp.standardError(result).contains("TryRemoveDuplicates received a request before its subscription"))
    }
}

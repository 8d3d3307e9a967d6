import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

@Suite("Publishers.Print")
struct PrintTests {
    @Test func bookSequenceOutputFormat() {
        // The documented output of `(1...3).publisher.print("publisher").sink { _ in }`, with a
        // hand-driven upstream standing in for the sequence (its subscription prints as `1...3`).
        let log = TextLog()
        let upstream = TestUpstream<Int, Never>(name: "1...3")
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.print("publisher", to: log).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(log.lines == [
            "publisher: receive subscription: (1...3)",
            "publisher: request unlimited",
            "publisher: receive value: (1)",
            "publisher: receive value: (2)",
            "publisher: receive value: (3)",
            "publisher: receive finished",
        ])
        #expect(subscriber.events == [.subscription("Print"), .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func eachLineIsThreeWrites() {
        let log = TextLog()
        let upstream = TestUpstream<Int, Never>(name: "Up")
        upstream.print("p", to: log).subscribe(TrackingSubscriber<Int, Never>())
        // Spec §2c: three writes per line, as Apple's: "", the text, "\n".
        #expect(log.writes == ["", "p: receive subscription: (Up)", "\n", "", "p: request unlimited", "\n"])
    }

    @Test func emptyPrefixHasNoColon() {
        let log = TextLog()
        let upstream = TestUpstream<Int, Boom>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: .max(2))
        upstream.print(to: log).subscribe(subscriber)
        upstream.send(7)
        upstream.send(completion: .failure(.boom))
        #expect(log.lines == [
            "receive subscription: (Up)",
            "request max: (2)",
            "receive value: (7)",
            "receive error: (boom)",
        ])
        #expect(subscriber.completions == [.failure(.boom)])
    }

    @Test func prefixWithTrailingColonIsKeptAsGiven() {
        let log = TextLog()
        let upstream = TestUpstream<Int, Never>(name: "RemoveDuplicates")
        upstream.print("username pipeline: ", to: log).subscribe(TrackingSubscriber<Int, Never>())
        #expect(log.lines == [
            "username pipeline: : receive subscription: (RemoveDuplicates)",
            "username pipeline: : request unlimited",
        ])
    }

    @Test func synchronousDemandIsMarkedAndZeroDemandPrintsNothing() {
        let log = TextLog()
        let upstream = TestUpstream<Int, Never>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandAfterValue: { value in
            switch value {
            case 1: return .max(2)
            case 2: return .unlimited
            default: return .none
            }
        })
        upstream.print("x", to: log).subscribe(subscriber)
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .unlimited)
        #expect(upstream.send(3) == .none)
        #expect(log.lines == [
            "x: receive subscription: (Up)",
            "x: request max: (1)",
            "x: receive value: (1)",
            "x: request max: (2) (synchronous)",
            "x: receive value: (2)",
            "x: request unlimited (synchronous)",
            "x: receive value: (3)",
        ])
    }

    @Test func cancelIsLoggedAndForwarded() {
        let log = TextLog()
        let upstream = TestUpstream<Int, Never>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.print("c", to: log).subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(log.lines == ["c: receive subscription: (Up)", "c: request max: (3)", "c: request max: (1)", "c: receive cancel"])
        #expect(upstream.calls == [.request(.max(3)), .request(.max(1)), .cancel])
    }

    @Test func defaultStreamIsStandardOutput() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let upstream = TestUpstream<Int, Never>(name: "Up")
            upstream.print("out").subscribe(TrackingSubscriber<Int, Never>())
            upstream.send(5)
            upstream.send(completion: .finished)
        }
        let text = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
        #expect(text == """
            out: receive subscription: (Up)
            out: request unlimited
            out: receive value: (5)
            out: receive finished

            """)
    }

    @Test func bookSequencePrintToStandardOutput() async {
        // Kodeco ch. 10: `let subscription = (1...3).publisher.print("publisher").sink { _ in }`.
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let subscription = (1...3).publisher.print("publisher").sink { _ in }
            _ = subscription
        }
        let text = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
        #expect(text == """
            publisher: receive subscription: (1...3)
            publisher: request unlimited
            publisher: receive value: (1)
            publisher: receive value: (2)
            publisher: receive value: (3)
            publisher: receive finished

            """)
    }

    @Test func bookTimeLoggerSeesLineAndTerminatorSeparately() {
        // Kodeco ch. 10's `TimeLogger` skips writes that are empty once trimmed, i.e. the "\n"
        // terminators, and stamps every other write: one stamped line per event.
        final class TimeLogger: TextOutputStream {
            var stamped: [String] = []
            func write(_ string: String) {
                let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty else { return }
                stamped.append("+0.00000s: \(string)")
            }
        }
        let logger = TimeLogger()
        let subscription = (1...3).publisher.print("publisher", to: logger).sink { _ in }
        _ = subscription
        #expect(logger.stamped == [
            "+0.00000s: publisher: receive subscription: (1...3)",
            "+0.00000s: publisher: request unlimited",
            "+0.00000s: publisher: receive value: (1)",
            "+0.00000s: publisher: receive value: (2)",
            "+0.00000s: publisher: receive value: (3)",
            "+0.00000s: publisher: receive finished",
        ])
    }

    @Test func bookSinkZeroDemandAndJust() {
        let log = TextLog()
        let cancellable = Just(5).print("just", to: log).sink { _ in }
        _ = cancellable
        #expect(log.lines == [
            "just: receive subscription: (Just)",
            "just: request unlimited",
            "just: receive value: (5)",
            "just: receive finished",
        ])
    }

    @Test func bookCancelledSinkPrintsReceiveCancel() {
        let log = TextLog()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.print("s", to: log).sink { _ in }
        subject.send(1)
        cancellable.cancel()
        subject.send(2)
        #expect(log.lines == [
            "s: receive subscription: (PassthroughSubject)",
            "s: request unlimited",
            "s: receive value: (1)",
            "s: receive cancel",
        ])
    }

    @Test func reflection() throws {
        let upstream = TestUpstream<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.print("r", to: TextLog()).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Print")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Print")
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == [])
    }

    @Test func publisherProperties() {
        let print = EquatableUpstream(id: 1).print("pre")
        #expect(print.prefix == "pre")
        #expect(print.stream == nil)
        #expect(print.upstream == EquatableUpstream(id: 1))
    }

    @Test func releasedAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Never>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Never>()
            upstream.print("w", to: TextLog()).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test(.tags(.concurrency)) func concurrentRequestsAndValuesKeepLinesWhole() async {
        let log = TextLog()
        let upstream = TestUpstream<Int, Never>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.print("z", to: log).subscribe(subscriber)
        onThreadsBlocking(4) { worker in
            for index in 0..<200 {
                if worker == 0 { upstream.send(index) } else { subscriber.request(.max(1)) }
            }
        }
        let lines = log.lines
        #expect(lines.count == 2 + 200 + 600)
        #expect(lines.allSatisfy { $0.hasPrefix("z: ") })
    }
}

import Combine
import Foundation
import Testing
import TestSupport

private enum Boom: Error, Equatable { case boom }

private struct PhotoError: Error, CustomStringConvertible {
    var description: String { "Failed fetching image with high quality" }
}

/// Fails the first `failingTimes` subscriptions synchronously, like Kodeco ch. 16's `PhotoService`;
/// later subscriptions send one value on demand, then finish.
private final class FlakyPhotoPublisher: Publisher, @unchecked Sendable {
    typealias Output = String
    typealias Failure = PhotoError

    private final class Delivery<S: Subscriber>: Subscription where S.Input == String, S.Failure == PhotoError {
        var subscriber: S?
        init(_ subscriber: S) { self.subscriber = subscriber }
        func request(_ demand: Subscribers.Demand) {
            guard let subscriber else { return }
            self.subscriber = nil
            _ = subscriber.receive("hq.jpg")
            subscriber.receive(completion: .finished)
        }
        func cancel() { subscriber = nil }
    }

    private struct Nothing: Subscription {
        let combineIdentifier = CombineIdentifier()
        func request(_ demand: Subscribers.Demand) {}
        func cancel() {}
    }

    private let failingTimes: Int
    private(set) var subscriptions = 0

    init(failingTimes: Int) { self.failingTimes = failingTimes }

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == PhotoError {
        subscriptions += 1
        if subscriptions <= failingTimes {
            subscriber.receive(subscription: Nothing())
            subscriber.receive(completion: .failure(PhotoError()))
        } else {
            subscriber.receive(subscription: Delivery(subscriber))
        }
    }
}

@Suite("Publishers.Retry")
struct RetryTests {
    private func run(failingTimes: Int, retries: Int) -> [String] {
        var log: [String] = []
        let service = FlakyPhotoPublisher(failingTimes: failingTimes)
        let subscriber = TrackingSubscriber<String, PhotoError>()
        service
            .handleEvents(
                receiveSubscription: { _ in log.append("Trying ...") },
                receiveCompletion: {
                    guard case .failure(let error) = $0 else { return }
                    log.append("Got error: \(error)")
                })
            .retry(retries)
            .subscribe(subscriber)
        for event in subscriber.events {
            switch event {
            case .subscription: break
            case .value(let image): log.append("Got image: \(image)")
            case .completion(.finished): log.append("finished")
            case .completion(.failure(let error)): log.append("failure(\(error))")
            }
        }
        return log
    }

    @Test func bookFourAttemptsThenFailure() {
        // Kodeco ch. 16, "Catching and retrying": retry(3) against an always-failing publisher.
        #expect(run(failingTimes: 100, retries: 3) == [
            "Trying ...", "Got error: Failed fetching image with high quality",
            "Trying ...", "Got error: Failed fetching image with high quality",
            "Trying ...", "Got error: Failed fetching image with high quality",
            "Trying ...", "Got error: Failed fetching image with high quality",
            "failure(Failed fetching image with high quality)",
        ])
    }

    @Test func bookSucceedsOnTheThirdAttempt() {
        #expect(run(failingTimes: 2, retries: 3) == [
            "Trying ...", "Got error: Failed fetching image with high quality",
            "Trying ...", "Got error: Failed fetching image with high quality",
            "Trying ...", "Got image: hq.jpg", "finished",
        ])
    }

    @Test func bookReplaceErrorAfterRetry() {
        // Kodeco ch. 16: four failed tries, then the placeholder image and `finished`.
        var log: [String] = []
        let service = FlakyPhotoPublisher(failingTimes: .max)
        let cancellable = service
            .handleEvents(
                receiveSubscription: { _ in log.append("Trying ...") },
                receiveCompletion: {
                    guard case .failure(let error) = $0 else { return }
                    log.append("Got error: \(error)")
                })
            .retry(3)
            .replaceError(with: "na.jpg")
            .sink(receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("Got image: \($0)") })
        _ = cancellable
        #expect(log == Array(repeating: ["Trying ...", "Got error: Failed fetching image with high quality"], count: 4).flatMap { $0 }
            + ["Got image: na.jpg", "finished"])
    }

    @Test func bookCatchAfterRetryFallsBackToLowQuality() {
        // Kodeco ch. 16: four failed tries, then `catch` subscribes to the low-quality fetch.
        var log: [String] = []
        let service = FlakyPhotoPublisher(failingTimes: .max)
        let cancellable = service
            .handleEvents(
                receiveSubscription: { _ in log.append("Trying ...") },
                receiveCompletion: {
                    guard case .failure(let error) = $0 else { return }
                    log.append("Got error: \(error)")
                })
            .retry(3)
            .catch { _ -> Just<String> in
                log.append("Failed fetching high quality, falling back to low quality")
                return Just("lq.jpg")
            }
            .replaceError(with: "na.jpg")
            .sink(receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("Got image: \($0)") })
        _ = cancellable
        #expect(log == Array(repeating: ["Trying ...", "Got error: Failed fetching image with high quality"], count: 4).flatMap { $0 }
            + ["Failed fetching high quality, falling back to low quality", "Got image: lq.jpg", "finished"])
    }

    @Test func bookRetryDemoWithFailAndPrint() {
        // Using Combine, testing: `testRetryWithOneShotFailPublisher`. The book's log comes from
        // iOS 13, which showed the downstream subscription after the errors; here (as on current
        // systems) the subscription comes first. `Fail`'s subscription prints as `Empty`. The
        // trailing `receive cancel` of the book does not appear: the sink has already let go of its
        // subscription when it completed.
        enum TestFailureCondition: Error { case invalidServerResponse }
        let log = TextLog()
        var completion: String?
        let _ = Fail(outputType: String.self, failure: TestFailureCondition.invalidServerResponse)
            .print("(1)>", to: log)
            .retry(3)
            .print("(2)>", to: log)
            .sink(receiveCompletion: { completion = "\($0)" }, receiveValue: { _ in })
        let attempt = ["(1)>: receive subscription: (Empty)", "(1)>: request unlimited", "(1)>: receive error: (invalidServerResponse)"]
        #expect(log.lines == [
            "(1)>: receive subscription: (Empty)",
            "(2)>: receive subscription: (Retry)",
            "(2)>: request unlimited",
            "(1)>: request unlimited",
            "(1)>: receive error: (invalidServerResponse)",
        ] + attempt + attempt + attempt + ["(2)>: receive error: (invalidServerResponse)"])
        #expect(log.lines.filter { $0 == "(1)>: receive error: (invalidServerResponse)" }.count == 4)
        #expect(completion?.hasPrefix("failure(") == true)
        #expect(completion?.hasSuffix("invalidServerResponse)") == true)
    }

    @Test func retryNSubscribesNPlusOneTimes() {
        for retries in 0...4 {
            let service = FlakyPhotoPublisher(failingTimes: .max)
            let subscriber = TrackingSubscriber<String, PhotoError>()
            service.retry(retries).subscribe(subscriber)
            #expect(service.subscriptions == retries + 1)
            #expect(subscriber.completions.count == 1)
        }
    }

    @Test func manySynchronousFailuresDoNotGrowTheStack() {
        let service = FlakyPhotoPublisher(failingTimes: 100_000)
        let subscriber = TrackingSubscriber<String, PhotoError>()
        Publishers.Retry(upstream: service, retries: nil).subscribe(subscriber)
        #expect(service.subscriptions == 100_001)
        #expect(subscriber.values == ["hq.jpg"])
    }

    @Test(.tags(.concurrency)) func cancelFromAnotherThreadStopsAnEndlessRetryLoop() {
        for _ in 0..<20 {
            let service = FlakyPhotoPublisher(failingTimes: .max)
            let subscriber = TrackingSubscriber<String, PhotoError>()
            onThreadsBlocking(2) { worker in
                if worker == 0 {
                    Publishers.Retry(upstream: service, retries: nil).subscribe(subscriber)
                } else {
                    while subscriber.subscription == nil {}
                    subscriber.cancel()
                }
            }
            #expect(subscriber.completions.isEmpty)
            #expect(subscriber.values.isEmpty)
        }
    }

    @Test func outstandingDemandIsRequestedFromEachNewSubscription() {
        let upstream = TestUpstream<Int, Boom>(name: "Up")
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: .max(3))
        upstream.retry(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Retry")])
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(upstream.subscriptionCount == 2)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .failure(.boom))
        #expect(upstream.subscriptionCount == 3)
        subscriber.request(.max(1))
        upstream.send(completion: .failure(.boom))
        #expect(upstream.subscriptionCount == 3)
        #expect(upstream.calls == [.request(.max(3)), .request(.max(2)), .request(.max(1))])
        #expect(subscriber.events == [.subscription("Retry"), .value(1), .value(2), .value(3), .completion(.failure(.boom))])
    }

    @Test func finishedEndsWithoutRetrying() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        upstream.retry(5).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(upstream.subscriptionCount == 1)
        #expect(subscriber.completions == [.finished])
    }

    @Test func cancelReachesTheCurrentSubscriptionAndStopsRetrying() {
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        upstream.retry(5).subscribe(subscriber)
        upstream.send(completion: .failure(.boom))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.unlimited), .request(.unlimited), .cancel])
        upstream.send(completion: .failure(.boom))
        #expect(upstream.subscriptionCount == 2)
        #expect(subscriber.completions.isEmpty)
    }

    @Test func specialisedOverloadsKeepTheirTypes() {
        let just: Just<Int> = Just(1).retry(3)
        #expect(just.output == 1)
        let optional: Optional<Int>.Publisher = Optional<Int>.none.publisher.retry(3)
        #expect(optional.output == nil)
        let result: Result<Int, Boom>.Publisher = Result<Int, Boom>.failure(.boom).publisher.retry(3)
        if case .failure(.boom) = result.result {} else { Issue.record("expected the same failure") }
    }

    @Test func equatableAndProperties() {
        let retry = EquatableUpstream(id: 1).retry(2)
        #expect(retry.retries == 2)
        #expect(retry == Publishers.Retry(upstream: EquatableUpstream(id: 1), retries: 2))
        #expect(retry != Publishers.Retry(upstream: EquatableUpstream(id: 1), retries: nil))
    }

    @Test func reflection() throws {
        let subscriber = TrackingSubscriber<Int, Boom>()
        TestUpstream<Int, Boom>().retry(1).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Retry")
        // Spec §28: Apple's Retry shows no children.
        #expect((subscription as? CustomReflectable)?.customMirror.children.map(\.label) == [])
    }

    @Test func releasedAfterFinalFailure() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Boom>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Boom>()
            upstream.retry(1).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            upstream.send(completion: .failure(.boom))
            upstream.send(completion: .failure(.boom))
            #expect(subscriber.completions == [.failure(.boom)])
        }
        #expect(weakSubscription == nil)
        #expect(upstream.subscriptionCount == 2)
    }

    @Test func releasedAfterCancel() {
        weak var weakSubscription: AnyObject?
        let upstream = ReleasingTestUpstream<Int, Boom>()
        do {
            let subscriber = ReleasingTestSubscriber<Int, Boom>()
            upstream.retry(1).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(!upstream.hasSubscriber)
    }

    @Test func valuesReturnNoneAndTheAnswerIsRequested() {
        // Spec §17: each value returns none; the downstream's answer goes out with request(n).
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>(initialDemand: .max(3), demandAfterValue: { _ in .max(5) })
        upstream.retry(1).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.calls == [.request(.max(3)), .request(.max(5))])
    }

    @Test func upstreamFacingObjectIsTheSubscription() {
        // Spec §17: the stage attached upstream is the downstream's subscription.
        let capture = CapturingPublisher { _ in }
        capture.retry(1).subscribe(TrackingSubscriber<Int, Boom>())
        #expect(capture.rawSubscriber is any Subscription)
        #expect(String(describing: capture.rawSubscriber!) == "Retry")
    }

    @Test func negativeCountRetriesForever() {
        // Spec §17 and §2c: retry(-1) retries without limit.
        let upstream = TestUpstream<Int, Boom>()
        let subscriber = TrackingSubscriber<Int, Boom>()
        upstream.retry(-1).subscribe(subscriber)
        for _ in 0..<10 { upstream.send(completion: .failure(.boom)) }
        #expect(upstream.subscriptionCount == 11)
        #expect(subscriber.completions.isEmpty)
    }

    @Test func valueBeyondDemandTraps() async {
        // Spec §10 rule 3.
        await #expect(processExitsWith: .failure) {
            let upstream = TestUpstream<Int, Boom>()
            upstream.retry(1).subscribe(TrackingSubscriber<Int, Boom>(initialDemand: nil))
            upstream.send(1)
        }
    }

}

/// Records the subscriber attached to it, sending nothing.
private final class CapturingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Boom

    let onAttach: (AnySubscriber<Int, Boom>) -> Void
    var rawSubscriber: Any?

    init(onAttach: @escaping (AnySubscriber<Int, Boom>) -> Void) { self.onAttach = onAttach }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Boom {
        rawSubscriber = subscriber
        onAttach(AnySubscriber(subscriber))
    }
}

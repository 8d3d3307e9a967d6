import Combine
import Foundation
import TestSupport
import Testing

/// The misuse Apple's Combine traps on traps here too, with a message naming the rule, in release
/// builds as well (`fatalError`); the misuse Apple tolerates is tolerated.
@Suite("Misuse diagnostics")
struct MisuseDiagnosticsTests {
    /// Requests `.none` as soon as it is subscribed.
    final class ZeroRequester<Input, Failure: Error>: Subscriber {
        private(set) var subscription: (any Subscription)?
        private(set) var values: [Input] = []
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.none)
        }
        func receive(_ input: Input) -> Subscribers.Demand {
            values.append(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) {}
    }

    @Test func negativeDemandTraps() async {
        await #expect(processExitsWith: .failure) {
            let count = Int(ProcessInfo.processInfo.environment["NEVER_SET_COUNT"] ?? "-1")!
            _ = Subscribers.Demand.max(count)
        }
    }

    @Test func demandSubtractionClampsInsteadOfTrapping() {
        // Apple documents that a subtraction below zero gives `.max(0)`.
        #expect(Subscribers.Demand.max(1) - .max(2) == .none)
        #expect(Subscribers.Demand.max(1) - 2 == .none)
    }

    @Test func zeroDemandOnJustTraps() async {
        await #expect(processExitsWith: .failure) {
            Just(1).subscribe(ZeroRequester<Int, Never>())
        }
    }

    @Test func zeroDemandOnSubjectTraps() async {
        await #expect(processExitsWith: .failure) {
            PassthroughSubject<Int, Never>().subscribe(ZeroRequester<Int, Never>())
        }
    }

    /// Apple ignores a zero request on a sequence publisher's subscription: nothing is delivered and
    /// the next real request starts the delivery.
    @Test func zeroDemandOnSequenceIsIgnored() {
        let subscriber = ZeroRequester<Int, Never>()
        [1, 2].publisher.subscribe(subscriber)
        #expect(subscriber.values == [])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.values == [1])
    }

    /// Apple ignores a zero request on buffer's subscription, whatever the prefetch strategy.
    @Test func zeroDemandOnBufferIsIgnored() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = ZeroRequester<Int, Never>()
        subject.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(subscriber.values == [])
        subscriber.subscription?.request(.max(1))
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [1])
    }

    @Test func zeroDemandOnOperatorsTraps() async {
        await #expect(processExitsWith: .failure) {
            PassthroughSubject<Int, Never>().flatMap { Just($0) }.subscribe(ZeroRequester<Int, Never>())
        }
        await #expect(processExitsWith: .failure) {
            PassthroughSubject<Int, Never>().merge(with: Just(1)).subscribe(ZeroRequester<Int, Never>())
        }
    }

    @Test func assertNoFailureTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Fail<Int, StressError>(error: StressError()).assertNoFailure("rule").sink { _ in }
        }
    }

    /// A publisher that never hands out a subscription.
    struct NeverSubscribes: Publisher {
        typealias Output = Int
        typealias Failure = Never
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
    }

    /// A publisher that pushes a value its subscriber never asked for.
    struct PushesWithoutDemand: Publisher {
        typealias Output = Int
        typealias Failure = Never
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: Subscriptions.empty)
            _ = subscriber.receive(1)
        }
    }

    /// Apple builds `dropFirst(-1)` and subscribes it without complaint; only the arrival of the
    /// upstream's subscription traps.
    @Test func dropFirstNegativeCountIsAcceptedUntilTheSubscriptionArrives() {
        let drop = NeverSubscribes().dropFirst(-1)
        #expect(drop.count == -1)
        let cancellable = drop.sink { _ in }
        cancellable.cancel()
    }

    @Test func dropFirstNegativeCountTrapsWhenTheSubscriptionArrives() async {
        await #expect(processExitsWith: .failure) {
            _ = PassthroughSubject<Int, Never>().dropFirst(-1).sink { _ in }
        }
    }

    @Test func optionalOutputInRangeTrapsOnlyWhereAppleTraps() async {
        #expect(Optional(1).publisher.output(in: 0..<(Int.max - 2)).output == 1)
        await #expect(processExitsWith: .failure) {
            _ = Optional(1).publisher.output(in: -1..<3)
        }
        await #expect(processExitsWith: .failure) {
            _ = Optional(1).publisher.output(in: 0..<(Int.max - 1))
        }
        await #expect(processExitsWith: .failure) {
            _ = Optional(1).publisher.output(in: 0...)
        }
    }

    @Test func asyncPublisherValueWithNoNextWaitingTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = PushesWithoutDemand().values.makeAsyncIterator()
        }
    }

    @Test func sinkCancelsASecondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = PassthroughSubject<Int, Never>()
        let second = RecordingSubscription()
        first.subscribe(sink)
        sink.receive(subscription: second)
        #expect(second.isCancelled)
        #expect(second.requests.isEmpty)
        sink.cancel()
    }

    @Test func assignCancelsASecondSubscription() {
        final class Target { var value = 0 }
        let assign = Subscribers.Assign<Target, Int>(object: Target(), keyPath: \.value)
        let second = RecordingSubscription()
        PassthroughSubject<Int, Never>().subscribe(assign)
        assign.receive(subscription: second)
        #expect(second.isCancelled)
        #expect(second.requests.isEmpty)
        assign.cancel()
    }
}

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
        func receive(subscription: any Subscription) { subscription.request(.none) }
        func receive(_ input: Input) -> Subscribers.Demand { .none }
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

    @Test func zeroDemandOnSequenceTraps() async {
        await #expect(processExitsWith: .failure) {
            [1, 2].publisher.subscribe(ZeroRequester<Int, Never>())
        }
    }

    @Test func zeroDemandOnOperatorsTraps() async {
        await #expect(processExitsWith: .failure) {
            PassthroughSubject<Int, Never>().flatMap { Just($0) }.subscribe(ZeroRequester<Int, Never>())
        }
        await #expect(processExitsWith: .failure) {
            PassthroughSubject<Int, Never>().merge(with: Just(1)).subscribe(ZeroRequester<Int, Never>())
        }
        await #expect(processExitsWith: .failure) {
            PassthroughSubject<Int, Never>().buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest)
                .subscribe(ZeroRequester<Int, Never>())
        }
    }

    @Test func assertNoFailureTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Fail<Int, StressError>(error: StressError()).assertNoFailure("rule").sink { _ in }
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

import Combine
import CombineTesting
import Foundation
import Testing

@Suite("Publisher.record")
struct PublisherRecordTests {
    struct Boom: Error, Equatable {}

    @Test func collectsSynchronousOutput() {
        #expect([1, 2, 3].publisher.record() == PublisherOutput(values: [1, 2, 3], completion: .finished))
        #expect(Just("x").record().isFinished)
        let failed = Fail<Int, Boom>(error: Boom()).record()
        #expect(failed.failure == Boom())
        #expect(failed.description == "[] failure(Boom())")
    }

    @Test func stopsAtWhatWasSynchronousAndCancels() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let output = subject.record()
        #expect(output == PublisherOutput(values: [1], completion: nil))
        #expect(output.description == "[1] (not completed)")
    }

    @Test func awaitsAsynchronousCompletion() async throws {
        let future = Deferred {
            Future<Int, Never> { promise in
                nonisolated(unsafe) let promise = promise
                DispatchQueue.global().async { promise(.success(42)) }
            }
        }
        let output = try await future.record(timeout: .seconds(10))
        #expect(output == PublisherOutput(values: [42], completion: .finished))
    }

    @Test func awaitsSynchronousCompletionToo() async throws {
        let output = try await [1, 2].publisher.record(timeout: .seconds(10))
        #expect(output == PublisherOutput(values: [1, 2], completion: .finished))
    }

    @Test func timesOutWithWhatArrived() async {
        let subject = CurrentValueSubject<Int, Never>(7)
        do {
            _ = try await subject.record(timeout: .milliseconds(20))
            Issue.record("expected a timeout")
        } catch let error as PublisherRecordTimeout<Int, Never> {
            #expect(error.partial == PublisherOutput(values: [7], completion: nil))
            #expect(error.description.hasPrefix("Publisher did not complete within"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func timesOutEvenWhenThePublisherForgetsItsSubscriber() async {
        await #expect(throws: PublisherRecordTimeout<Int, Never>.self) {
            try await Empty<Int, Never>(completeImmediately: false).record(timeout: .milliseconds(10))
        }
    }

    final class Payload: Sendable {}

    @Test func aFinishedRecordingIsNotKeptAliveByItsTimeout() async throws {
        weak var weakPayload: Payload?
        do {
            let payload = Payload()
            weakPayload = payload
            let output = try await Just(payload).record(timeout: .seconds(600))
            #expect(output.values.count == 1)
        }
        // The cancelled timer task releases its closure when it next runs, on another thread:
        // poll for that (bounded at 5 s; it normally takes microseconds).
        for _ in 0..<500 where weakPayload != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(weakPayload == nil)
    }
}

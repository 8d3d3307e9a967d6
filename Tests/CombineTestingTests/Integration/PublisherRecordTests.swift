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
}

import Combine
import Foundation
import TestSupport
import Testing

@Suite("Record")
struct RecordTests {
    private enum Problem: Error, Codable, Equatable { case failed }

    @Test func replaysHonouringDemand() {
        let record = Record<Int, Problem>(output: [1, 2, 3], completion: .failure(.failed))
        let subscriber = TrackingSubscriber<Int, Problem>(initialDemand: .max(2))
        record.subscribe(subscriber)
        // Apple describes the subscription by its recorded values, then as "Cancelled Events" once
        // it has finished (edge spec §2c).
        #expect(subscriber.events == [.subscription("[1, 2, 3]"), .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.failure(.failed))])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Cancelled Events")
    }

    @Test func recordsStepByStep() {
        let record = Record<String, Never> { recording in
            recording.receive("a")
            recording.receive("b")
            recording.receive(completion: .finished)
        }
        #expect(record.recording.output == ["a", "b"])
        #expect(record.recording.completion == .finished)
        var values: [String] = []
        _ = record.sink { values.append($0) }
        #expect(values == ["a", "b"])
        let again = Record(recording: record.recording)
        #expect(again.recording.output == ["a", "b"])
    }

    @Test func emptyRecordCompletesAtOnce() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        Record<Int, Never>(output: [], completion: .finished).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.finished)])
    }

    /// Spec §28, §30: once the subscription has finished, its mirror's `sequence` is empty; the
    /// completion is still shown.
    @Test func mirrorSequenceIsEmptyOnceFinished() throws {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func children() -> [String] {
            Mirror(reflecting: subscription).children.map { "\($0.label ?? "_"): \($0.value)" }
        }
        #expect(children() == ["sequence: [1, 2]", "completion: finished"])
        subscription.request(.max(1))
        #expect(subscriber.completions == [.finished])
        #expect(children() == ["sequence: []", "completion: finished"])
    }

    @Test func codableRoundTrip() throws {
        let record = Record<Int, Problem>(output: [1, 2], completion: .failure(.failed))
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<Int, Problem>.self, from: data)
        #expect(decoded.recording.output == [1, 2])
        #expect(decoded.recording.completion == .failure(.failed))
    }
}

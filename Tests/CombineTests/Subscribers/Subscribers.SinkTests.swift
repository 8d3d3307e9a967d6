import Combine
import Foundation
import TestSupport
import Testing

@Suite("Subscribers.Sink")
struct SubscribersSinkTests {
    @Test func requestsUnlimitedAndDeliversEverything() {
        let upstream = TestUpstream<Int, Never>()
        var values: [Int] = []
        var completions = 0
        let cancellable = upstream.sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
        #expect(upstream.calls == [.request(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(values == [1, 2])
        #expect(completions == 1)
        cancellable.cancel()
        #expect(!upstream.isCancelled)
    }

    @Test func ignoresEverythingAfterCancel() {
        let upstream = TestUpstream<Int, Never>()
        var values: [Int] = []
        var completed = false
        let cancellable = upstream.sink(receiveCompletion: { _ in completed = true }, receiveValue: { values.append($0) })
        upstream.send(1)
        cancellable.cancel()
        #expect(upstream.isCancelled)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(values == [1])
        #expect(!completed)
    }

    @Test func secondSubscriptionIsCancelled() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = TestUpstream<Int, Never>()
        let second = TestUpstream<Int, Never>()
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(first.calls == [.request(.unlimited)])
        #expect(second.calls == [.cancel])
    }

    @Test func descriptionAndReflection() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.description == "Sink")
        #expect(String(describing: sink.playgroundDescription) == "Sink")
        #expect(sink.customMirror.children.isEmpty)
    }

    @Test func releasedAfterCompletionAndAfterCancel() {
        weak var completedSink: Subscribers.Sink<Int, Never>?
        do {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            completedSink = sink
            Just(1).subscribe(sink)
        }
        #expect(completedSink == nil)

        weak var cancelledSink: Subscribers.Sink<Int, Never>?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            cancelledSink = sink
            subject.subscribe(sink)
            sink.cancel()
        }
        #expect(cancelledSink == nil)
    }

    @Test func sinkWithoutCompletionForNeverFailing() {
        var values: [Int] = []
        _ = [1, 2, 3].publisher.sink { values.append($0) }
        #expect(values == [1, 2, 3])
    }
}

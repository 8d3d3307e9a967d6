import Combine
import Testing

/// A subject keeps a subscriber that lets go of its subscription when done (a `sink`, and the
/// stages in front of one that hand the subscription straight down or drop it when they end)
/// inside the subscription object itself. The subscription must still release all of it when it
/// ends: by a cancel, or by the completion once the cancellable goes.
@Suite("SubjectDispatcher: subscribers kept inside the subscription")
struct SubjectDispatcherFoldingTests {
    enum Boom: Error { case boom }

    /// Counts its own deinit, to tell that everything the pipeline captured was released.
    final class Token {
        let onDeinit: () -> Void
        init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    struct Stage: CustomTestStringConvertible, Sendable {
        let name: String
        /// Attaches the stage and a sink capturing `token` to `subject`; the sink appends what it
        /// receives to `received`.
        let attach: @Sendable (PassthroughSubject<Int, Boom>, Token, @escaping (Int) -> Void) -> AnyCancellable
        var testDescription: String { name }
    }

    static let stages: [Stage] = [
        Stage(name: "filter") { s, t, r in s.filter { _ in _ = t; return true }.sink(receiveCompletion: { _ in }, receiveValue: r) },
        Stage(name: "compactMap") { s, t, r in s.compactMap { _ = t; return $0 }.sink(receiveCompletion: { _ in }, receiveValue: r) },
        Stage(name: "removeDuplicates") { s, t, r in
            s.removeDuplicates { _, _ in _ = t; return false }.sink(receiveCompletion: { _ in }, receiveValue: r)
        },
        Stage(name: "scan") { s, t, r in s.scan(0) { _ = t; return $1 }.sink(receiveCompletion: { _ in }, receiveValue: r) },
        Stage(name: "collect(1)") { s, t, r in
            s.collect(1).sink(receiveCompletion: { _ in _ = t }, receiveValue: { $0.forEach(r) })
        },
        Stage(name: "mapError") { s, t, r in
            s.mapError { error -> Boom in _ = t; return error }.sink(receiveCompletion: { _ in }, receiveValue: r)
        },
        Stage(name: "map(keyPath)") { s, t, r in
            s.map(\.self).sink(receiveCompletion: { _ in _ = t }, receiveValue: r)
        },
        Stage(name: "assertNoFailure → setFailureType") { s, t, r in
            s.assertNoFailure().setFailureType(to: Boom.self).sink(receiveCompletion: { _ in _ = t }, receiveValue: r)
        },
        Stage(name: "ignoreOutput") { s, t, r in
            s.ignoreOutput().sink(receiveCompletion: { _ in _ = t }, receiveValue: { _ in })
        },
    ]

    @Test(arguments: stages, [false, true])
    func releasesEverythingWhenTheSubscriptionEnds(_ stage: Stage, byCompletion: Bool) {
        var released = false
        var received: [Int] = []
        let subject = PassthroughSubject<Int, Boom>()
        var cancellable: AnyCancellable?
        do {
            let token = Token { released = true }
            cancellable = stage.attach(subject, token) { received.append($0) }
        }
        subject.send(1)
        #expect(!released)
        if byCompletion {
            subject.send(completion: .finished)
            cancellable = nil
        } else {
            cancellable?.cancel()
        }
        #expect(released)
        let before = received
        subject.send(2)
        #expect(received == before, "nothing reaches a subscription that has ended")
        if stage.name != "ignoreOutput" { #expect(received.first == 1) }
    }
}

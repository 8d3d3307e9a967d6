import Combine
import Foundation
import Testing

/// In debug builds, an upstream that calls into a stage with per-value state from two threads at
/// once traps with a message naming the rule, instead of corrupting the stage's state.
@Suite("Serial-call check")
struct SerialCallCheckTests {
    /// A publisher that hands its subscriber to the test, which then calls it as a badly written
    /// publisher would.
    final class LeakingPublisher: Publisher, @unchecked Sendable {
        typealias Output = Int
        typealias Failure = Never
        var subscriber: AnySubscriber<Int, Never>?

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            self.subscriber = AnySubscriber(subscriber)
            subscriber.receive(subscription: Subscriptions.empty)
        }
    }

    /// A value arrives on a second thread while the first thread's value is still being
    /// delivered (the subscriber holds it until the second call has started).
    static func callTwiceAtOnce<P: Publisher>(_ pipeline: (LeakingPublisher) -> P) where P.Failure == Never {
        let upstream = LeakingPublisher()
        let inside = DispatchSemaphore(value: 0)
        let cancellable = pipeline(upstream).sink { _ in
            inside.signal()
            Thread.sleep(forTimeInterval: 5)
        }
        Thread.detachNewThread {
            _ = upstream.subscriber?.receive(1)
        }
        inside.wait()
        _ = upstream.subscriber?.receive(2)
        withExtendedLifetime(cancellable) {}
    }

    #if DEBUG
    // `filter` keeps no state (it hands the upstream's subscription through, as Apple's does), so
    // the check is shown on `removeDuplicates`, which remembers the last value.
    @Test func removeDuplicatesEnteredFromTwoThreadsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SerialCallCheckTests.callTwiceAtOnce { $0.removeDuplicates() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("RemoveDuplicates was called by its upstream from one thread while a call from another thread"))
    }

    @Test func collectByCountEnteredFromTwoThreadsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SerialCallCheckTests.callTwiceAtOnce { $0.collect(1) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("collect(_:) was called by its upstream"))
    }
    #endif

    /// A nested call on the same thread is serial: a synchronous upstream that delivers the next
    /// value from inside the request its subscriber makes while receiving.
    @Test func nestedCallOnTheSameThreadIsAllowed() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.filter { _ in true }.sink { value in
            received.append(value)
            if value == 1 { subject.send(2) }
        }
        subject.send(1)
        #expect(received == [1, 2])
        withExtendedLifetime(cancellable) {}
    }
}

import Combine
import Foundation
import TestSupport
import Testing

/// A fast producer floods a subject while another thread sends now and then: the occasional
/// sender's values are delivered before its `send` returns, nothing is lost, and the occasional
/// sender never becomes the thread that drains the flood (with a queue behind the subscriber, one
/// of its sends used to deliver everything the flood had queued meanwhile).
@Suite("Cross-thread sends")
struct CrossThreadSendTests {
    @Test func floodAndOccasionalSender() {
        let floodCount = Stress.rounds(200_000)
        let occasionalCount = Stress.rounds(200)
        let subject = PassthroughSubject<Int, Never>()
        // The subscriber does a little work per value, as a real one would.
        let delivered = Locked(Set<Int>())
        let floodDelivered = Locked(0)
        let occasionalThread = Locked<pthread_t?>(nil)
        // Flood values delivered by the occasional sender's thread (only that thread writes it).
        let floodDeliveredByOccasional = Locked(0)
        let cancellable = subject.sink { value in
            if value < 0 {
                delivered.withLock { _ = $0.insert(value) }
            } else {
                floodDelivered.withLock { $0 += 1 }
                if let occasional = occasionalThread.withLock({ $0 }), pthread_equal(occasional, pthread_self()) != 0 {
                    floodDeliveredByOccasional.withLock { $0 += 1 }
                }
            }
        }
        let missing = Locked(0)
        let mostFloodValuesInOneSend = Locked(0)
        let floodDone = Locked(false)
        Stress.concurrently([
            {
                for value in 0..<floodCount { subject.send(value) }
                floodDone.withLock { $0 = true }
            },
            {
                occasionalThread.withLock { $0 = pthread_self() }
                for index in 1...occasionalCount {
                    let before = floodDeliveredByOccasional.withLock { $0 }
                    subject.send(-index)
                    let after = floodDeliveredByOccasional.withLock { $0 }
                    if !delivered.withLock({ $0.contains(-index) }) { missing.withLock { $0 += 1 } }
                    mostFloodValuesInOneSend.withLock { $0 = max($0, after - before) }
                    if floodDone.withLock({ $0 }) { break }
                    usleep(200)
                }
            },
        ])
        #expect(missing.withLock { $0 } == 0, "values not yet delivered when their send returned")
        #expect(floodDelivered.withLock { $0 } == floodCount)
        // A send that found the subject free delivers its own value and, at most, the one flood
        // value whose sender is waiting for it; one that found it busy delivers nothing itself.
        #expect(mostFloodValuesInOneSend.withLock { $0 } <= 1)
        withExtendedLifetime(cancellable) {}
    }

    /// Two threads complete and send at once: the completion's sender returns once every
    /// subscriber has it, and nothing arrives after it.
    @Test func completionFromAnotherThreadReturnsOnceDelivered() {
        for _ in 0..<Stress.rounds(200) {
            let subject = PassthroughSubject<Int, Never>()
            let completed = Locked(false)
            let afterCompletion = Locked(0)
            let cancellable = subject.sink(
                receiveCompletion: { _ in completed.withLock { $0 = true } },
                receiveValue: { _ in if completed.withLock({ $0 }) { afterCompletion.withLock { $0 += 1 } } })
            let completedOnReturn = Locked(false)
            Stress.concurrently([
                { for value in 0..<200 { subject.send(value) } },
                {
                    subject.send(completion: .finished)
                    completedOnReturn.withLock { $0 = completed.withLock { $0 } }
                },
            ])
            #expect(completedOnReturn.withLock { $0 })
            #expect(afterCompletion.withLock { $0 } == 0)
            withExtendedLifetime(cancellable) {}
        }
    }
}

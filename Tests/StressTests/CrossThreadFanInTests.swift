import Combine
import Foundation
import TestSupport
import Testing

/// The fan-in operators (merge, combineLatest, zip, flatMap, switchToLatest) follow the subjects'
/// rule for values sent from another thread: a send that finds another thread delivering waits
/// until its own value has been delivered, so nothing piles up behind the subscriber and, when the
/// send returns, the subscriber has the value. It stops waiting when its value stays queued for
/// lack of demand, and a send from inside the subscriber never waits for itself.
@Suite("Cross-thread sends into fan-in operators")
struct CrossThreadFanInTests {
    /// One thread floods one input while another sends now and then into the other; `pipeline`
    /// joins the two inputs, `occasional` finds the occasional sender's value in an output.
    func floodAndOccasionalSender<P: Publisher>(
        _ pipeline: (PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>) -> P,
        occasional: @escaping @Sendable (P.Output) -> Int?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where P.Failure == Never {
        let floodCount = Stress.rounds(100_000)
        let occasionalCount = Stress.rounds(200)
        let flood = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let received = Locked(Set<Int>())
        let inside = Locked(0)
        let overlaps = Locked(0)
        let cancellable = pipeline(flood, other).sink { output in
            if inside.withLock({ $0 += 1; return $0 }) != 1 { overlaps.withLock { $0 += 1 } }
            if let value = occasional(output) { received.withLock { _ = $0.insert(value) } }
            inside.withLock { $0 -= 1 }
        }
        // combineLatest emits once both inputs have a value.
        flood.send(0)
        let missing = Locked(0)
        let floodDone = Locked(false)
        Stress.concurrently([
            {
                for value in 0..<floodCount { flood.send(value) }
                floodDone.withLock { $0 = true }
            },
            {
                for index in 1...occasionalCount {
                    other.send(-index)
                    if !received.withLock({ $0.contains(-index) }) { missing.withLock { $0 += 1 } }
                    if floodDone.withLock({ $0 }) { break }
                    usleep(100)
                }
            },
        ], sourceLocation: sourceLocation)
        #expect(missing.withLock { $0 } == 0, "values not yet delivered when their send returned",
                sourceLocation: sourceLocation)
        #expect(overlaps.withLock { $0 } == 0, "overlapping calls into the subscriber", sourceLocation: sourceLocation)
        withExtendedLifetime(cancellable) {}
    }

    @Test func merge() {
        floodAndOccasionalSender({ $0.merge(with: $1) }, occasional: { $0 < 0 ? $0 : nil })
    }

    @Test func combineLatest() {
        floodAndOccasionalSender({ $0.combineLatest($1) }, occasional: { $0.1 })
    }

    @Test func flatMap() {
        floodAndOccasionalSender({ [$0, $1].publisher.flatMap { $0 } }, occasional: { $0 < 0 ? $0 : nil })
    }

    /// Zip pairs values: one thread feeds the left input, another the right one. When a right
    /// send returns, the pair it completed (its left partner had arrived) has been delivered.
    @Test func zip() {
        let rounds = Stress.rounds(20_000)
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let delivered = Locked(0)
        let leftSent = Locked(0)
        let late = Locked(0)
        let cancellable = left.zip(right).sink { _ in delivered.withLock { $0 += 1 } }
        Stress.concurrently([
            {
                for value in 0..<rounds {
                    left.send(value)
                    leftSent.withLock { $0 += 1 }
                }
            },
            {
                for value in 0..<rounds {
                    let partners = leftSent.withLock { $0 }
                    right.send(value)
                    if delivered.withLock({ $0 }) < min(value + 1, partners) { late.withLock { $0 += 1 } }
                }
            },
        ])
        #expect(late.withLock { $0 } == 0, "pairs not yet delivered when the send that completed them returned")
        #expect(delivered.withLock { $0 } == rounds)
        withExtendedLifetime(cancellable) {}
    }

    /// A value sent while another thread delivers, and then left queued because the subscriber
    /// wants no more, does not hold its sender: the send returns at the end of the delivery in
    /// progress, and the value goes out on the next request.
    @Test func senderReturnsWhenItsValueWaitsForDemand() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let secondReturned = Locked(false)
        let secondReturnedBeforeDelivery = Locked(false)
        let subscriberBox = Locked<TrackingSubscriber<Int, Never>?>(nil)
        let subscriber = TrackingSubscriber<Int, Never>(
            initialDemand: .max(1),
            onValue: { value in
                guard value == 1 else { return }
                // While this thread delivers 1, another one sends 2: it has to wait for this
                // delivery, which ends with no demand left, so 2 stays queued.
                let thread = Thread {
                    second.send(2)
                    let delivered = subscriberBox.withLock { $0?.values.contains(2) ?? false }
                    secondReturnedBeforeDelivery.withLock { $0 = !delivered }
                    secondReturned.withLock { $0 = true }
                }
                thread.start()
                usleep(20_000)
            })
        subscriberBox.withLock { $0 = subscriber }
        first.merge(with: second).subscribe(subscriber)
        first.send(1)
        Stress.eventually("the second sender's return") { secondReturned.withLock { $0 } }
        #expect(secondReturnedBeforeDelivery.withLock { $0 })
        #expect(subscriber.values == [1])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.values == [1, 2])
    }

    /// A completion sent from another thread returns once the subscriber has it.
    @Test func completionFromAnotherThreadReturnsOnceDelivered() {
        for _ in 0..<Stress.rounds(200) {
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            let completed = Locked(false)
            let cancellable = left.merge(with: right).sink(
                receiveCompletion: { _ in completed.withLock { $0 = true } }, receiveValue: { _ in })
            left.send(completion: .finished)
            let completedOnReturn = Locked(false)
            Stress.concurrently([
                { for value in 0..<200 { right.send(value) } },
                {
                    right.send(completion: .finished)
                    completedOnReturn.withLock { $0 = completed.withLock { $0 } }
                },
            ])
            #expect(completedOnReturn.withLock { $0 })
            withExtendedLifetime(cancellable) {}
        }
    }
}

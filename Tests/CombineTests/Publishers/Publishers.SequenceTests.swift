import Combine
import Foundation
import TestSupport
import Testing

@Suite("Publishers.Sequence", .tags(.concurrency))
struct PublishersSequenceTests {
    @Test func honoursDemandExactly() {
        // Requests .max(2) on subscription, then .max(1) after the second value.
        let subscriber = TrackingSubscriber<Int, Never>(
            initialDemand: .max(2),
            demandAfterValue: { $0 == 2 ? .max(1) : .none })
        (1...10).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions.isEmpty)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
    }

    @Test func finishesAsSoonAsExhausted() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func emptySequenceFinishesImmediately() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        [Int]().publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.finished)])
    }

    @Test func descriptionIsTheSequence() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: nil)
        (1...3).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("1...3")])
    }

    /// Apple's shows what is left to deliver only while there is something: once finished or
    /// cancelled the subscription describes itself as `Sequence`.
    @Test func descriptionBecomesSequenceOnceFinishedOrCancelled() throws {
        let finishing = TrackingSubscriber<Int, Never>(initialDemand: .unlimited)
        [1, 2].publisher.subscribe(finishing)
        #expect(String(describing: try #require(finishing.subscription)) == "Sequence")

        let cancelling = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2].publisher.subscribe(cancelling)
        let subscription = try #require(cancelling.subscription)
        #expect(String(describing: subscription) == "[1, 2]")
        subscription.cancel()
        #expect(String(describing: subscription) == "Sequence")
    }

    /// Spec §28, §30: `dump` shows the subscription's one child, `sequence`, and nothing of how
    /// the subscription is laid out; once finished, the sequence is empty.
    @Test func dumpShowsOnlyTheSequence() throws {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        var text = ""
        dump(subscription, to: &text)
        #expect(text == """
            ▿ [1, 2, 3] #0
              ▿ sequence: 3 elements
                - 1
                - 2
                - 3

            """)
        subscription.request(.unlimited)
        #expect(subscriber.completions == [.finished])
        text = ""
        dump(subscription, to: &text)
        #expect(text == """
            ▿ Sequence #0
              - sequence: 0 elements

            """)
    }

    @Test func reentrantRequestIsNotNested() {
        var depth = 0
        var maxDepth = 0
        var subscription: (any Subscription)?
        var values: [Int] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription = $0; $0.request(.max(1)) },
            receiveValue: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                values.append(value)
                subscription?.request(.max(1))
                depth -= 1
                return .none
            })
        (1...5).publisher.subscribe(subscriber)
        #expect(values == [1, 2, 3, 4, 5])
        #expect(maxDepth == 1)
    }

    @Test func cancelStopsDelivery() {
        var subscription: (any Subscription)?
        var values: [Int] = []
        var completed = false
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription = $0; $0.request(.unlimited) },
            receiveValue: { value in
                values.append(value)
                if value == 2 { subscription?.cancel() }
                return .none
            },
            receiveCompletion: { _ in completed = true })
        (1...5).publisher.subscribe(subscriber)
        #expect(values == [1, 2])
        #expect(!completed)
    }

    @Test func optionalElementsAreValues() {
        var values: [Int?] = []
        _ = [1, nil, 3].publisher.sink { values.append($0) }
        #expect(values == [1, nil, 3])
    }

    @Test func bookExamples() {
        var output: [String] = []
        _ = ["one", "two", "red", "blue"].publisher.sink { output.append($0) }
        #expect(output == ["one", "two", "red", "blue"])
        var numbers: [Int] = []
        _ = [1, 2, 3, 4].publisher.sink { numbers.append($0) }
        #expect(numbers == [1, 2, 3, 4])
    }

    @Test func equatable() {
        #expect([1, 2].publisher == [1, 2].publisher)
        #expect(Publishers.Sequence<[Int], Never>(sequence: [1]).sequence == [1])
    }

    /// A class element, to see that the subscription lets go of the elements it holds.
    final class Token {}

    @Test func subscriptionAndElementsAreReleased() {
        weak var weakToken: Token?
        weak var weakSubscription: AnyObject?
        weak var weakSubscriber: ReleasingTestSubscriber<Token, Never>?
        do {
            // Cancelled half-way: the iterator, the looked-ahead element and the subscriber go.
            let tokens = [Token(), Token(), Token()]
            weakToken = tokens[2]
            let subscriber = ReleasingTestSubscriber<Token, Never>(initialDemand: .max(1))
            weakSubscriber = subscriber
            tokens.publisher.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            #expect(subscriber.values.count == 1)
            subscriber.cancel()
        }
        #expect(weakToken == nil)
        #expect(weakSubscription == nil)
        #expect(weakSubscriber == nil)
        do {
            // Run to the end.
            let tokens = [Token(), Token()]
            weakToken = tokens[1]
            let subscriber = ReleasingTestSubscriber<Token, Never>(initialDemand: .max(1))
            weakSubscriber = subscriber
            tokens.publisher.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.request(.max(1))
            #expect(subscriber.completions == [.finished])
        }
        #expect(weakToken == nil)
        #expect(weakSubscription == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func subscriberKeepingTheSubscriptionIsReleasedOnCancel() {
        // A subscriber that never lets go of its subscription: cancelling still breaks the cycle.
        weak var weakSubscriber: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
            weakSubscriber = subscriber
            (1...10).publisher.subscribe(subscriber)
            #expect(subscriber.values == [1, 2])
            subscriber.cancel()
            subscriber.request(.max(1))  // after cancel: nothing
            #expect(subscriber.values == [1, 2])
            #expect(subscriber.completions.isEmpty)
        }
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentRequestsAndCancelKeepDeliverySerialAndBounded() {
        for round in 0..<100 {
            let subscriber = SerializationCheckingSubscriber<Int, Never>(initialDemand: .none)
            (0..<1000).publisher.subscribe(subscriber)
            // The subscription is thread-safe; the box only tells the compiler so.
            let subscription = UncheckedBox(subscriber.subscription)
            onThreadsBlocking(5) { index in
                if index < 4 {
                    for _ in 0..<50 { subscription.value?.request(.max(2)) }
                } else if round % 2 == 0 {
                    subscription.value?.cancel()
                }
            }
            let values = subscriber.values
            #expect(subscriber.overlaps == 0)
            #expect(values == Array(0..<values.count))
            if round % 2 == 1 { #expect(values.count == 400) }
            #expect(values.count <= 400)
            #expect(subscriber.completions.isEmpty)
        }
    }
}

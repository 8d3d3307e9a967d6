import Combine
import CombineTesting
import TestSupport
import Testing

/// Edge spec §21, shared by the operators that hand each delivery to their scheduler (`delay`,
/// `receive(on:)`): a value is sent, the subscriber cancels and every other reference goes; the
/// delivery already handed to the scheduler keeps the subscriber alive until it runs, and the
/// cancel only stops the delivery.
func expectScheduledDeliveryKeepsTheSubscriberUntilItRuns<P: Publisher>(
    through pipeline: (TestUpstream<Int, Never>, TestScheduler) -> P,
    sourceLocation: SourceLocation = #_sourceLocation
) where P.Output == Int, P.Failure == Never {
    let scheduler = TestScheduler()
    let upstream = TestUpstream<Int, Never>()
    weak var weakSubscriber: TrackingSubscriber<Int, Never>?
    do {
        let subscriber = TrackingSubscriber<Int, Never>()
        weakSubscriber = subscriber
        pipeline(upstream, scheduler).subscribe(subscriber)
        upstream.send(42)
        subscriber.cancel()
        #expect(subscriber.values.isEmpty, sourceLocation: sourceLocation)
    }
    #expect(weakSubscriber != nil, "released before the scheduled delivery ran", sourceLocation: sourceLocation)
    scheduler.run()
    #expect(weakSubscriber == nil, "still alive after the scheduled delivery ran", sourceLocation: sourceLocation)
}

import Combine
import Foundation
import TestSupport
import Testing

extension Notification.Name {
    fileprivate static let yourNotification = Notification.Name("your-notification")
}

@Suite("NotificationCenter.Publisher")
struct NotificationCenterPublisherTests {
    final class Sender {}

    @Test func publishesPostedNotificationsWhileSubscribed() {
        let center = NotificationCenter()
        let subscriber = TrackingSubscriber<Notification, Never>()
        center.publisher(for: .yourNotification, object: nil).subscribe(subscriber)
        center.post(name: .yourNotification, object: nil)
        center.post(name: Notification.Name("other"), object: nil)
        center.post(name: .yourNotification, object: nil, userInfo: ["k": 1])
        #expect(subscriber.values.map(\.name) == [.yourNotification, .yourNotification])
        subscriber.cancel()
        center.post(name: .yourNotification, object: nil)
        #expect(subscriber.values.count == 2)
    }

    @Test func filtersBySenderIdentityAndHonoursDemand() {
        let center = NotificationCenter()
        let sender = Sender()
        let subscriber = TrackingSubscriber<Notification, Never>(initialDemand: .max(1))
        center.publisher(for: .yourNotification, object: sender).subscribe(subscriber)
        center.post(name: .yourNotification, object: Sender())
        center.post(name: .yourNotification, object: sender)
        center.post(name: .yourNotification, object: sender)  // no demand left: dropped
        #expect(subscriber.values.count == 1)
        #expect(subscriber.values.first?.object as? Sender === sender)
        #expect(subscriber.events.first == .subscription("NotificationCenter Observer"))
    }

    @Test func bookExampleObjectCarriesThePayload() {
        // Mastering iOS 14 ch. 13: post(name: "networkResult", object: response) and map
        // `$0.object`.
        let center = NotificationCenter()
        var results: [String] = []
        let cancellable = center.publisher(for: Notification.Name("networkResult"))
            .sink { results.append(($0.object as? NSString).map { String($0) } ?? "nil") }
        center.post(name: Notification.Name("networkResult"), object: NSString(string: "response"))
        #expect(results == ["response"])
        cancellable.cancel()
    }

    @Test func equatable() {
        let center = NotificationCenter()
        let sender = Sender()
        #expect(center.publisher(for: .yourNotification) == NotificationCenter.Publisher(center: center, name: .yourNotification))
        #expect(center.publisher(for: .yourNotification, object: sender) != center.publisher(for: .yourNotification))
    }
}

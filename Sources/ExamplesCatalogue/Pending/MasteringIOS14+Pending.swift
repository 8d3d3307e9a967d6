import Combine
import Foundation

// Examples of this group whose operators have not landed in Combine yet.

extension Catalogue {
    static var masteringIOS14Pending: [Example] { [

        Example(
            "notification-catch",
            title: "decode and catch",
            source: "Mastering iOS 14, sample app 2, catch at the top level"
        ) { io in
            let center = NotificationCenter()
            let name = Notification.Name("networkResult")
            center.publisher(for: name)
                .map { notification in return notification.object as! Data }
                .decode(type: User.self, decoder: JSONDecoder())
                .catch { _ in return Just(User.unknown) }
                .sink { item in io.print(item) }
                .store(in: &io.subscriptions)

            User.postNotification(to: center)
            User.postNotificationThatFails(to: center)
            User.postNotification(to: center)
        },

        Example(
            "notification-flat-map",
            title: "flatMap and catch",
            source: "Mastering iOS 14, sample app 2, final version"
        ) { io in
            let center = NotificationCenter()
            let publisher = center.publisher(for: Notification.Name("networkResult"))
                .map { notification in return notification.object as! Data }
                .flatMap { data in
                    return Just(data)
                        .decode(type: User.self, decoder: JSONDecoder())
                        .catch { _ in return Just(User.unknown) }
                }

            publisher
                .sink { item in io.print(item) }
                .store(in: &io.subscriptions)

            User.postNotification(to: center)
            User.postNotificationThatFails(to: center)
            User.postNotification(to: center)
        },
    ] }
}

import Combine
import Foundation

// Examples of this group whose operators have not landed in Combine yet.

extension Catalogue {
    static var masteringIOS14Pending: [Example] { [

        Example("combine-latest", title: "combineLatest", source: "Mastering iOS 14, combining publishers") { io in
            let chars = PassthroughSubject<String, Never>()
            let numbers = PassthroughSubject<Int, Never>()
            chars.combineLatest(numbers)
                .sink { io.print("Result: \($0).") }
                .store(in: &io.subscriptions)
            chars.send("a")
            numbers.send(1)
            numbers.send(2)
            chars.send("b")
            chars.send("c")
            chars.send("d")
            numbers.send(3)
            numbers.send(10)
        },

        Example("zip", title: "zip", source: "Mastering iOS 14, combining publishers") { io in
            let chars = PassthroughSubject<String, Never>()
            let numbers = PassthroughSubject<Int, Never>()
            chars.zip(numbers)
                .sink { io.print("Result: \($0).") }
                .store(in: &io.subscriptions)
            chars.send("a")
            numbers.send(1)
            numbers.send(2)
            chars.send("b")
            chars.send("c")
            chars.send("d")
            numbers.send(3)
            numbers.send(10)
        },

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

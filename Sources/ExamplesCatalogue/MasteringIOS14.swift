import Combine
import Foundation

// "Mastering iOS 14 Programming", chapter 13. The code blocks of the edition we follow did not
// survive; these playground snippets are reconstructed from its prose (playground basics,
// combining publishers, subjects), and the sample apps' pipelines follow the book's repository.

extension Catalogue {
    static var masteringIOS14: [Example] { [
        Example("sequence-sink", title: "sink", source: "Mastering iOS 14, playground basics", book: .notPrinted, operators: ["sink", "publisher"]) { io in
            [1, 2, 3, 4].publisher
                .sink { io.print($0) }
                .store(in: &io.subscriptions)
        },

        Example("filter", title: "filter", source: "Mastering iOS 14, playground basics", book: .notPrinted, operators: ["filter"]) { io in
            [1, 2, 3, 4].publisher
                .filter { $0 % 2 == 0 }
                .sink { io.print($0) }
                .store(in: &io.subscriptions)
        },

        Example("map-user", title: "map", source: "Mastering iOS 14, operators: map", book: .notPrinted, operators: ["map"]) { io in
            // Reconstructed: the book's User type is only described ("we can call these users'
            // description() method"); this one says which id it carries.
            struct User {
                let id: Int

                func description() -> String {
                    return "User with id: \(id)"
                }
            }

            [1, 2, 3, 4].publisher
                .map { User(id: $0) }
                .sink { user in io.print(user.description()) }
                .store(in: &io.subscriptions)
        },

        Example("reduce", title: "reduce", source: "Mastering iOS 14, playground basics", book: .notPrinted, operators: ["reduce"]) { io in
            [1, 2, 3, 4].publisher
                .reduce(1, { $0 * $1 })
                .sink { io.print($0) }
                .store(in: &io.subscriptions)
        },

        Example("scan-product", title: "scan", source: "Mastering iOS 14, playground basics", book: .notPrinted, operators: ["scan"]) { io in
            [1, 2, 3, 4].publisher
                .scan(1, { $0 * $1 })
                .sink { io.print($0) }
                .store(in: &io.subscriptions)
        },

        Example("passthrough-subject", title: "PassthroughSubject", source: "Mastering iOS 14, subjects", book: .notPrinted, operators: ["PassthroughSubject", "send"]) { io in
            let subject = PassthroughSubject<String, Never>()
            subject.send("first value")
            subject
                .sink { io.print("Result: \($0)") }
                .store(in: &io.subscriptions)
            subject.send("second value")
        },

        Example("current-value-subject", title: "CurrentValueSubject", source: "Mastering iOS 14, subjects", book: .notPrinted, operators: ["CurrentValueSubject", "send"]) { io in
            let subject = CurrentValueSubject<String, Never>("first value")
            subject
                .sink { io.print("Result: \($0)") }
                .store(in: &io.subscriptions)
            subject.send("second value")
        },

        Example("combine-latest", title: "combineLatest", source: "Mastering iOS 14, combining publishers", book: .notPrinted, operators: ["combineLatest"], drawsMarbles: true) { io in
            let chars = PassthroughSubject<String, Never>()
            let numbers = PassthroughSubject<Int, Never>()
            chars.drawn("chars", on: io).combineLatest(numbers.drawn("numbers", on: io))
                .drawn("output", on: io, isOutput: true)
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

        Example("merge", title: "merge", source: "Mastering iOS 14, combining publishers: merge", book: .notPrinted, operators: ["merge"], drawsMarbles: true) { io in
            // Reconstructed: merge needs inputs of one type, so two Int subjects (odd and even
            // numbers) stand in for the book's; the output is one value at a time, in send order.
            let oddNumbers = PassthroughSubject<Int, Never>()
            let evenNumbers = PassthroughSubject<Int, Never>()
            oddNumbers.drawn("oddNumbers", on: io).merge(with: evenNumbers.drawn("evenNumbers", on: io))
                .drawn("output", on: io, isOutput: true)
                .sink { io.print("Result: \($0).") }
                .store(in: &io.subscriptions)
            oddNumbers.send(1)
            evenNumbers.send(2)
            oddNumbers.send(3)
            evenNumbers.send(4)
            evenNumbers.send(6)
            oddNumbers.send(5)
        },

        Example("zip", title: "zip", source: "Mastering iOS 14, combining publishers", book: .notPrinted, operators: ["zip"], drawsMarbles: true) { io in
            let chars = PassthroughSubject<String, Never>()
            let numbers = PassthroughSubject<Int, Never>()
            chars.drawn("chars", on: io).zip(numbers.drawn("numbers", on: io))
                .drawn("output", on: io, isOutput: true)
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
            "signup-validated-email",
            title: "validatedEmail",
            source: "Mastering iOS 14, sample app 1, validating the email fields",
            book: .notPrinted,
            operators: ["CombineLatest", "combineLatest", "Published", "eraseToAnyPublisher"]
        ) { io in
            let model = SignUpModel(scheduler: ImmediateScheduler.shared)
            // The book's interim debug sink, printing the email or nil as the fields change.
            model.validatedEmail
                .sink { io.print($0 as Any) }
                .store(in: &io.subscriptions)
            model.initialEmail = "abc@email.com"
            model.repeatedEmail = "abc"
            model.repeatedEmail = "abc@email.com"
            model.initialEmail = "abc"
            model.repeatedEmail = "abc"
        },

        Example(
            "signup-button",
            title: "sign-up button",
            source: "Mastering iOS 14, sample app 1, enabling the sign-up button",
            book: .notPrinted,
            duration: 7,
            operators: ["debounce", "removeDuplicates", "flatMap", "Future", "CombineLatest", "receive(on:)", "assign"],
            body: SignUpForm()
        ),

        Example(
            "notification-publisher",
            title: "NotificationCenter publisher",
            source: "Mastering iOS 14, sample app 2, the bare notification publisher",
            book: .notPrinted(
                note: "The book's console (Apple's Foundation) shows the notification's name, object "
                    + "and userInfo; swift-corelibs-foundation leaves a nil userInfo out of the "
                    + "description."
            ),
            operators: ["NotificationCenter", "publisher(for:)"]
        ) { io in
            let center = NotificationCenter()
            let publisher = center.publisher(for: Notification.Name("networkResult"))
            publisher
                .sink { item in io.print(item) }
                .store(in: &io.subscriptions)
            User.postNotification(to: center)
        },

        Example(
            "notification-map-data",
            title: "map to Data",
            source: "Mastering iOS 14, sample app 2, mapping the notification to its data",
            book: .notPrinted,
            operators: ["NotificationCenter", "map"]
        ) { io in
            let center = NotificationCenter()
            let publisher = center.publisher(for: Notification.Name("networkResult"))
                .map { notification in return notification.object as! Data }
            publisher
                .sink { item in io.print(item) }
                .store(in: &io.subscriptions)
            User.postNotification(to: center)
        },

        Example(
            "notification-catch",
            title: "decode and catch",
            source: "Mastering iOS 14, sample app 2, catch at the top level",
            book: .notPrinted,
            operators: ["NotificationCenter", "decode", "catch", "Just"]
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
            source: "Mastering iOS 14, sample app 2, final version",
            book: .notPrinted,
            operators: ["NotificationCenter", "flatMap", "decode", "catch"]
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

/// The sample app's model and its two notification posters (a valid payload, and three bytes
/// that fail to decode). The app posts to `NotificationCenter.default`; the example uses a center
/// of its own so runs do not see each other's notifications.
struct User: Codable {
    let id: String

    static var unknown: User {
        return User(id: "-1")
    }

    static func postNotification(to center: NotificationCenter) {
        let networkResponse = try! JSONEncoder().encode(User(id: "123"))
        center.post(name: Notification.Name("networkResult"), object: networkResponse)
    }

    static func postNotificationThatFails(to center: NotificationCenter) {
        let networkResponse = Data(base64Encoded: "abcd")!
        center.post(name: Notification.Name("networkResult"), object: networkResponse)
    }
}

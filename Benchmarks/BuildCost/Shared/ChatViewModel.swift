#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
#else
import Combine
#endif
import Foundation

struct Message: Codable, Equatable {
    let id: Int
    let sender: String
    let text: String
}

/// A chat room: messages sent and received, a typing indicator, read receipts and presence.
final class ChatViewModel: ObservableObject {
    @Published var draft = ""
    @Published private(set) var messages: [Message] = []
    @Published private(set) var isTyping = false
    @Published private(set) var unread = 0
    @Published private(set) var lastDelivery = ""
    @Published private(set) var readReceipts: [Int] = []
    @Published private(set) var presence = "online"
    @Published private(set) var heartbeats = 0

    private let outgoing = PassthroughSubject<String, Never>()
    private var cancellables = Set<AnyCancellable>()

    init(scheduler: UIScheduler = mainScheduler, center: NotificationCenter = .default) {
        let delivered = outgoing
            .removeDuplicates()
            .map { text in Self.deliver(text, on: scheduler) }
            .switchToLatest()
            .share()
        delivered
            .scan([Message]()) { messages, message in messages + [message] }
            .prepend([Message(id: 0, sender: "system", text: "Welcome")])
            .append([])
            .assign(to: &$messages)

        $draft
            .map { !$0.isEmpty }
            .debounce(for: .seconds(1), scheduler: scheduler)
            .removeDuplicates()
            .assign(to: &$isTyping)

        Publishers.Zip3(outgoing, delivered, $isTyping)
            .map { text, message, _ in "\(message.id): \(text)" }
            .assign(to: &$lastDelivery)

        delivered
            .throttle(for: .milliseconds(800), scheduler: scheduler, latest: true)
            .flatMap(maxPublishers: .max(3)) { message in Self.markRead(message, on: scheduler) }
            .zip(delivered.map(\.id))
            .map { _, id in id }
            .collect(2)
            .sink { [weak self] ids in self?.readReceipts.append(contentsOf: ids) }
            .store(in: &cancellables)

        delivered.scan(0) { count, _ in count + 1 }.assign(to: &$unread)

        Timer.publish(every: 15, on: .main, in: .common)
            .autoconnect()
            .sink { [weak self] _ in self?.heartbeats += 1 }
            .store(in: &cancellables)

        center.publisher(for: Notification.Name("PresenceChanged"))
            .compactMap { $0.userInfo?["status"] as? String }
            .assign(to: &$presence)
    }

    func sendDraft() {
        outgoing.send(draft)
        draft = ""
    }

    private static func deliver(_ text: String, on scheduler: UIScheduler) -> AnyPublisher<Message, Never> {
        Future<Data, RequestError> { promise in
            promise(.success(Data(#"{"id": \#(text.count), "sender": "me", "text": "\#(text)"}"#.utf8)))
        }
        .delay(for: .milliseconds(30), scheduler: scheduler)
        .retry(3)
        .decode(type: Message.self, decoder: JSONDecoder())
        .replaceError(with: Message(id: -1, sender: "me", text: text))
        .eraseToAnyPublisher()
    }

    private static func markRead(_ message: Message, on scheduler: UIScheduler) -> AnyPublisher<Bool, Never> {
        Just(true).delay(for: .milliseconds(5), scheduler: scheduler).eraseToAnyPublisher()
    }
}

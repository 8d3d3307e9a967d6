#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
#else
import Combine
#endif
import Foundation

struct CartItem: Codable, Equatable {
    let sku: String
    let price: Int
    let quantity: Int
}

struct Quote: Decodable, Equatable {
    let discount: Int
    let shipping: Int
}

/// A checkout screen: the cart's total, a coupon checked with the server, and a session timeout.
final class CheckoutViewModel: ObservableObject {
    @Published private(set) var items: [CartItem] = []
    @Published var couponCode = ""
    @Published var expressShipping = false
    @Published private(set) var quote = Quote(discount: 0, shipping: 0)
    @Published private(set) var total = 0
    @Published private(set) var canPay = false
    @Published private(set) var receipt = ""
    @Published private(set) var itemsAdded = 0
    @Published private(set) var secondsLeft = 600

    private let added = PassthroughSubject<CartItem, Never>()
    private var cancellables = Set<AnyCancellable>()

    init(scheduler: UIScheduler = mainScheduler, center: NotificationCenter = .default) {
        let quotes = $couponCode
            .debounce(for: .milliseconds(400), scheduler: scheduler)
            .removeDuplicates()
            .map { code in Self.requestQuote(code, on: scheduler) }
            .switchToLatest()
            .share()
        quotes.assign(to: &$quote)

        Publishers.Zip3($items, quotes, $expressShipping)
            .map { items, quote, express in
                items.reduce(0) { $0 + $1.price * $1.quantity } - quote.discount + quote.shipping * (express ? 3 : 1)
            }
            .assign(to: &$total)

        $total
            .throttle(for: .milliseconds(250), scheduler: scheduler, latest: true)
            .map { $0 > 0 }
            .removeDuplicates()
            .assign(to: &$canPay)

        added
            .flatMap(maxPublishers: .max(1)) { item in Self.reserve(item, on: scheduler) }
            .scan([CartItem]()) { items, item in items + [item] }
            .assign(to: &$items)

        added
            .map(\.sku)
            .zip(quotes.map(\.discount))
            .map { sku, discount in "\(sku) -\(discount)" }
            .collect(2)
            .prepend(["receipt"])
            .append(["thank you"])
            .map { $0.joined(separator: ", ") }
            .assign(to: &$receipt)

        added.scan(0) { count, _ in count + 1 }.assign(to: &$itemsAdded)

        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .scan(600) { left, _ in max(left - 1, 0) }
            .assign(to: &$secondsLeft)

        center.publisher(for: Notification.Name("CartCleared"))
            .sink { [weak self] _ in self?.items = [] }
            .store(in: &cancellables)
    }

    func add(_ item: CartItem) {
        added.send(item)
    }

    private static func requestQuote(_ code: String, on scheduler: UIScheduler) -> AnyPublisher<Quote, Never> {
        Future<Data, RequestError> { promise in
            promise(.success(Data(#"{"discount": \#(code.count), "shipping": 5}"#.utf8)))
        }
        .delay(for: .milliseconds(40), scheduler: scheduler)
        .retry(1)
        .decode(type: Quote.self, decoder: JSONDecoder())
        .replaceError(with: Quote(discount: 0, shipping: 5))
        .eraseToAnyPublisher()
    }

    private static func reserve(_ item: CartItem, on scheduler: UIScheduler) -> AnyPublisher<CartItem, Never> {
        Just(item).delay(for: .milliseconds(10), scheduler: scheduler).eraseToAnyPublisher()
    }
}

#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
#else
import Combine
#endif
import Foundation

struct Availability: Decodable, Equatable {
    let name: String
    let available: Bool
}

/// A profile form: the name checked for availability as it is typed, the e-mail validated, and
/// changes saved in the background.
final class SettingsViewModel: ObservableObject {
    @Published var displayName = ""
    @Published var email = ""
    @Published var notificationsOn = true
    @Published private(set) var nameAvailable = false
    @Published private(set) var emailValid = false
    @Published private(set) var canSave = false
    @Published private(set) var savedVersions = 0
    @Published private(set) var changeLog: [String] = []
    @Published private(set) var idleSeconds = 0.0

    private var cancellables = Set<AnyCancellable>()

    init(scheduler: UIScheduler = mainScheduler, center: NotificationCenter = .default) {
        let availability = $displayName
            .debounce(for: .milliseconds(350), scheduler: scheduler)
            .removeDuplicates()
            .map { name in Self.checkName(name, on: scheduler) }
            .switchToLatest()
            .share()
        availability.map(\.available).assign(to: &$nameAvailable)

        $email
            .map { $0.contains("@") && $0.contains(".") }
            .removeDuplicates()
            .assign(to: &$emailValid)

        Publishers.Zip3(availability, $emailValid, $notificationsOn)
            .map { name, emailValid, _ in name.available && emailValid }
            .prepend(false)
            .assign(to: &$canSave)

        $displayName
            .throttle(for: .seconds(2), scheduler: scheduler, latest: true)
            .flatMap(maxPublishers: .max(1)) { name in Self.save(name, on: scheduler) }
            .scan(0) { versions, _ in versions + 1 }
            .assign(to: &$savedVersions)

        $displayName
            .zip($email)
            .map { "\($0) <\($1)>" }
            .collect(5)
            .append(["closed"])
            .sink { [weak self] entries in self?.changeLog.append(contentsOf: entries) }
            .store(in: &cancellables)

        Timer.publish(every: 5, on: .main, in: .common)
            .autoconnect()
            .map { _ in 5.0 }
            .scan(0, +)
            .assign(to: &$idleSeconds)

        center.publisher(for: Notification.Name("UserSignedOut"))
            .sink { [weak self] _ in
                self?.displayName = ""
                self?.email = ""
            }
            .store(in: &cancellables)
    }

    private static func checkName(_ name: String, on scheduler: UIScheduler) -> AnyPublisher<Availability, Never> {
        Future<Data, RequestError> { promise in
            promise(.success(Data(#"{"name": "\#(name)", "available": \#(name.count > 2)}"#.utf8)))
        }
        .delay(for: .milliseconds(25), scheduler: scheduler)
        .retry(2)
        .decode(type: Availability.self, decoder: JSONDecoder())
        .replaceError(with: Availability(name: name, available: false))
        .eraseToAnyPublisher()
    }

    private static func save(_ name: String, on scheduler: UIScheduler) -> AnyPublisher<Bool, Never> {
        Just(!name.isEmpty)
            .delay(for: .milliseconds(15), scheduler: scheduler)
            .eraseToAnyPublisher()
    }
}

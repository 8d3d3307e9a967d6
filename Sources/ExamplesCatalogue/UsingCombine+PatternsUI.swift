import Combine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// "Using Combine": the UIKit, AppKit and SwiftUI patterns, with plain model objects standing in
// for the controls. Each stand-in prints its state when it changes, the way the screen would
// show it; the view controllers' pipelines are the book's, with `RunLoop.main` and the
// background queues replaced by the example's scheduler.

/// Named after the book's sample app target (`UIKit-Combine`), so its types print with a path
/// like the book's log (`UIKit_Combine.GithubAPIUser(login: …)`).
enum UIKit_Combine {
    enum APIFailureCondition: Error {
        case invalidServerResponse
    }

    struct GithubAPIUser: Decodable {
        // A very *small* subset of the content available about
        //  a github API user for example:
        // https://api.github.com/users/heckj
        let login: String
        let public_repos: Int
        let avatar_url: String
    }

    /// The book's `GithubAPI`. Its `networkActivityPublisher` and `retrieveGithubUser` are
    /// static there; here they belong to an instance, because the requests go through the
    /// example's scheduler (and examples running side by side must not share one activity
    /// stream).
    struct GithubAPI<S: Scheduler> {
        let session: ScheduledFixtureSession<S>

        /// externally accessible publisher that indicates that network activity is happening in the API proxy
        let networkActivityPublisher = PassthroughSubject<Bool, Never>()

        /// creates a one-shot publisher that provides a GithubAPI User
        /// object as the end result: a list of one user, or an empty list for "no user".
        func retrieveGithubUser(username: String) -> AnyPublisher<[GithubAPIUser], Never> {

            if username.count < 3 {
                return Just([]).eraseToAnyPublisher()
            }
            let networkActivityPublisher = self.networkActivityPublisher
            let assembledURL = String("https://api.github.com/users/\(username)")
            let publisher = session.dataTaskPublisher(for: URL(string: assembledURL)!)
                .handleEvents(receiveSubscription: { _ in
                    networkActivityPublisher.send(true)
                }, receiveCompletion: { _ in
                    networkActivityPublisher.send(false)
                }, receiveCancel: {
                    networkActivityPublisher.send(false)
                })
                .tryMap { data, response -> Data in
                    guard let httpResponse = response as? HTTPURLResponse,
                        httpResponse.statusCode == 200 else {
                            throw APIFailureCondition.invalidServerResponse
                    }
                    return data
                }
                .decode(type: GithubAPIUser.self, decoder: JSONDecoder())
                .map {
                    [$0]
                }
                .catch { err in
                    // return an empty list as the "error output replacement"
                    return Just([])
                }
                .eraseToAnyPublisher()
                return publisher
        }
    }
}

extension Publisher {
    /// `print(_:to:)` when `condition` holds, the publisher unchanged otherwise: the search-field
    /// and cascading examples share one view controller, and only the first shows the log.
    fileprivate func print(_ prefix: String, to stream: ExampleStream, if condition: Bool) -> AnyPublisher<Output, Failure> {
        condition ? self.print(prefix, to: stream).eraseToAnyPublisher() : eraseToAnyPublisher()
    }
}

/// A label: prints its text when it changes, as the book's KVO subscriber on the label does.
final class ExampleLabel {
    let name: String
    let io: ExampleIO
    let prints: Bool
    var text = "" {
        didSet { if prints, text != oldValue { io.print("\(name) Updated to \"\(text)\"") } }
    }

    init(_ name: String, io: ExampleIO, prints: Bool = true) {
        self.name = name
        self.io = io
        self.prints = prints
    }
}

/// Stands in for `UIImage` made from downloaded bytes: describes itself by its size.
struct AvatarImage: CustomStringConvertible {
    let byteCount: Int

    /// The empty placeholder image.
    init() { byteCount = 0 }
    init?(data: Data) {
        guard !data.isEmpty else { return nil }
        byteCount = data.count
    }

    var description: String { byteCount == 0 ? "<empty image>" : "<image of \(byteCount) bytes>" }
}

/// The image view the avatar is assigned to.
final class ExampleImageView {
    let io: ExampleIO
    var image: AvatarImage? {
        didSet { io.print("githubAvatarImageView shows \(image.map(String.init(describing:)) ?? "nothing")") }
    }

    init(io: ExampleIO) { self.io = io }
}

/// The book's GitHub view controller: `username` set from the text field, `githubUserData` from
/// the API; in the cascading version, the activity indicator, the repository count label and
/// the avatar follow `githubUserData`.
final class GithubViewController<S: Scheduler> {
    typealias GithubAPIUser = UIKit_Combine.GithubAPIUser

    let io: ExampleIO
    let myBackgroundQueue: S
    let main: S
    let api: UIKit_Combine.GithubAPI<S>
    let cascading: Bool

    let repositoryCountLabel: ExampleLabel
    let githubAvatarImageView: ExampleImageView
    var isAnimating = false {
        didSet { if isAnimating != oldValue { io.print("activity indicator \(isAnimating ? "started" : "stopped")") } }
    }

    var repositoryCountSubscriber: AnyCancellable?
    var avatarViewSubscriber: AnyCancellable?
    var usernameSubscriber: AnyCancellable?
    var apiNetworkActivitySubscriber: AnyCancellable?

    // username from the github_id_entry field, updated via IBAction
    @Published var username: String = ""

    // github user retrieved from the API publisher. As it's updated, it
    // is "wired" to update UI elements
    @Published private var githubUserData: [GithubAPIUser] = []

    let debounced: Bool

    init(io: ExampleIO, scheduler: S, cascading: Bool, debounced: Bool = false) {
        self.io = io
        self.debounced = debounced
        myBackgroundQueue = scheduler
        main = scheduler
        api = UIKit_Combine.GithubAPI(session: ScheduledFixtureSession(scheduler: scheduler, latency: .milliseconds(400)))
        self.cascading = cascading
        repositoryCountLabel = ExampleLabel("repositoryCountLabel", io: io, prints: cascading)
        githubAvatarImageView = ExampleImageView(io: io)
    }

    // MARK - Actions

    func githubIdChanged(_ text: String) {
        username = text
        io.print("Set username to ", username)
    }

    func viewDidLoad() {
        let io = self.io
        if cascading {
            let apiActivitySub = api.networkActivityPublisher
            .drawn("networkActivityPublisher", on: io)
            .receive(on: main)
                .sink { doingSomethingNow in
                    if (doingSomethingNow) {
                        self.isAnimating = true
                    } else {
                        self.isAnimating = false
                    }
            }
            apiNetworkActivitySubscriber = AnyCancellable(apiActivitySub)
        }

        // The cascading example leaves out the two print operators; their log is the
        // print-debugging example's.
        let printing = !cascading
        // The debounced variant waits for typing to pause instead of sampling it.
        let username = $username.drawn("username", on: io) { "\"\($0)\"" }
        let typed = debounced
            ? username.debounce(for: .milliseconds(500), scheduler: myBackgroundQueue).eraseToAnyPublisher()
            : username.throttle(for: .milliseconds(500), scheduler: myBackgroundQueue, latest: true).eraseToAnyPublisher()
        usernameSubscriber = typed
            // ^^ scheduler myBackGroundQueue publishes resulting elements
            // into that queue, resulting on this processing moving off the
            // main runloop.
            .removeDuplicates()
            .print("username pipeline: ", to: ExampleStream(io), if: printing) // debugging output for pipeline
            .map { username -> AnyPublisher<[GithubAPIUser], Never> in
                return self.api.retrieveGithubUser(username: username)
            }
            // ^^ type returned in the pipeline is a Publisher, so we use
            // switchToLatest to flatten the values out of that
            // pipeline to return down the chain, rather than returning a
            // publisher down the pipeline.
            .switchToLatest()
            .receive(on: main)
            .drawn("githubUserData", on: io, isOutput: true) { "\($0.map(\.login))" }
            .assign(to: \.githubUserData, on: self)

        // using .assign() on the other hand (which returns an
        // AnyCancellable) *DOES* require a Failure type of <Never>
        repositoryCountSubscriber = $githubUserData
            .print("github user data: ", to: ExampleStream(io), if: printing)
            .map { userData -> String in
                if let firstUser = userData.first {
                    return String(firstUser.public_repos)
                }
                return "unknown"
            }
            .receive(on: main)
            .drawn("repositoryCountLabel", on: io, isOutput: true)
            .assign(to: \.text, on: repositoryCountLabel)

        guard cascading else { return }
        let session = api.session
        let avatarViewSub = $githubUserData
            .map { userData -> AnyPublisher<AvatarImage, Never> in
                guard let firstUser = userData.first else {
                    // my placeholder data being returned below is an empty
                    // image instance, which simply clears the display.
                    return Just(AvatarImage()).eraseToAnyPublisher()
                }
                return session.dataTaskPublisher(for: URL(string: firstUser.avatar_url)!)
                    // ^^ this hands back (Data, response) objects
                    .handleEvents(receiveSubscription: { _ in
                        self.main.schedule {
                            self.isAnimating = true
                        }
                    }, receiveCompletion: { _ in
                        self.main.schedule {
                            self.isAnimating = false
                        }
                    }, receiveCancel: {
                        self.main.schedule {
                            self.isAnimating = false
                        }
                    })
                    .receive(on: self.myBackgroundQueue)
                    // ^^ do this work on a background Queue so we don't impact
                    // UI responsiveness
                    .map { $0.data }
                    // ^^ pare down to just the Data object
                    .map { AvatarImage(data: $0)! }
                    // ^^ convert Data into an image with its initializer
                    .catch { err in
                        return Just(AvatarImage())
                    }
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .receive(on: main)
            .map { image -> AvatarImage? in
                image
            }
            .drawn("githubAvatarImageView", on: io, isOutput: true) { $0.map { "\($0)" } ?? "nil" }
            .assign(to: \.image, on: self.githubAvatarImageView)

        avatarViewSubscriber = AnyCancellable(avatarViewSub)
    }

    func tearDown() {
        repositoryCountSubscriber = nil
        avatarViewSubscriber = nil
        usernameSubscriber = nil
        apiNetworkActivitySubscriber = nil
    }
}

/// Types into ``GithubViewController``'s search field on the example's scheduler: each
/// `(milliseconds, text)` of `typing` at that time, then tears the controller down and finishes
/// at `end` milliseconds. The search-field, debounced search and cascading-updates patterns are
/// this driver with their own typing.
struct GithubTypingDemo: ScheduledExampleBody {
    var cascading = false
    var debounced = false
    /// Whether each keystroke's log starts with a blank line.
    var blankLineBeforeEach = false
    let typing: [(Int, String)]
    let end: Int

    /// Types `heckj` one letter at a time, with the pauses that give the book's log: `heck`
    /// comes while the lookup of `hec` is under way, and within the throttle's half second, so
    /// the `hec` answer still arrives before `heck` goes down the pipeline.
    static let searchField = GithubTypingDemo(
        blankLineBeforeEach: true,
        typing: [(1000, "h"), (2000, "he"), (3000, "hec"), (3300, "heck"), (5000, "heckj")],
        end: 6500)

    /// The search field with `debounce` in place of `throttle`, typed quickly (a letter every
    /// 0.2 s): nothing goes down the pipeline until typing pauses for half a second, so only
    /// `heckj` is looked up.
    static let searchDebounced = GithubTypingDemo(
        debounced: true,
        typing: ["h", "he", "hec", "heck", "heckj"].enumerated().map { (1000 + 200 * $0, $1) },
        end: 3500)

    /// Types a user name, a name too short to look up, and an unknown name: the activity
    /// indicator, the repository count and the avatar follow each answer.
    static let cascadingUpdates = GithubTypingDemo(
        cascading: true,
        typing: [(1000, "heckj"), (3000, "he"), (5000, "nobody")],
        end: 7000)

    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        let controller = GithubViewController(io: io, scheduler: scheduler, cascading: cascading, debounced: debounced)
        controller.viewDidLoad()
        for (milliseconds, text) in typing {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(milliseconds))) {
                if blankLineBeforeEach { io.print("") }
                controller.githubIdChanged(text)
            }
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(end))) {
            controller.tearDown()
            io.finish()
        }
    }
}

// MARK: - Form validation

/// The book's `FormViewController`: three text fields, two message labels, a submit button.
final class FormViewController<S: Scheduler> {
    let io: ExampleIO
    let main: S
    let value1_message_label: ExampleLabel
    let value2_message_label: ExampleLabel
    let submission_button: ExampleButton

    func value1_updated(_ text: String) {
        io.print("value1 typed: \"\(text)\"")
        value1 = text
    }
    func value2_updated(_ text: String) {
        io.print("value2 typed: \"\(text)\"")
        value2 = text
    }
    func value2_repeat_updated(_ text: String) {
        io.print("value2_repeat typed: \"\(text)\"")
        value2_repeat = text
    }

    @Published var value1: String = ""
    @Published var value2: String = ""
    @Published var value2_repeat: String = ""

    var validatedValue1: AnyPublisher<String?, Never> {
        return $value1.drawn("value1", on: io) { "\"\($0)\"" }.map { value1 in
            guard value1.count > 2 else {
                self.main.schedule {  // DispatchQueue.main.async
                    self.value1_message_label.text = "minimum of 3 characters required"
                }
                return nil
            }
            self.main.schedule {
                self.value1_message_label.text = ""
            }
            return value1
        }.eraseToAnyPublisher()
    }

    var validatedValue2: AnyPublisher<String?, Never> {
        return Publishers.CombineLatest(
            $value2.drawn("value2", on: io) { "\"\($0)\"" },
            $value2_repeat.drawn("value2_repeat", on: io) { "\"\($0)\"" }
        )
            .receive(on: main)
            .map { value2, value2_repeat in
                guard value2_repeat == value2, value2.count > 4 else {
                    self.value2_message_label.text = "values must match and have at least 5 characters"
                    return nil
                }
                self.value2_message_label.text = ""
                return value2
            }.eraseToAnyPublisher()
    }

    var readyToSubmit: AnyPublisher<(String, String)?, Never> {
        return Publishers.CombineLatest(validatedValue2, validatedValue1)
            .map { value2, value1 in
                guard let realValue2 = value2, let realValue1 = value1 else {
                    return nil
                }
                return (realValue2, realValue1)
            }
            .eraseToAnyPublisher()
    }

    var cancellableSet: Set<AnyCancellable> = []

    init(io: ExampleIO, main: S) {
        self.io = io
        self.main = main
        value1_message_label = ExampleLabel("value1_message_label", io: io)
        value2_message_label = ExampleLabel("value2_message_label", io: io)
        submission_button = ExampleButton("submission_button", io: io)
    }

    func viewDidLoad() {
        self.readyToSubmit
            .map { $0 != nil }
            .receive(on: main)
            .drawn("submission_button.isEnabled", on: io, isOutput: true)
            .assign(to: \.isEnabled, on: submission_button)
            .store(in: &cancellableSet)
    }
}

/// Fills in the form one field at a time, a second apart.
struct FormValidationDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        let form = FormViewController(io: io, main: scheduler)
        form.viewDidLoad()
        let steps: [(FormViewController<S>) -> Void] = [
            { $0.value1_updated("ab") },
            { $0.value1_updated("abc") },
            { $0.value2_updated("secret") },
            { $0.value2_repeat_updated("secre") },
            { $0.value2_repeat_updated("secret") },
            { $0.value1_updated("ab") },
        ]
        for (index, step) in steps.enumerated() {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(index + 1))) { step(form) }
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(steps.count + 1))) {
            form.cancellableSet.removeAll()
            io.finish()
        }
    }
}

// MARK: - Delegate proxy

/// A heading, as `CLHeading` reports it.
struct Heading: CustomStringConvertible {
    let trueHeading: Double
    var description: String { "Heading(trueHeading: \(trueHeading))" }
}

/// The errors the fake sensor reports (named after CoreLocation's).
enum FakeCLError: Error {
    case headingFailure
}

/// The delegate protocol of the fake sensor, shaped like `CLLocationManagerDelegate`.
protocol HeadingSensorDelegate: AnyObject {
    func headingSensor(didUpdateHeading newHeading: Heading)
    func headingSensor(didFailWithError error: Error)
}

/// Stands in for `CLLocationManager` (CoreLocation is Apple-only): once started it reports a
/// heading every second, turning ten degrees each time; it fails when the compass is disturbed.
final class FakeHeadingSensor<S: Scheduler> {
    enum AuthorizationStatus { case notDetermined, authorizedWhenInUse }

    weak var delegate: HeadingSensorDelegate?
    private(set) var authorizationStatus = AuthorizationStatus.notDetermined
    private let scheduler: S
    private var updates: Cancellable?
    private var heading = 0.0

    init(scheduler: S) { self.scheduler = scheduler }

    func requestWhenInUseAuthorization() {
        // the user answers "Allow While Using App" a moment later
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            self.authorizationStatus = .authorizedWhenInUse
        }
    }

    func startUpdatingHeading() {
        updates = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            self.heading += 10
            self.delegate?.headingSensor(didUpdateHeading: Heading(trueHeading: self.heading))
        }
    }

    func stopUpdatingHeading() {
        updates?.cancel()
        updates = nil
    }

    /// Simulates magnetic interference: the sensor stops and reports an error.
    func disturb() {
        stopUpdatingHeading()
        delegate?.headingSensor(didFailWithError: FakeCLError.headingFailure)
    }
}

/// The book's `LocationHeadingProxy`: a delegate turned into a publisher through a private
/// PassthroughSubject.
final class LocationHeadingProxy<S: Scheduler>: HeadingSensorDelegate {
    let mgr: FakeHeadingSensor<S>
    private let headingPublisher: PassthroughSubject<Heading, Error>
    var publisher: AnyPublisher<Heading, Error>

    init(scheduler: S) {
        mgr = FakeHeadingSensor(scheduler: scheduler)
        headingPublisher = PassthroughSubject<Heading, Error>()
        publisher = headingPublisher.eraseToAnyPublisher()
        mgr.delegate = self
    }

    func enable() {
        mgr.startUpdatingHeading()
    }

    func disable() {
        mgr.stopUpdatingHeading()
    }

    // MARK - delegate methods

    func headingSensor(didUpdateHeading newHeading: Heading) {
        headingPublisher.send(newHeading)
    }

    func headingSensor(didFailWithError error: Error) {
        headingPublisher.send(completion: Subscribers.Completion.failure(error))
    }
}

/// The book's `HeadingViewController`: a permission request, a tracking switch, a heading label.
struct DelegateProxyDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let scheduler = context.scheduler
        let headingBackgroundQueue = scheduler
        let coreLocationProxy = LocationHeadingProxy(scheduler: scheduler)
        let headingLabel = ExampleLabel("headingLabel", io: io)
        let locationPermissionLabel = ExampleLabel("locationPermissionLabel", io: io)

        func updatePermissionStatus() {
            switch coreLocationProxy.mgr.authorizationStatus {
            case .authorizedWhenInUse:
                locationPermissionLabel.text = "Allowed when in use"
            case .notDetermined:
                locationPermissionLabel.text = "notDetermined"
            }
        }

        func requestPermission() {
            io.print("requesting corelocation permission")
            // The book writes `let _ =`, which cancels the sink at once, so the label would never
            // be updated; the subscription is kept here.
            Future<Int, Never> { promise in
                coreLocationProxy.mgr.requestWhenInUseAuthorization()
                return promise(.success(1))
            }
            .delay(for: .seconds(2), scheduler: headingBackgroundQueue)
            .receive(on: scheduler)  // RunLoop.main
            .drawn("permission answered", on: io, isOutput: true)
            .sink { _ in
                io.print("updating corelocation permission label")
                updatePermissionStatus()
            }
            .store(in: &io.subscriptions)
        }

        func trackingToggled(isOn: Bool) {
            switch isOn {
            case true:
                coreLocationProxy.enable()
                io.print("Enabling heading tracking")
            case false:
                coreLocationProxy.disable()
                io.print("Disabling heading tracking")
            }
        }

        // viewDidLoad
        updatePermissionStatus()
        let corelocationsub = coreLocationProxy
            .publisher
            .drawn("heading", on: io) { "\($0.trueHeading)" }
            .print("headingSubscriber", to: ExampleStream(io))
            .receive(on: scheduler)
            .drawn("headingLabel", on: io, isOutput: true) { "\($0.trueHeading)" }
            .sink(receiveCompletion: { _ in
                io.finish()
            }, receiveValue: { someValue in
                headingLabel.text = String(someValue.trueHeading)
            })
        let headingSubscriber = AnyCancellable(corelocationsub)
        io.whenFinished { headingSubscriber.cancel() }

        let script: [(Double, () -> Void)] = [
            (0.5, requestPermission),
            (3.5, { trackingToggled(isOn: true) }),
            (6.5, { trackingToggled(isOn: false) }),
            (8.5, { trackingToggled(isOn: true) }),
            (10.2, { io.print("(the compass is disturbed)"); coreLocationProxy.mgr.disturb() }),
        ]
        for (seconds, action) in script {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(seconds)), action)
        }
    }
}

// MARK: - ReactiveFormModel

/// The book's SwiftUI model, unchanged: it only needs Combine.
class ReactiveFormModel : ObservableObject {

    @Published var firstEntry: String = "" {
        didSet {
            firstEntryPublisher.send(self.firstEntry)
        }
    }
    private let firstEntryPublisher = CurrentValueSubject<String, Never>("")

    @Published var secondEntry: String = "" {
        didSet {
            secondEntryPublisher.send(self.secondEntry)
        }
    }
    private let secondEntryPublisher = CurrentValueSubject<String, Never>("")

    @Published var validationMessages = [String]()
    private var cancellableSet: Set<AnyCancellable> = []

    var submitAllowed: AnyPublisher<Bool, Never>

    init() {

        let validationPipeline = Publishers.CombineLatest(firstEntryPublisher, secondEntryPublisher)
            .map { (arg) -> [String] in
                var diagMsgs = [String]()
                let (value, value_repeat) = arg
                if !(value_repeat == value) {
                    diagMsgs.append("Values for fields must match.")
                }
                if (value.count < 5 || value_repeat.count < 5) {
                    diagMsgs.append("Please enter values of at least 5 characters.")
                }
                return diagMsgs
            }

        submitAllowed = validationPipeline
            .map { stringArray in
                return stringArray.count < 1
            }
            .eraseToAnyPublisher()

        // `assign(to:on: self)` keeps the model alive as long as the subscription: the model
        // retains itself (the book does not mention it; `assign(to: &$validationMessages)` avoids it).
        let _ = validationPipeline
            .assign(to: \.validationMessages, on: self)
            .store(in: &cancellableSet)
    }

    /// Breaks the model's reference to itself (see `init`).
    func tearDown() { cancellableSet.removeAll() }
}

extension Catalogue {
    static var usingCombineUIPatterns: [Example] { [
        Example(
            "search-field",
            title: "declarative UI updates from user input",
            source: "Using Combine, pattern: declarative UI updates from user input; debugging pipelines with print",
            book: .differs(
                "Apple's Combine today names the @Published subscription PublishedSubject; the "
                    + "book's logs, recorded on an earlier release, show CurrentValueSubject. The "
                    + "GitHub users print with this package's module path "
                    + "(ExamplesCatalogue.UIKit_Combine) where the book's app module is UIKit_Combine; "
                    + "the book's console has one more blank line, after the answer for hec; and the "
                    + "example ends by releasing its view controller, which logs the last two receive "
                    + "cancel lines."
            ),
            duration: 7,
            body: GithubTypingDemo.searchField
        ),

        Example(
            "search-debounce",
            title: "declarative UI updates from user input, debounced",
            source: "Using Combine, pattern: declarative UI updates from user input (with debounce)",
            book: .notPrinted,
            duration: 4,
            body: GithubTypingDemo.searchDebounced
        ),

        Example(
            "cascading-updates",
            title: "cascading UI updates including a network request",
            source: "Using Combine, pattern: cascading UI updates including a network request",
            book: .notPrinted,
            duration: 7,
            body: GithubTypingDemo.cascadingUpdates
        ),

        Example(
            "form-validation",
            title: "merging multiple pipelines to update UI elements",
            source: "Using Combine, pattern: merging multiple pipelines to update UI elements",
            book: .notPrinted,
            duration: 7,
            body: FormValidationDemo()
        ),

        Example(
            "delegate-proxy",
            title: "creating a repeating publisher by wrapping a delegate based API",
            source: "Using Combine, pattern: creating a repeating publisher by wrapping a delegate based API",
            book: .notPrinted,
            duration: 11,
            body: DelegateProxyDemo()
        ),

        Example(
            "notification-custom",
            title: "responding to updates from NotificationCenter",
            source: "Using Combine, pattern: responding to updates from NotificationCenter",
            book: .notPrinted
        ) { io in
            // The book posts to NotificationCenter.default; a center of its own keeps this
            // example from hearing other examples running at the same time.
            let center = NotificationCenter()
            let myExampleNotification = Notification.Name("an-example-notification")

            let cancellable = center.publisher(for: myExampleNotification, object: nil)
                // can't use the object parameter to filter on a value reference, only class references, but
                // filtering on 'nil' only constrains to notification name, so value objects *can* be passed
                // in the notification itself.
                .sink { receivedNotification in
                    io.print("passed through: ", receivedNotification)
                }

            let myUserInfo = ["foo": "bar"]

            let note = Notification(name: myExampleNotification, userInfo: myUserInfo)
            center.post(note)
            center.post(name: myExampleNotification, object: "a value object")
            cancellable.cancel()
        },

        Example(
            "notification-filter",
            title: "NotificationCenter filtered by object",
            source: "Using Combine, pattern: responding to updates from NotificationCenter (AppKit text field)",
            book: .notPrinted
        ) { io in
            // AppKit is Apple-only: a text field class posts the same notification name.
            final class TextField {
                static let textDidChangeNotification = Notification.Name("NSControlTextDidChangeNotification")
                let center: NotificationCenter
                var stringValue = "" {
                    didSet { center.post(name: Self.textDidChangeNotification, object: self) }
                }
                init(center: NotificationCenter) { self.center = center }
            }
            final class MyViewModel {
                let io: ExampleIO
                init(io: ExampleIO) { self.io = io }
                var filterString = "" { didSet { io.print("filterString = \"\(filterString)\"") } }
            }
            let center = NotificationCenter()
            let filterField = TextField(center: center)
            let otherField = TextField(center: center)
            let myViewModel = MyViewModel(io: io)

            let sub = center.publisher(for: TextField.textDidChangeNotification,
                                       object: filterField)
                .map { ($0.object as! TextField).stringValue }
                .assign(to: \MyViewModel.filterString, on: myViewModel)

            filterField.stringValue = "com"
            otherField.stringValue = "not the filter field"
            filterField.stringValue = "combine"
            sub.cancel()
        },

        Example(
            "reactive-form",
            title: "ObservableObject as a SwiftUI model",
            source: "Using Combine, pattern: using ObservableObject with SwiftUI models as a publisher source",
            book: .notPrinted
        ) { io in
            let model = ReactiveFormModel()
            // The view: its button follows `submitAllowed` (`onReceive`), its message list follows
            // `validationMessages`, and SwiftUI redraws on `objectWillChange`.
            var buttonIsDisabled = true
            model.objectWillChange
                .sink { io.print("objectWillChange") }
                .store(in: &io.subscriptions)
            model.$validationMessages
                .sink { io.print("validationMessages: \($0)") }
                .store(in: &io.subscriptions)
            model.submitAllowed
                .sink { submitAllowed in
                    buttonIsDisabled = !submitAllowed
                    io.print("Submit button disabled: \(buttonIsDisabled)")
                }
                .store(in: &io.subscriptions)

            for (field, text) in [("firstEntry", "hello"), ("secondEntry", "hell"), ("secondEntry", "hello")] {
                io.print("\(field) = \"\(text)\"")
                if field == "firstEntry" { model.firstEntry = text } else { model.secondEntry = text }
            }
            io.whenFinished { model.tearDown() }
        },
    ] }
}

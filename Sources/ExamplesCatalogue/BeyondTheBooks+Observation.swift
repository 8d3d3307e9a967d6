import Combine
import Foundation
import Observation
import Tributary

// Beyond the books: two of their `@Published` examples rewritten for a model that uses Swift's
// Observation framework (`@Observable`), with Tributary's `publisher(for:on:)` where the books
// use `$property`. The pipelines after the first operator are the books'; the output is the
// same, which is the point: moving a model to `@Observable` keeps its Combine pipelines.
//
// The models are read on the example's scheduler, which is also where the typing happens: the
// publisher reads a property after each change, on that scheduler (see `ObservationPublisher`).

extension Catalogue {
    /// The examples that go beyond the books, in listing order.
    static let beyondTheBooksOrder: [String] = [
        "signup-button-observable", "search-debounce-observable",
    ]

    static var beyondTheBooks: [Example] {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return [] }
        return [
            Example(
                "signup-button-observable",
                title: "sign-up button, @Observable",
                source: "Beyond the books: Mastering iOS 14, sample app 1, with an @Observable model",
                book: .notPrinted,
                duration: 7,
                operators: ["Observable", "publisher(for:on:)", "debounce", "removeDuplicates", "flatMap",
                            "Future", "CombineLatest", "receive(on:)", "assign"],
                body: ObservableSignUpForm()
            ),
            Example(
                "search-debounce-observable",
                title: "declarative UI updates from user input, @Observable",
                source: "Beyond the books: Using Combine, pattern: declarative UI updates from user input (with debounce), with an @Observable model",
                book: .notPrinted,
                duration: 4,
                operators: ["Observable", "publisher(for:on:)", "debounce", "removeDuplicates", "switchToLatest",
                            "assign"],
                body: ObservableSearchDemo()
            ),
        ]
    }
}

// MARK: - Mastering iOS 14, sample app 1

/// The sign-up model of *Mastering iOS 14* ch. 13 with `@Observable` in place of `@Published`.
///
/// The book combines `$initialEmail` and `$repeatedEmail` with `CombineLatest` to validate the
/// address. Here that rule is a computed property that reads both fields, and its publisher
/// tracks both: a change of either field (or of both in one turn of the scheduler) is one new
/// validated value.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
final class ObservableSignUpModel<S: Scheduler> {
    var initialEmail = ""
    var repeatedEmail = ""

    @ObservationIgnored private let scheduler: S

    init(scheduler: S) {
        self.scheduler = scheduler
    }

    /// The address, once both fields agree and it looks like one; the book's `validatedEmail`
    /// pipeline as a property.
    var validatedEmail: String? {
        guard initialEmail == repeatedEmail, initialEmail.contains("@"), initialEmail.count > 5 else { return nil }
        return initialEmail
    }

    var isNewEmail: AnyPublisher<Bool, Never> {
        return publisher(for: \.initialEmail, on: scheduler)
            .debounce(for: .seconds(1), scheduler: scheduler)
            .removeDuplicates()
            .flatMap { email in
                return Future { promise in
                    self.emailAvailable(email) { available in
                        promise(.success(available))
                    }
                }
            }
            .eraseToAnyPublisher()
    }

    var finalEmail: AnyPublisher<String?, Never> {
        return Publishers.CombineLatest(publisher(for: \.validatedEmail, on: scheduler), isNewEmail)
            .map { (email, isNew) -> String? in
                guard isNew else { return nil }
                return email
            }
            .eraseToAnyPublisher()
    }

    /// The book's mock back end: every address is available.
    private func emailAvailable(_ email: String, completion: (Bool) -> Void) {
        completion(true)
    }
}

/// ``SignUpForm``'s typing script against the `@Observable` model: the button follows the same
/// values at the same times as with `@Published`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct ObservableSignUpForm: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let model = ObservableSignUpModel(scheduler: context.scheduler)
        SignUpForm.type(into: context, finalEmail: model.finalEmail) { field, text in
            if field == 0 { model.initialEmail = text } else { model.repeatedEmail = text }
        }
    }
}

// MARK: - Using Combine, declarative UI updates from user input

/// The search field of *Using Combine*'s GitHub view controller with an `@Observable` model:
/// `username` is typed into, `githubUserData` is what the API answered.
///
/// The answer goes back into the model with `assign(to:on:)`, which works on an `@Observable`
/// property as on any other; observers of `githubUserData` (SwiftUI views, `withObservationTracking`,
/// its publisher) see the assignment. `assign(to:on:)` keeps the model until the subscription is
/// cancelled, as Apple documents, so the demo cancels it when it ends.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
final class ObservableGithubSearch {
    var username = ""
    var githubUserData: [UIKit_Combine.GithubAPIUser] = []
}

/// Types `heckj` a letter every 0.2 s, as ``GithubTypingDemo/searchDebounced`` does for the
/// `@Published` view controller: only `heckj` is looked up.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct ObservableSearchDemo: ScheduledExampleBody {
    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let io = context.io
        let main = context.scheduler
        let api = UIKit_Combine.GithubAPI(session: ScheduledFixtureSession(scheduler: main, latency: .milliseconds(400)))
        let model = ObservableGithubSearch()

        let usernameSubscriber = model.publisher(for: \.username, on: main)
            .drawn("username", on: io) { "\"\($0)\"" }
            .debounce(for: .milliseconds(500), scheduler: main)
            .removeDuplicates()
            .print("username pipeline: ", to: ExampleStream(io))
            .map { username -> AnyPublisher<[UIKit_Combine.GithubAPIUser], Never> in
                return api.retrieveGithubUser(username: username)
            }
            .switchToLatest()
            .receive(on: main)
            .drawn("githubUserData", on: io, isOutput: true) { "\($0.map(\.login))" }
            .assign(to: \.githubUserData, on: model)

        let repositoryCountSubscriber = model.publisher(for: \.githubUserData, on: main)
            .print("github user data: ", to: ExampleStream(io))
            .map { userData -> String in
                if let firstUser = userData.first {
                    return String(firstUser.public_repos)
                }
                return "unknown"
            }
            .sink { _ in }

        for (milliseconds, text) in GithubTypingDemo.searchDebounced.typing {
            main.schedule(after: main.now.advanced(by: .milliseconds(milliseconds))) {
                model.username = text
                io.print("Set username to ", model.username)
            }
        }
        main.schedule(after: main.now.advanced(by: .milliseconds(GithubTypingDemo.searchDebounced.end))) {
            repositoryCountSubscriber.cancel()
            usernameSubscriber.cancel()
            io.finish()
        }
    }
}

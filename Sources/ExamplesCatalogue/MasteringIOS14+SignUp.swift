import Combine
import CombineTesting
import Foundation

// "Mastering iOS 14 Programming", ch. 13: the operators the book describes without surviving
// code (map, merge), the first two stages of sample app 2 (the bare notification, then its data),
// and sample app 1's sign-up form: the view controller's Combine half as a model, with the text
// fields' IBActions replaced by assignments and the sign-up button by a small model object.

/// Sample app 1's pipelines. `validatedEmail` and `isNewEmail` are computed properties, as in
/// the book, so every use builds a fresh pipeline. The book debounces on `RunLoop.main`; here the
/// scheduler is injected (virtual time in the `examples` command).
final class SignUpModel<S: Scheduler> {
    @Published var initialEmail: String = ""
    @Published var repeatedEmail: String = ""

    private let scheduler: S

    init(scheduler: S) {
        self.scheduler = scheduler
    }

    var validatedEmail: AnyPublisher<String?, Never> {
        return Publishers.CombineLatest($initialEmail, $repeatedEmail)
            .map { (email, repeatedEmail) -> String? in
                guard email == repeatedEmail, email.contains("@"), email.count > 5 else { return nil }
                return email
            }
            .eraseToAnyPublisher()
    }

    var isNewEmail: AnyPublisher<Bool, Never> {
        return $initialEmail
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
        return Publishers.CombineLatest(validatedEmail, isNewEmail)
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

/// The sign-up button: only its `isEnabled`, which prints each time it is set.
final class SignUpButton {
    private let io: ExampleIO?
    private let clock: () -> String

    init(io: ExampleIO?, clock: @escaping () -> String) {
        self.io = io
        self.clock = clock
    }

    var isEnabled = false {
        didSet { io?.print("\(clock())  signup button isEnabled = \(isEnabled)") }
    }
}

/// Types `abc@email.com` into both fields, half a second apart (the button is enabled once the
/// debounced address has been checked, a second after the last keystroke in the first field),
/// then edits the first field at 3 s (disabled at once) and puts it back at 5 s. That enables the
/// button at once, before the debounce: `isNewEmail` still holds its last answer, `true`, and
/// `finalEmail` combines it with the newly valid address; the check a second later repeats it.
struct SignUpForm: ScheduledExampleBody {
    /// When each field is typed into: seconds from the start, field (0: first, 1: repeated), text.
    static let script: [(seconds: Double, field: Int, text: String)] = [
        (0.0, 0, "abc@email.com"),
        (0.5, 1, "abc@email.com"),
        (3.0, 0, "abc@email.co"),
        (5.0, 0, "abc@email.com"),
    ]

    func run<S: Scheduler>(_ context: ExampleContext<S>) {
        let model = SignUpModel(scheduler: context.scheduler)
        Self.type(into: context, finalEmail: model.finalEmail) { field, text in
            if field == 0 { model.initialEmail = text } else { model.repeatedEmail = text }
        }
    }

    /// Plays ``script`` on the context's scheduler, setting each field with `setField` (0: the
    /// first, 1: the repeated one), with the button following `finalEmail`; shared with the
    /// `@Observable` version of the model.
    static func type<S: Scheduler>(
        into context: ExampleContext<S>, finalEmail: AnyPublisher<String?, Never>,
        setField: @escaping (_ field: Int, _ text: String) -> Void
    ) {
        let io = context.io
        let scheduler = context.scheduler
        let start = scheduler.now
        let startDate = io.now()
        let clock = { String(format: "+%.1fs", io.now().timeIntervalSince(startDate)) }
        let signupButton = SignUpButton(io: io, clock: clock)

        let signupButtonCancellable = finalEmail
            .map { $0 != nil }
            .receive(on: scheduler)
            .drawn("signupButton.isEnabled", on: io, isOutput: true)
            .assign(to: \.isEnabled, on: signupButton)

        for step in script {
            scheduler.schedule(after: start.advanced(by: .seconds(step.seconds))) {
                let field = step.field == 0 ? "initialEmail" : "repeatedEmail"
                io.marbles.draw(field, value: "\"\(step.text)\"")
                io.print("\(clock())  \(field) = \"\(step.text)\"")
                setField(step.field, step.text)
            }
        }
        scheduler.schedule(after: start.advanced(by: .seconds(7))) {
            signupButtonCancellable.cancel()
            io.finish()
        }
    }
}

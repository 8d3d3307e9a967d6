import Combine
import CombineTesting
@testable import ExamplesCatalogue
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The "Using Combine" pattern examples' models checked directly, beyond the text they print:
/// the error normalisation, the GitHub API's activity stream, the form model and the delegate
/// proxy.
@Suite("Using Combine patterns: models")
struct UsingCombinePatternsModelTests {
    typealias APIError = UsingCombineTests.APIError

    /// The first failure (or nil) of `fetch(url:)` for `address`.
    static func fetchError(_ address: String) async -> APIError? {
        await withCheckedContinuation { continuation in
            var cancellable: AnyCancellable?
            cancellable = UsingCombineTests.fetch(url: URL(string: address)!)
                .sink(receiveCompletion: { completion in
                    if case .failure(let error) = completion {
                        continuation.resume(returning: error)
                    } else {
                        continuation.resume(returning: nil)
                    }
                    _ = cancellable
                }, receiveValue: { _ in })
        }
    }

    @Test func fetchNormalisesStatusCodesAndTransportErrors() async {
        func reason(_ error: APIError?) -> String? {
            if case .apiError(let reason) = error { return reason }
            return nil
        }
        #expect(reason(await Self.fetchError("https://postman-echo.com/status/401")) == "Unauthorized")
        #expect(reason(await Self.fetchError("https://postman-echo.com/status/403")) == "Resource forbidden")
        #expect(reason(await Self.fetchError("https://postman-echo.com/status/404")) == "Resource not found")
        #expect(reason(await Self.fetchError("https://postman-echo.com/status/418")) == "client error")
        #expect(reason(await Self.fetchError("https://postman-echo.com/status/500")) == "server error")
        // 400 and 402 are outside every rule of the book's table: the data passes
        #expect(await Self.fetchError("https://postman-echo.com/status/400") == nil)
        #expect(await Self.fetchError("https://postman-echo.com/time/valid") == nil)
        let network = await Self.fetchError("https://unreachable.example.com/")
        guard case .networkError(let urlError) = network else {
            Issue.record("expected a network error, got \(String(describing: network))")
            return
        }
        #expect(urlError.code == .cannotConnectToHost)
    }

    @Test func githubAPIReportsActivityAroundEachRequestAndNoneForShortNames() {
        let scheduler = TestScheduler()
        let api = UIKit_Combine.GithubAPI(session: ScheduledFixtureSession(scheduler: scheduler, latency: .milliseconds(400)))
        var activity: [Bool] = []
        var logins: [[String]] = []
        let activityCancellable = api.networkActivityPublisher.sink { activity.append($0) }

        let cancellables = ["he", "heckj", "nobody"].map { name in
            api.retrieveGithubUser(username: name).sink { logins.append($0.map(\.login)) }
        }
        // "he" is too short: answered at once, with no request
        #expect(logins == [[]])
        #expect(activity == [true, true])
        scheduler.run()
        #expect(logins == [[], ["heckj"], []])  // "nobody" is a 404, caught as []
        #expect(activity == [true, true, false, false])
        cancellables.forEach { $0.cancel() }
        activityCancellable.cancel()
    }

    @Test func reactiveFormModelAllowsSubmitOnlyForMatchingEntriesOfFiveCharacters() {
        let model = ReactiveFormModel()
        defer { model.tearDown() }
        var allowed: [Bool] = []
        let cancellable = model.submitAllowed.sink { allowed.append($0) }

        model.firstEntry = "hello"
        model.secondEntry = "hell"
        #expect(model.validationMessages == ["Values for fields must match.", "Please enter values of at least 5 characters."])
        model.secondEntry = "hello"
        #expect(model.validationMessages.isEmpty)
        #expect(allowed == [false, false, false, true])
        cancellable.cancel()
    }

    @Test func headingProxyForwardsTheDelegateUntilItFails() {
        let scheduler = TestScheduler()
        let proxy = LocationHeadingProxy(scheduler: scheduler)
        let recorder = RecordingSubscriber<Double, Error>(scheduler: scheduler)
        proxy.publisher.map(\.trueHeading).subscribe(recorder)

        proxy.enable()
        scheduler.advance(by: .milliseconds(2500))
        proxy.disable()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values == [10, 20])
        proxy.enable()
        scheduler.advance(by: .seconds(1))
        proxy.mgr.disturb()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values == [10, 20, 30])
        guard case .completion(.failure(let error)) = recorder.events.last else {
            Issue.record("expected the sensor's failure")
            return
        }
        #expect(error as? FakeCLError == .headingFailure)
    }
}

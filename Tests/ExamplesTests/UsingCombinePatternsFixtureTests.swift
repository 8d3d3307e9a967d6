import Combine
import CombineTesting
@testable import ExamplesCatalogue
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The in-process servers behind the "Using Combine" network patterns: the routes answer what
/// the patterns expect, through a real `URLSession` and on a scheduler.
@Suite("Using Combine patterns: fixture servers")
struct UsingCombinePatternsFixtureTests {
    /// Fetches `address` through the fixture session: the status code, or the URLError code.
    static func fetch(_ address: String) async -> Result<Int, URLError> {
        await withCheckedContinuation { continuation in
            let task = FixtureURLProtocol.session.dataTask(with: URL(string: address)!) { _, response, error in
                if let error = error as? URLError {
                    continuation.resume(returning: .failure(error))
                } else {
                    continuation.resume(returning: .success((response as? HTTPURLResponse)?.statusCode ?? -1))
                }
            }
            task.resume()
        }
    }

    @Test("status routes answer their status code", arguments: [401, 403, 404, 418, 500, 503])
    func statusRoute(code: Int) async throws {
        let result = await Self.fetch("https://postman-echo.com/status/\(code)")
        #expect(try result.get() == code)
    }

    @Test func unreachableHostFailsWithAURLError() async {
        let result = await Self.fetch("https://unreachable.example.com/anything")
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.code == .cannotConnectToHost)
    }

    @Test func flakyRouteFailsItsCountThenAnswersAndCountsEachRunApart() async {
        let run = FlakyRoutes.newRun()
        let other = FlakyRoutes.newRun()
        var results: [Bool] = []
        for _ in 0..<3 {
            results.append((try? await Self.fetch("https://postman-echo.com/flaky/2/\(run)").get()) == 200)
        }
        #expect(results == [false, false, true])
        // another run starts over
        #expect((try? await Self.fetch("https://postman-echo.com/flaky/2/\(other)").get()) == nil)
    }

    @Test func githubKnowsThreeUsersAndAnswers404ForOthers() throws {
        struct User: Decodable, Equatable {
            let login: String
            let public_repos: Int
        }
        let answer = FixtureAnswer.answer(for: URL(string: "https://api.github.com/users/heckj")!)
        #expect(answer.statusCode == 200)
        #expect(try JSONDecoder().decode(User.self, from: answer.body) == User(login: "heckj", public_repos: 69))
        #expect(FixtureAnswer.answer(for: URL(string: "https://api.github.com/users/nobody")!).statusCode == 404)
    }

    @Test func scheduledSessionAnswersAfterItsLatencyPlusTheRoutesDelay() {
        let scheduler = TestScheduler()
        let session = ScheduledFixtureSession(scheduler: scheduler, latency: .milliseconds(100))
        var arrivals: [(ticks: Int, status: Int)] = []
        var completions = 0
        let cancellables = ["https://postman-echo.com/time/valid", "https://postman-echo.com/delay/3"].map { address in
            session.dataTaskPublisher(for: URL(string: address)!)
                .sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { _, response in
                    arrivals.append((scheduler.now.ticks, (response as? HTTPURLResponse)?.statusCode ?? -1))
                })
        }
        scheduler.advance(by: .milliseconds(99))
        #expect(arrivals.isEmpty)
        scheduler.run()
        #expect(arrivals.map(\.ticks) == [100_000_000, 3_100_000_000])
        #expect(arrivals.map(\.status) == [200, 200])
        #expect(completions == 2)
        cancellables.forEach { $0.cancel() }
    }

    @Test func scheduledSessionMakesOneRequestPerSubscription() {
        let scheduler = TestScheduler()
        let session = ScheduledFixtureSession(scheduler: scheduler, latency: .seconds(1))
        let flaky = session.dataTaskPublisher(for: URL(string: "https://postman-echo.com/flaky/1/\(FlakyRoutes.newRun())")!)
        var completion: Subscribers.Completion<URLError>?
        var values = 0
        let cancellable = flaky
            .retry(1)
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in values += 1 })
        scheduler.run()
        // the first request fails, retry subscribes again and that request answers
        #expect(values == 1)
        #expect(completion.map { if case .finished = $0 { true } else { false } } == true)
        #expect(scheduler.now.ticks == 2_000_000_000)
        cancellable.cancel()
    }
}

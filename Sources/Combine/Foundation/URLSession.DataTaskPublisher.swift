#if canImport(FoundationNetworking) || canImport(Darwin)
import Foundation
import TributaryLocks

#if canImport(FoundationNetworking)
// On Linux `URLSession`, `URLRequest` and `URLResponse` live in FoundationNetworking; code that
// uses `dataTaskPublisher` there needs `import FoundationNetworking` next to `import Foundation`.
import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that loads `url` with a data task of this session when subscribed.
    ///
    /// On Linux, add `import FoundationNetworking` (URLSession is not in Foundation there).
    public func dataTaskPublisher(for url: URL) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that performs `request` with a data task of this session when
    /// subscribed.
    public func dataTaskPublisher(for request: URLRequest) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that performs one data task and publishes its body and response.
    ///
    /// The task starts when the subscriber first requests a value and is cancelled if the
    /// subscription is cancelled first. Every subscription performs its own request, so `retry`
    /// really asks the server again. An HTTP error status (404, 500…) is **not** a failure: the
    /// response is published like any other, so check `(response as? HTTPURLResponse)?.statusCode`
    /// in a `tryMap`. The publisher fails only when no response arrives (connection refused,
    /// timeout, cancelled by the session…), with the `URLError` the session reported.
    ///
    /// Values and completion arrive on the session's delegate queue; add `receive(on:)` to choose.
    public struct DataTaskPublisher: Publisher {
        /// The response body and the response (an `HTTPURLResponse` for HTTP URLs).
        public typealias Output = (data: Data, response: URLResponse)
        /// Why no response arrived, as the session reported it.
        public typealias Failure = URLError

        /// The request performed for each subscriber.
        public let request: URLRequest
        /// The session that performs it.
        public let session: URLSession

        /// Creates a publisher that performs `request` with `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Attaches `subscriber`; the type's documentation describes what it receives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Inlinable, so that the subscriber is wrapped where its type is known and the
            // stages below this publisher run specialised code.
            subscriber.receive(subscription: Inner(downstream: AnySubscriber(subscriber), parent: self))
        }
    }
}

extension URLSession.DataTaskPublisher {
    /// One subscriber's data task. (`@unchecked Sendable`: all state is behind a lock; the task's
    /// completion handler runs on the session's queue.)
    @usableFromInline
    final class Inner: Subscription, ReflectsAsOperator, @unchecked Sendable
    {
        private struct State {
            var downstream: AnySubscriber<Output, Failure>?
            /// The publisher, until the task ends or the subscription is cancelled.
            var parent: URLSession.DataTaskPublisher?
            var task: URLSessionDataTask?
            /// What the subscriber has asked for and not received.
            var demand = Subscribers.Demand.none
            /// The task has been created (or is being created): later requests only resume it.
            var started = false
        }

        private let state: LockedState<State>

        @usableFromInline
        init(downstream: AnySubscriber<Output, Failure>, parent: URLSession.DataTaskPublisher) {
            state = LockedState(State(downstream: downstream, parent: parent))
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:) on URLSession.DataTaskPublisher")
            // As Apple's: the first request creates the task, and every request resumes it (a
            // running task ignores `resume()`); the single value satisfies any demand.
            enum Step { case none, resume(URLSessionDataTask), create(URLRequest, URLSession) }
            let step = state.withLock { state -> Step in
                guard state.downstream != nil else { return .none }
                state.demand += demand
                if let task = state.task { return .resume(task) }
                guard !state.started, let parent = state.parent else { return .none }
                state.started = true
                return .create(parent.request, parent.session)
            }
            switch step {
            case .none:
                return
            case .resume(let task):
                task.resume()
            case .create(let request, let session):
                // The handler keeps this subscription alive until the task ends (or is cancelled).
                let task = session.dataTask(with: request) { data, response, error in
                    self.finish(data: data, response: response, error: error)
                }
                let cancelled = state.withLock { state -> Bool in
                    guard state.downstream != nil else { return true }
                    state.task = task
                    return false
                }
                if cancelled { return }
                task.resume()
            }
        }

        private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
            let (downstream, parent) = state.withLock { state -> (AnySubscriber<Output, Failure>?, URLSession.DataTaskPublisher?) in
                state.task = nil
                // The value about to go out is served from the demand.
                if state.downstream != nil, error == nil, response != nil { state.demand -= 1 }
                return (state.downstream.take(), state.parent.take())
            }
            withExtendedLifetime(parent) {}
            guard let downstream else { return }
            if let error {
                downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
            } else if let response {
                _ = downstream.receive((data: data ?? Data(), response: response))
                downstream.receive(completion: .finished)
            } else {
                // No error and no response: Apple's publisher fails with `.unknown`.
                downstream.receive(completion: .failure(URLError(.unknown)))
            }
        }

        @usableFromInline
        func cancel() {
            let (task, released) = state.withLock { state -> (URLSessionDataTask?, (AnySubscriber<Output, Failure>?, URLSession.DataTaskPublisher?)) in
                defer { state.task = nil }
                return (state.task, (state.downstream.take(), state.parent.take()))
            }
            // What the subscription held is let go of outside the lock.
            withExtendedLifetime(released) {}
            task?.cancel()
        }

        @usableFromInline
        var description: String { "DataTaskPublisher" }

        /// Apple's children: the task (none before the first request), the subscriber and the
        /// publisher (both `nil` once the task has ended or the subscription was cancelled), and
        /// the demand not yet served.
        @usableFromInline
        var mirrorChildren: KeyValuePairs<String, Any> {
            let (task, downstream, parent, demand) = state.withLock { ($0.task, $0.downstream, $0.parent, $0.demand) }
            return ["task": task as Any, "downstream": downstream as Any, "parent": parent as Any, "demand": demand]
        }
    }
}
// Sendable: a request (a value) and a session (thread-safe, itself Sendable).
extension URLSession.DataTaskPublisher: Sendable {}

#endif

import Combine
import Foundation
import TributaryLocks

/// What a publisher sent to `Publisher.record()` or
/// `Publisher.record(timeout:)`: its values and, if it got that far, its completion.
///
/// `Equatable` when values and failures are, so one `#expect` checks the whole outcome:
/// `#expect(Just(1).record() == .init(values: [1], completion: .finished))`.
public struct PublisherOutput<Output, Failure: Error> {
    /// The values, in the order they arrived.
    public var values: [Output]
    /// The completion, or `nil` if the publisher had not completed.
    public var completion: Subscribers.Completion<Failure>?

    /// Makes an outcome by hand, usually the expected side of a comparison.
    public init(values: [Output], completion: Subscribers.Completion<Failure>?) {
        self.values = values
        self.completion = completion
    }

    /// Whether the publisher finished normally.
    public var isFinished: Bool {
        if case .finished = completion { return true }
        return false
    }

    /// The error the publisher failed with, if it failed.
    public var failure: Failure? {
        if case .failure(let error) = completion { return error }
        return nil
    }
}

extension PublisherOutput: Equatable where Output: Equatable, Failure: Equatable {}

extension PublisherOutput: Sendable where Output: Sendable, Failure: Sendable {}

extension PublisherOutput: CustomStringConvertible {
    /// `[1, 2] finished`, `[1] failure(…)` or `[1] (not completed)`.
    public var description: String {
        let tail: String
        switch completion {
        case nil: tail = "(not completed)"
        case .finished?: tail = "finished"
        case .failure(let error)?: tail = "failure(\(error))"
        }
        return "\(values) \(tail)"
    }
}

/// Thrown by `Publisher.record(timeout:)` when the publisher does not complete in
/// time; carries what had arrived, which usually explains why.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct PublisherRecordTimeout<Output, Failure: Error>: Error, CustomStringConvertible {
    /// What the publisher had sent when time ran out.
    public var partial: PublisherOutput<Output, Failure>
    /// The time limit that was exceeded.
    public var timeout: Duration

    /// Describes the timeout and what had arrived.
    public var description: String {
        "Publisher did not complete within \(timeout); received so far: \(partial)"
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension PublisherRecordTimeout: Sendable where Output: Sendable, Failure: Sendable {}

/// Collects values and completion under a lock, for both forms of `record`.
private final class OutputCollector<Output, Failure: Error>: Subscriber, @unchecked Sendable {
    private let lock = LockedState()
    private var output = PublisherOutput<Output, Failure>(values: [], completion: nil)
    private var subscription: (any Subscription)?
    private var cancelled = false
    private var onCompletion: ((PublisherOutput<Output, Failure>) -> Void)?

    init(onCompletion: ((PublisherOutput<Output, Failure>) -> Void)? = nil) {
        self.onCompletion = onCompletion
    }

    var snapshot: PublisherOutput<Output, Failure> { lock.withLock { output } }

    func receive(subscription: any Subscription) {
        let keep = lock.withLock {
            if cancelled { return false }
            self.subscription = subscription
            return true
        }
        if keep { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        lock.withLock {
            if output.completion == nil { output.values.append(input) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let (result, callback): (PublisherOutput<Output, Failure>, ((PublisherOutput<Output, Failure>) -> Void)?) =
            lock.withLock {
                if output.completion == nil { output.completion = completion }
                subscription = nil
                defer { onCompletion = nil }
                return (output, onCompletion)
            }
        callback?(result)
    }

    func cancel() {
        let subscription: (any Subscription)? = lock.withLock {
            cancelled = true
            onCompletion = nil
            defer { self.subscription = nil }
            return self.subscription
        }
        subscription?.cancel()
    }
}

extension Publisher {
    /// Subscribes with unlimited demand, collects whatever the publisher sends **synchronously**
    /// during the subscription, then cancels it (if still open) and returns the outcome.
    ///
    /// Made for publishers that do their work on subscription (`Just`, `Publishers.Sequence`,
    /// `Fail`, a `CurrentValueSubject`, pipelines driven by an immediate scheduler…):
    ///
    /// ```swift
    /// #expect([1, 2, 3].publisher.collect().record().values == [[1, 2, 3]])
    /// ```
    ///
    /// Anything the publisher would send later is not waited for: `completion` is `nil` then.
    /// For publishers that complete asynchronously use ``record(timeout:)``; for ones driven
    /// by a ``TestScheduler``, ``TestScheduler/record(_:initialDemand:demandPerValue:)``.
    public func record() -> PublisherOutput<Output, Failure> {
        let collector = OutputCollector<Output, Failure>()
        subscribe(collector)
        let result = collector.snapshot
        collector.cancel()
        return result
    }

    /// Subscribes with unlimited demand and waits until the publisher completes, returning all
    /// its values and its completion.
    ///
    /// For code that completes on real queues or tasks you do not control. The timeout is a
    /// safety net against hangs, not a way of waiting: a test that passes never waits for it.
    /// If the publisher has not completed in time, the subscription is cancelled and
    /// ``PublisherRecordTimeout`` is thrown carrying what had arrived. Cancelling the awaiting
    /// task cancels the subscription and returns what had arrived (with `completion == nil`).
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public func record(timeout: Duration) async throws -> PublisherOutput<Output, Failure> {
        let once = ResumeOnce<PublisherOutput<Output, Failure>>()
        let collector = OutputCollector<Output, Failure> { output in once.resume(with: .success(output)) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.set(continuation)
                // A task rather than a dispatch timer: resolving cancels it at once, so a finished
                // recording is not kept alive until the deadline.
                once.setTimer(
                    Task {
                        do { try await Task.sleep(for: timeout) } catch { return }
                        collector.cancel()
                        once.resume(
                            with: .failure(PublisherRecordTimeout(partial: collector.snapshot, timeout: timeout))
                        )
                    })
                subscribe(collector)
            }
        } onCancel: {
            collector.cancel()
            once.resume(with: .success(collector.snapshot))
        }
    }
}

/// Resumes a continuation exactly once, whichever of completion, timeout or cancellation comes
/// first; a result that arrives before the continuation is installed is kept until it is.
/// Resolving also cancels the timeout task.
private final class ResumeOnce<Value>: @unchecked Sendable {
    private let lock = LockedState()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var early: Result<Value, any Error>?
    private var done = false
    private var timer: Task<Void, Never>?

    func setTimer(_ task: Task<Void, Never>) {
        let alreadyDone: Bool = lock.withLock {
            if done { return true }
            timer = task
            return false
        }
        if alreadyDone { task.cancel() }
    }

    func set(_ continuation: CheckedContinuation<Value, any Error>) {
        let early: Result<Value, any Error>? = lock.withLock {
            if let early = self.early {
                self.early = nil
                return early
            }
            if done { return nil }
            self.continuation = continuation
            return nil
        }
        if let early {
            // The result is handed over exactly once and never touched again by this side.
            nonisolated(unsafe) let handedOver = early
            continuation.resume(with: handedOver)
        }
    }

    func resume(with result: Result<Value, any Error>) {
        let (continuation, timer): (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) = lock.withLock {
            if done { return (nil, nil) }
            done = true
            let timer = self.timer
            self.timer = nil
            guard let continuation = self.continuation else {
                early = result
                return (nil, timer)
            }
            self.continuation = nil
            return (continuation, timer)
        }
        timer?.cancel()
        // The result is handed over exactly once and never touched again by this side.
        nonisolated(unsafe) let handedOver = result
        continuation?.resume(with: handedOver)
    }
}

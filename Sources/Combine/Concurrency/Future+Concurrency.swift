import TributaryLocks

extension Future where Failure == Never {
    /// The future's value, awaited.
    ///
    /// Subscribes to the future and suspends until its promise is fulfilled; a future that is
    /// already fulfilled answers without suspending for long. Cancelling the awaiting task does
    /// not interrupt the wait: this property cannot throw, so it has nothing to return but the
    /// value (Apple's declaration makes the same choice).
    ///
    /// ```swift
    /// let number = await randomNumberFuture().value
    /// ```
    public final var value: Output {
        get async {
            let waiter = FutureValueWaiter<Output, Failure>()
            switch await waiter.wait(for: self) {
            case .success(.value(let output)): return output
            case .success(.cancelled):
                APIViolation.unexpected("Future.value (non-throwing) was resumed by cancellation")
            }
        }
    }
}

extension Future {
    /// The future's value, awaited, or its failure, thrown.
    ///
    /// Subscribes to the future and suspends until its promise is fulfilled. If the awaiting task
    /// is cancelled first, the subscription is cancelled and `CancellationError` is thrown (Apple
    /// does not document what happens then; ending the wait is what Swift concurrency code
    /// expects). The future itself keeps running and can still be awaited or subscribed to.
    ///
    /// ```swift
    /// do {
    ///     let profile = try await loadProfileFuture().value
    /// } catch {
    ///     report(error)
    /// }
    /// ```
    public final var value: Output {
        get async throws {
            let waiter = FutureValueWaiter<Output, Failure>()
            let outcome = try await withTaskCancellationHandler {
                try await waiter.wait(for: self).get()
            } onCancel: {
                waiter.cancel()
            }
            switch outcome {
            case .value(let output): return output
            case .cancelled: throw CancellationError()
            }
        }
    }
}

/// The subscriber behind `Future.value`: requests the one value, and resumes the awaiting task
/// with it, with the failure, or (for the throwing property) with cancellation.
///
/// `@unchecked Sendable`: all mutable state is in `state`, guarded by its `LockedState` mutex; the
/// cancellation handler is the only other thread that reaches it.
final class FutureValueWaiter<Output, Failure: Error>: Subscriber, @unchecked Sendable {
    typealias Input = Output

    enum Outcome {
        case value(Output)
        case cancelled
    }

    /// Moves one result from the thread that delivers it to the awaiting task.
    ///
    /// `@unchecked Sendable`: the result is handed over once and never touched by the sender
    /// again; Combine does not require values to be `Sendable`.
    struct Delivery: @unchecked Sendable {
        let result: Result<Outcome, Failure>
    }

    struct State {
        var continuation: UnsafeContinuation<Delivery, Never>?
        var subscription: (any Subscription)?
        var cancelled = false
        var done = false
    }

    let state = LockedState(State())

    /// Subscribes to `future` and waits for its result.
    func wait(for future: Future<Output, Failure>) async -> Result<Outcome, Failure> {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Delivery, Never>) in
            let cancelledAlready = state.withLock { state -> Bool in
                if state.cancelled { return true }
                state.continuation = continuation
                return false
            }
            if cancelledAlready {
                continuation.resume(returning: Delivery(result: .success(.cancelled)))
            } else {
                future.subscribe(self)
            }
        }.result
    }

    func receive(subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard !state.done, state.subscription == nil else { return false }
            state.subscription = subscription
            return true
        }
        if accepted {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        resume(with: .success(.value(input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished:
            // After a value this finds nothing waiting. A future cannot finish without a value.
            let waiting = state.withLock { $0.continuation != nil }
            if waiting { APIViolation.unexpected("Future finished without delivering a value") }
        case .failure(let error):
            resume(with: .failure(error))
        }
    }

    /// Cancels the subscription and ends the wait with `.cancelled`.
    func cancel() {
        let subscription = state.withLock { state -> (any Subscription)? in
            state.cancelled = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
        resume(with: .success(.cancelled))
    }

    private func resume(with result: Result<Outcome, Failure>) {
        let continuation = state.withLock { state -> UnsafeContinuation<Delivery, Never>? in
            guard !state.done, let continuation = state.continuation else { return nil }
            state.done = true
            state.continuation = nil
            state.subscription = nil
            return continuation
        }
        continuation?.resume(returning: Delivery(result: result))
    }
}

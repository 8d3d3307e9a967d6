import TributaryLocks

/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it turns each call of
/// the iterator's `next()` into a demand of exactly one value, and hands the value (or the
/// completion) to the suspended task.
///
/// Everything the three actors (the upstream, the iterating task, the task's cancellation
/// handler) touch lives in one locked ``AsyncPublisherInner/State``; each event computes what to do
/// under the lock and does it after unlocking, so no continuation is resumed and no upstream call
/// is made while the lock is held.
///
/// `@unchecked Sendable`: every stored property other than the immutable lock handle is inside
/// `state`, which the `LockedState` mutex guards.
@usableFromInline
internal final class AsyncPublisherInner<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    @usableFromInline
    typealias Input = Output

    /// What a suspended `next()` is resumed with: an element, the end (`nil`), or the failure.
    @usableFromInline
    typealias Continuation = UnsafeContinuation<Delivery, Never>

    /// One result moved from the thread that delivers it to the task that awaits it.
    ///
    /// `@unchecked Sendable`: Combine moves values between threads without requiring `Sendable`
    /// (publishers are not `Sendable`-constrained, as on Apple's platforms); the result is handed
    /// over exactly once and never touched again by the sender, so it is never shared.
    @usableFromInline
    struct Delivery: @unchecked Sendable {
        @usableFromInline let result: Result<Output?, Failure>
        @inlinable init(_ result: Result<Output?, Failure>) { self.result = result }
    }

    @usableFromInline
    enum Upstream {
        /// Not subscribed yet; a `next()` already waiting (in `waiting`) is requested on arrival.
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Finished, failed or cancelled; the subscription has been released.
        case terminal

        /// The subscription while connected.
        @inlinable
        var subscription: (any Subscription)? {
            if case .subscribed(let subscription) = self { return subscription }
            return nil
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var upstream: Upstream = .awaitingSubscription
        /// The `next()` call waiting for a value; at most one, since an iterator is not shared.
        @usableFromInline var waiting: Continuation?
        /// A completion that arrived while no `next()` was waiting; reported by the next call.
        /// `.some(nil)` after it has been reported (and after cancellation): later calls end.
        @usableFromInline var completion: Subscribers.Completion<Failure>??

        @inlinable init() {}
    }

    @usableFromInline
    let state = LockedState(State())

    /// What to do after a subscription arrives.
    @usableFromInline
    enum SubscriptionAction { case request, cancel, nothing }

    /// What to do after a `next()` call registered its continuation.
    @usableFromInline
    enum NextAction {
        case request(any Subscription)
        case resume(Result<Output?, Failure>)
        case wait
    }

    @inlinable
    init() {}

    // MARK: Subscriber

    @inlinable
    func receive(subscription: any Subscription) {
        let action: SubscriptionAction = state.withLock { state in
            switch state.upstream {
            case .awaitingSubscription:
                state.upstream = .subscribed(subscription)
                return state.waiting == nil ? .nothing : .request
            case .subscribed, .terminal:
                // A second subscription, or one arriving after cancellation: refuse it.
                return .cancel
            }
        }
        switch action {
        case .request: subscription.request(.max(1))
        case .cancel: subscription.cancel()
        case .nothing: break
        }
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
        let waiting: Continuation? = state.withLock { state in
            guard case .subscribed = state.upstream else { return nil }
            let taken = state.waiting
            state.waiting = nil
            return taken
        }
        // A value nobody asked for (the upstream ignored demand) is dropped: buffering it would
        // make the memory use depend on a misbehaving upstream.
        waiting?.resume(returning: Delivery(.success(input)))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let waiting: Continuation? = state.withLock { state in
            guard case .subscribed = state.upstream else { return nil }
            state.upstream = .terminal
            if let taken = state.waiting {
                state.waiting = nil
                state.completion = .some(nil)
                return taken
            }
            state.completion = .some(completion)
            return nil
        }
        waiting?.resume(returning: Delivery(Self.result(of: completion)))
    }

    // MARK: Cancellable

    /// Cancels the upstream subscription and ends a waiting `next()` with `nil`. Called by the
    /// iterating task's cancellation handler and when the iterator is discarded.
    @inlinable
    func cancel() {
        let (subscription, waiting): ((any Subscription)?, Continuation?) = state.withLock { state in
            let subscription = state.upstream.subscription
            state.upstream = .terminal
            // A completion that arrived earlier and was not reported yet is kept for next().
            if state.completion == nil { state.completion = .some(nil) }
            let taken = state.waiting
            state.waiting = nil
            return (subscription, taken)
        }
        subscription?.cancel()
        waiting?.resume(returning: Delivery(.success(nil)))
    }

    // MARK: Iteration

    /// The body of both iterators' `next()`: asks for one value and suspends until it, the
    /// completion, or cancellation of the calling task arrives.
    @inlinable
    func next() async -> Result<Output?, Failure> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Continuation) in
                self.enqueue(continuation)
            }.result
        } onCancel: {
            self.cancel()
        }
    }

    @inlinable
    func enqueue(_ continuation: Continuation) {
        let action: NextAction = state.withLock { state in
            if let pending = state.completion {
                // Terminal: report a stored completion once, then end.
                state.completion = .some(nil)
                return .resume(pending.map(Self.result(of:)) ?? .success(nil))
            }
            if state.waiting != nil {
                APIViolation.unexpected(
                    "AsyncPublisher.Iterator.next() was called while another call on the same iterator was still waiting")
            }
            state.waiting = continuation
            switch state.upstream {
            case .subscribed(let subscription): return .request(subscription)
            case .awaitingSubscription: return .wait
            case .terminal:
                APIViolation.unexpected("AsyncPublisher terminal without a recorded completion")
            }
        }
        switch action {
        case .request(let subscription): subscription.request(.max(1))
        case .resume(let result): continuation.resume(returning: Delivery(result))
        case .wait: break
        }
    }

    @inlinable
    static func result(of completion: Subscribers.Completion<Failure>) -> Result<Output?, Failure> {
        switch completion {
        case .finished: return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }
}

/// Owned by an iterator and nothing else: when the iterator is discarded (a `for await` loop
/// exits with `break`, `return` or a thrown error), the subscription is cancelled instead of
/// staying attached to the upstream forever.
@usableFromInline
internal final class AsyncPublisherIteratorLifetime<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    let inner: AsyncPublisherInner<Output, Failure>

    @inlinable
    init(_ inner: AsyncPublisherInner<Output, Failure>) {
        self.inner = inner
    }

    @inlinable
    deinit {
        inner.cancel()
    }
}

import TributaryLocks

/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it turns each call of
/// the iterator's `next()` into a demand of exactly one value, and hands the value (or the
/// completion) to the suspended task.
///
/// Copies of an iterator share this object, so several `next()` calls may wait at once (as in
/// Apple's Combine): they queue in arrival order, each adds one to the demand, and each value
/// resumes the oldest. Cancelling any waiting task cancels the upstream once and ends every
/// waiting call with `nil`.
///
/// Everything the three actors (the upstream, the iterating task, the task's cancellation
/// handler) touch lives in one locked ``AsyncPublisherInner/State``; each event computes what to do
/// under the lock and does it after unlocking, so no continuation is resumed and no upstream call
/// is made while the lock is held.
///
/// The lock is the base class's `state`, reached through ``LockedMachineOwner/withMachine(_:)``.
///
/// `@unchecked Sendable`: every stored property other than the immutable lock handle is inside
/// `state`, which the `LockedState` mutex guards.
@usableFromInline
internal final class AsyncPublisherInner<Output, Failure: Error>:
    LockedMachineOwner<AsyncPublisherInner<Output, Failure>.State>, Subscriber, Cancellable, @unchecked Sendable
{
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

    /// Where the subscription stands. The subscription is held in a ``SubscriptionHandle``, an
    /// object: this enum is switched over on every value, and with an `any Subscription` payload
    /// every switch and copy would go through the existential's value witnesses.
    @usableFromInline
    enum Upstream {
        /// Not subscribed yet; the `next()` calls already waiting are requested on arrival.
        case awaitingSubscription
        case subscribed(SubscriptionHandle)
        /// Finished, failed or cancelled; the subscription has been released.
        case terminal
    }

    @usableFromInline
    struct State {
        @usableFromInline var upstream: Upstream = .awaitingSubscription
        /// The `next()` calls waiting for a value, oldest first.
        @usableFromInline var waiting = Waiters()
        /// One per `next()` made before the subscription arrived; requested together on arrival.
        @usableFromInline var pendingDemand = 0
        /// Requests made by `next()` calls that have not registered a continuation yet (see
        /// ``AsyncPublisherInner/next()``): a value arriving for one of them while nobody waits
        /// goes to `ready`.
        @usableFromInline var unclaimed = 0
        /// Whether ``completion`` holds anything, kept beside it: testing an optional of a
        /// generic type looks up type metadata at run time in a debug build, and
        /// ``AsyncPublisherInner/takeAnswer(_:)``'s callers test this for every value instead.
        @usableFromInline var completionRecorded = false

        // The fields whose size depends on `Output` and `Failure` come last, so that a debug
        // build reaches the ones above (and `ready.count`) at fixed offsets, without this type's
        // metadata.

        /// Values that answered such requests, oldest first, for those calls to take.
        @usableFromInline var ready = DeliveryQueue<Output>()
        /// See ``completion``.
        @usableFromInline var recordedCompletion: Subscribers.Completion<Failure>??

        @inlinable init() {}

        /// A completion that arrived while no `next()` was waiting; reported by the next call.
        /// `.some(nil)` after it has been reported (and after cancellation): later calls end.
        @inlinable var completion: Subscribers.Completion<Failure>?? {
            get { recordedCompletion }
            set {
                recordedCompletion = newValue
                completionRecorded = newValue != nil
            }
        }

        /// Whether ``AsyncPublisherInner/takeAnswer(_:)`` may have something to return: a value
        /// that answered an earlier request, or a completion. Reads only fields at fixed offsets.
        /// Always `true` in an optimised build, where `takeAnswer` costs no look-ups and the test
        /// would only add to it.
        @inlinable var hasAnswer: Bool {
            !_isDebugAssertConfiguration() || ready.count != 0 || completionRecorded
        }
    }

    /// The waiting `next()` calls, oldest first. The usual single waiter is kept inline, so an
    /// iterator used one call at a time allocates nothing per value; the rarer extra waiters
    /// queue behind it.
    @usableFromInline
    struct Waiters {
        @usableFromInline var oldest: Continuation?
        @usableFromInline var later: [Continuation] = []

        @inlinable init() {}

        @inlinable var isEmpty: Bool { oldest == nil }

        @inlinable
        mutating func append(_ continuation: Continuation) {
            if oldest == nil { oldest = continuation } else { later.append(continuation) }
        }

        @inlinable
        mutating func popFirst() -> Continuation? {
            guard let first = oldest else { return nil }
            oldest = later.isEmpty ? nil : later.removeFirst()
            return first
        }

        /// Every waiter, oldest first; leaves none.
        @inlinable
        mutating func takeAll() -> [Continuation] {
            guard let first = oldest else { return [] }
            defer { oldest = nil; later = [] }
            return [first] + later
        }
    }

    /// What to do after a subscription arrives.
    @usableFromInline
    enum SubscriptionAction { case request(Int), cancel, nothing }

    /// What to do after a `next()` call registered its continuation.
    @usableFromInline
    enum NextAction {
        case request(SubscriptionHandle)
        case resume(Result<Output?, Failure>)
        case wait
    }

    @inlinable
    init() {
        super.init(State())
    }

    // MARK: Subscriber

    @inlinable
    func receive(subscription: any Subscription) {
        let action: SubscriptionAction = withMachine { state in
            switch state.upstream {
            case .awaitingSubscription:
                state.upstream = .subscribed(SubscriptionHandle(subscription))
                defer { state.pendingDemand = 0 }
                return state.pendingDemand == 0 ? .nothing : .request(state.pendingDemand)
            case .subscribed, .terminal:
                // A second subscription, or one arriving after cancellation: refuse it.
                return .cancel
            }
        }
        switch action {
        case .request(let count): subscription.request(.max(count))
        case .cancel: subscription.cancel()
        case .nothing: break
        }
    }

    /// What a value does.
    @usableFromInline
    enum ValueAction {
        /// Resume the oldest waiting call with the value.
        case deliver(Continuation)
        /// A value before the subscription: every waiting call ends with `nil`.
        case endAll([Continuation])
        /// Nobody asked for it: the upstream broke the demand contract.
        case violation
        case ignore
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
        let action: ValueAction = withMachine { state in
            switch state.upstream {
            case .awaitingSubscription:
                // The calls it ends keep their demand: Apple still requests it when the
                // subscription arrives.
                return .endAll(state.waiting.takeAll())
            case .subscribed:
                if let oldest = state.waiting.popFirst() { return .deliver(oldest) }
                guard state.unclaimed > 0 else { return .violation }
                // The value answers a request whose `next()` has not suspended: it takes the
                // value when the request returns, without suspending.
                state.unclaimed -= 1
                state.ready.append(input)
                return .ignore
            case .terminal:
                return .ignore
            }
        }
        switch action {
        case .deliver(let oldest):
            oldest.resume(returning: Delivery(.success(input)))
        case .endAll(let waiting):
            for continuation in waiting { continuation.resume(returning: Delivery(.success(nil))) }
        case .violation:
            // Apple's Combine traps here too: every value must answer a `next()`.
            APIViolation.misuse(
                "AsyncPublisher received a value while no call of its iterator's next() was waiting for one",
                file: #fileID, line: #line)
        case .ignore:
            break
        }
        return .none
    }

    /// The oldest waiting call gets the completion (`nil` for `finished`, or the failure), the
    /// others `nil`. With nobody waiting the completion is kept for the next call. A completion
    /// after the first ends any waiting calls with `nil`. One that arrives before the subscription
    /// counts as the first: the subscription, when it comes, is cancelled.
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let waiting: [Continuation]
        let first: Bool
        do {
            let taken: ([Continuation], Bool, SubscriptionHandle?) = withMachine { state in
                switch state.upstream {
                case .awaitingSubscription:
                    // Before the subscription it ends the stream all the same, as Apple's does: the
                    // waiting calls return, and a subscription arriving later is cancelled.
                    state.upstream = .terminal
                    state.pendingDemand = 0
                    state.completion = state.waiting.isEmpty ? .some(completion) : .some(nil)
                    return (state.waiting.takeAll(), true, nil)
                case .subscribed(let subscription):
                    state.upstream = .terminal
                    state.completion = state.waiting.isEmpty ? .some(completion) : .some(nil)
                    return (state.waiting.takeAll(), true, subscription)
                case .terminal:
                    return (state.waiting.takeAll(), false, nil)
                }
            }
            (waiting, first) = (taken.0, taken.1)
        }
        // The subscription has been let go of (at the end of the block), before any call resumes.
        for (index, continuation) in waiting.enumerated() {
            let result = first && index == 0 ? Self.result(of: completion) : .success(nil)
            continuation.resume(returning: Delivery(result))
        }
    }

    // MARK: Cancellable

    /// Cancels the upstream subscription (once) and ends every waiting `next()` with `nil`.
    /// Called by the cancellation handler of any iterating task and when the iterator is discarded.
    @inlinable
    func cancel() {
        let (subscription, waiting, dropped): (SubscriptionHandle?, [Continuation], DeliveryQueue<Output>) = state.withLock { state in
            var subscription: SubscriptionHandle?
            if case .subscribed(let held) = state.upstream { subscription = held }
            state.upstream = .terminal
            state.pendingDemand = 0
            state.unclaimed = 0
            let dropped = state.ready.takeAll()
            // A completion that arrived earlier and was not reported yet is kept for next().
            if state.completion == nil { state.completion = .some(nil) }
            return (subscription, state.waiting.takeAll(), dropped)
        }
        subscription?.cancel()
        for continuation in waiting { continuation.resume(returning: Delivery(.success(nil))) }
        withExtendedLifetime(dropped) {}
    }

    // MARK: Iteration

    /// The body of both iterators' `next()`: asks for one value and suspends until it, the
    /// completion, or cancellation of the calling task arrives.
    ///
    /// When the upstream answers the request before `request(_:)` returns (a `buffer` holding
    /// values, a synchronous publisher), the call takes the value then and does not suspend: it
    /// makes no continuation and no cancellation handler. The upstream sees the same
    /// `request(.max(1))` per call either way.
    @inlinable
    func next() async -> Result<Output?, Failure> {
        var requested = false
        if !Task.isCancelled {
            switch nextWithoutSuspending() {
            case .done(let result): return result
            case .suspend(let made): requested = made
            }
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Continuation) in
                self.enqueue(continuation, requested: requested)
            }.result
        } onCancel: {
            self.cancel()
        }
    }

    /// How the part of `next()` that does not suspend ended.
    @usableFromInline
    enum Attempt {
        case done(Result<Output?, Failure>)
        /// The call must wait; `requested` says whether its value has been requested already.
        case suspend(requested: Bool)
    }

    /// The part of `next()` that does not suspend: a value already answered, a stored
    /// completion, or a request that the upstream answers before it returns.
    @inlinable
    func nextWithoutSuspending() -> Attempt {
        // The answer and the subscription come out of the lock apart: copying an enum that
        // carries both would go through its value witnesses.
        var answer: Result<Output?, Failure>?
        let subscription: SubscriptionHandle? = withMachine { state in
            if state.hasAnswer, let result = Self.takeAnswer(&state) {
                answer = result
                return nil
            }
            guard case .subscribed(let subscription) = state.upstream else { return nil }
            // Counted until the value arrives, or the call's continuation takes its place in
            // `waiting`.
            state.unclaimed += 1
            return subscription
        }
        guard let subscription else {
            if let answer { return .done(answer) }
            // Not subscribed yet: the suspending path records the demand for the subscription.
            return .suspend(requested: false)
        }
        subscription.request(.max(1))
        return withMachine { state in
            if state.hasAnswer, let result = Self.takeAnswer(&state) { return .done(result) }
            return .suspend(requested: true)
        }
    }

    /// A value that answered an earlier request, or else the stored completion (reported once,
    /// later calls get `nil`); `nil` when there is neither. Callers test
    /// ``State/hasAnswer`` first: even a call that finds nothing costs a debug build a look-up of
    /// the metadata of each optional it handles.
    @inlinable
    static func takeAnswer(_ state: inout State) -> Result<Output?, Failure>? {
        // `count`, a stored field, first: a debug build looks up `Optional<Output>`'s metadata for
        // every `popFirst()`.
        if state.ready.count != 0, let value = state.ready.popFirst() { return .success(value) }
        return takeCompletion(&state)
    }

    /// ``takeAnswer(_:)`` with no value ready: the stored completion. A function of its own, so
    /// that a debug build looks up the metadata of the completion's optionals only when it
    /// comes here, not for every value.
    @inlinable
    static func takeCompletion(_ state: inout State) -> Result<Output?, Failure>? {
        guard let pending = state.completion else { return nil }
        state.completion = .some(nil)
        return pending.map(Self.result(of:)) ?? .success(nil)
    }

    /// Registers a suspended `next()`; requests its value unless `requested`.
    @inlinable
    func enqueue(_ continuation: Continuation, requested: Bool) {
        let action: NextAction = withMachine { state in
            if state.hasAnswer, let result = Self.takeAnswer(&state) { return .resume(result) }
            state.waiting.append(continuation)
            switch state.upstream {
            case .subscribed(let subscription):
                guard requested else { return .request(subscription) }
                // The request this call made is now the waiter's.
                state.unclaimed -= 1
                return .wait
            case .awaitingSubscription:
                state.pendingDemand += 1
                return .wait
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

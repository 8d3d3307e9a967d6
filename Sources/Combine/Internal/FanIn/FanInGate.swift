/// The downstream half shared by the operators that gather events from several upstreams
/// (merge, combineLatest, zip, switchToLatest): it serialises delivery to one subscriber.
///
/// Upstreams may call in concurrently, but a subscriber must see one call at a time and no lock
/// may be held while calling it. So events go into `queue`; whichever thread finds nobody
/// delivering becomes the *emitter* (`emitting == true`) and drains the queue outside the lock,
/// one value per demand, then the completion. Other threads only enqueue and leave. Reentrant
/// sends (a subscriber that sends into its own source) are queued the same way, so they are
/// delivered after the current call returns instead of recursing.
///
/// This is a pure value: every method runs under the owner's lock and returns the next step; the
/// owner performs the step after unlocking and comes back with ``delivered(additional:)``.
@usableFromInline
struct FanInGate<Downstream: Subscriber>: FanInCompletionDeciding {
    @usableFromInline
    typealias Input = Downstream.Input

    /// What the emitter does next, outside the lock.
    @usableFromInline
    enum Step {
        /// Nothing to do (or someone else is emitting).
        case idle
        /// Deliver `value`, then report the returned demand with ``delivered(additional:)``.
        case value(Downstream, Input)
        /// Deliver the completion; the gate is terminal afterwards.
        case completion(Downstream, Subscribers.Completion<Downstream.Failure>)
    }

    /// The subscriber, released as soon as it completes or cancels.
    @usableFromInline
    var downstream: Downstream?

    /// Outstanding downstream demand, not yet spent on delivered values.
    @usableFromInline
    var demand: Subscribers.Demand = .none

    /// Values accepted from upstream and not yet delivered.
    @usableFromInline
    var queue = FanInQueue<Input>()

    /// Whether some thread is currently delivering (the emitter).
    @usableFromInline
    var emitting = false

    /// The completion to deliver once the queue has drained (a failure empties the queue).
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Whether the gate still accepts events (not cancelled, no completion decided).
    @inlinable
    var isOpen: Bool { downstream != nil && pendingCompletion == nil }

    /// Whether the downstream is gone (cancelled or completed).
    @inlinable
    var isTerminated: Bool { downstream == nil }

    /// Demand that no queued value is already waiting to spend.
    @inlinable
    var freeDemand: Subscribers.Demand { demand - queue.count }

    /// Queues a value from upstream; ignored once the gate is closed.
    @inlinable
    mutating func enqueue(_ value: Input) {
        guard isOpen else { return }
        queue.append(value)
    }

    /// Whether a value could go straight to the subscriber: open, not emitting, nothing queued,
    /// demand left. Then ``handOut(_:)`` does what ``offer(_:)`` would, minus the checks.
    @inlinable
    var canHandOut: Bool { !emitting && queue.isEmpty && demand > 0 && isOpen }

    /// Starts emitting `value`; only when ``canHandOut`` holds.
    @inlinable
    mutating func handOut(_ value: Input) -> Step {
        emitting = true
        demand -= 1
        return .value(downstream.unsafelyUnwrapped, value)
    }

    /// Accepts a value from upstream: hands it straight out when nobody is emitting, nothing is
    /// queued and there is demand (the common, uncontended case skips the queue); otherwise
    /// queues it and becomes the emitter if nobody is.
    @inlinable
    mutating func offer(_ value: Input) -> Step {
        guard isOpen else { return .idle }
        if !emitting, queue.isEmpty, demand > 0, let downstream {
            emitting = true
            demand -= 1
            return .value(downstream, value)
        }
        queue.append(value)
        return kick()
    }

    /// Adds downstream demand.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard downstream != nil else { return }
        demand += more
    }


    /// Cancels: drops the subscriber and everything queued.
    @inlinable
    mutating func cancel() {
        downstream = nil
        queue.removeAll()
        pendingCompletion = nil
    }

    /// Becomes the emitter if nobody is, and returns the first step to perform.
    @inlinable
    mutating func kick() -> Step {
        if emitting { return .idle }
        emitting = true
        return next()
    }

    /// For the emitter: records the demand the subscriber returned and returns the next step.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Step {
        if downstream != nil, additional != .none { demand += additional }
        return next()
    }

    /// For the emitter: the next value (when demand allows), else the completion once the queue
    /// is empty, else stop emitting.
    @inlinable
    mutating func next() -> Step {
        guard let downstream else {
            emitting = false
            return .idle
        }
        if !queue.isEmpty {
            if demand > 0, let value = queue.popFirst() {
                demand -= 1
                return .value(downstream, value)
            }
            emitting = false
            return .idle
        }
        if let completion = pendingCompletion {
            self.downstream = nil
            pendingCompletion = nil
            emitting = false
            return .completion(downstream, completion)
        }
        emitting = false
        return .idle
    }
}

extension FanInGate {
    /// Performs `first` and every step after it, outside any lock.
    ///
    /// `resume` is called with the demand each delivered value returned; it re-enters the owner's
    /// lock, records the demand (``delivered(additional:)``) and returns the next step.
    @inlinable
    static func drain(_ first: consuming Step, resume: (Subscribers.Demand) -> Step) {
        var step = first
        while true {
            // Consumed, not copied: the subscriber reference moves out of the step instead of
            // being retained once more and released with the old step.
            switch consume step {
            case .idle:
                return
            case .value(let downstream, let value):
                step = resume(downstream.receive(value))
            case .completion(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            }
        }
    }
}

/// The completion rules fan-in states share (``FanInGate``, flatMap's state machine): a value
/// queue, and a completion decided once and delivered after the queue drains.
@usableFromInline
protocol FanInCompletionDeciding {
    associatedtype Downstream: Subscriber
    /// Whether a completion may still be decided (not cancelled, none decided yet).
    var isOpen: Bool { get }
    var queue: FanInQueue<Downstream.Input> { get set }
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>? { get set }
}

extension FanInCompletionDeciding {
    /// Decides a normal finish, delivered after the queued values.
    @inlinable
    mutating func finish() {
        guard isOpen else { return }
        pendingCompletion = .finished
    }

    /// Decides a failure: queued values are dropped and the failure goes out next.
    @inlinable
    mutating func fail(_ error: Downstream.Failure) {
        guard isOpen else { return }
        queue.removeAll()
        pendingCompletion = .failure(error)
    }
}

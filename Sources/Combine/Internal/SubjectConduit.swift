import Synchronization

/// What a ``SubjectConduit`` needs from the subject that owns it.
@usableFromInline
protocol SubjectConduitParent<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    /// The conduit's subscriber asked for values for the first time: the subject starts asking
    /// its own upstream subscriptions for values. A `CurrentValueSubject` returns its current
    /// value, which the conduit then delivers; a `PassthroughSubject` returns `nil`.
    func conduitReceivedFirstDemand() -> Output?

    /// The conduit was cancelled and must no longer receive values.
    func conduitCancelled(_ conduit: SubjectConduit<Output, Failure>)
}

/// The subscription a subject gives each of its subscribers (both `PassthroughSubject` and
/// `CurrentValueSubject` use it, as do `@Published` and `ObservableObjectPublisher`).
///
/// It is generic only over the subject's `Output` and `Failure`, so the subject keeps all its
/// conduits in one plain array and visits them in subscription order. The subscriber itself is
/// reached through a closure built in the subject's `@inlinable receive(subscriber:)`, i.e.
/// compiled for the concrete subscriber type in the caller's module.
///
/// Demand is counted per conduit: a value offered when the subscriber has no outstanding demand
/// is dropped for that subscriber. Calls into the subscriber are serialized without holding a
/// lock while calling out: one thread at a time is "emitting"; a value or completion offered
/// meanwhile (from another thread, or reentrantly from inside the subscriber) has its demand
/// reserved and is queued, and the emitting thread delivers the queue in order right after its
/// current call returns. The queue is allocated only when that happens.
///
/// The emitting flag lives in an atomic word next to a `slow` flag. While the subscriber's demand
/// is unlimited, nothing is queued and the conduit is open, `slow` is clear and a value is
/// delivered with two compare-and-swaps (take the emitting flag, give it back) and no lock.
/// Everything else takes the mutex: finite demand, queueing, completion, cancellation. `slow` is
/// only changed under the mutex; a slow-path thread that queues something sets it in the same
/// atomic operation that finds the emitter busy, so the emitter's give-back fails and it drains
/// the queue under the mutex.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    /// One delivery to the subscriber.
    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// Delivers an event to the subscriber and returns its extra demand (`.none` for completion).
    @usableFromInline
    typealias Deliver = (Event) -> Subscribers.Demand

    /// Holds the delivery closure. The subscriber is handed around as this class reference rather
    /// than as a bare closure: a closure returned through the generic `withLock` would be
    /// re-abstracted, which allocates a thunk each time.
    @usableFromInline
    final class Downstream {
        @usableFromInline
        let deliver: Deliver

        @inlinable
        init(_ deliver: @escaping Deliver) {
            self.deliver = deliver
        }
    }

    /// Bits of `flags`.
    @usableFromInline static var emittingFlag: UInt8 { 1 }
    @usableFromInline static var slowFlag: UInt8 { 2 }

    @usableFromInline
    struct State {
        /// The subject; its concrete type is known to the hooks, which downcast it.
        @usableFromInline var parent: AnyObject?
        @usableFromInline var demand: Subscribers.Demand = .none
        /// False once a completion was accepted or the conduit cancelled.
        @usableFromInline var accepting = true
        /// Whether the parent has been told about the first demand.
        @usableFromInline var reportedDemand = false
        /// Events waiting for the emitting thread; read from `pendingHead`.
        @usableFromInline var pending: ContiguousArray<Event> = []
        @usableFromInline var pendingHead = 0

        @inlinable
        init(parent: AnyObject) {
            self.parent = parent
        }

        @inlinable
        var hasPending: Bool { pendingHead < pending.count }

        /// Whether values may take the lock-free path: open, unlimited demand, nothing queued.
        @inlinable
        var allowsFastPath: Bool {
            accepting && demand == .unlimited && !hasPending
        }

        @inlinable
        mutating func takePending() -> Event? {
            if pendingHead < pending.count {
                let event = pending[pendingHead]
                pendingHead += 1
                return event
            }
            if !pending.isEmpty {
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
            }
            return nil
        }
    }

    @usableFromInline
    let state: LockedState<State>

    /// `emittingFlag | slowFlag`. `slowFlag` changes only under the mutex; `emittingFlag` is taken
    /// either lock-free (from 0) or under the mutex, and only its holder clears it.
    @usableFromInline
    let flags = Atomic<UInt8>(0)

    /// The subscriber; `nil` once completed or cancelled, which releases it. Read only by the
    /// thread holding `emittingFlag`, or under the mutex; written only under the mutex by the
    /// emitter, or by a thread that set `slowFlag` while no one was emitting (after which no one
    /// can start emitting without the mutex).
    ///
    /// `@exclusivity(unchecked)`: the protocol above already guarantees that no two threads touch
    /// it at once, and the runtime's dynamic exclusivity check cost more than the rest of a
    /// delivery (about 110 of 370 instructions per value, measured with callgrind).
    @exclusivity(unchecked) @usableFromInline
    var downstream: Downstream?

    /// The subject's name as `print()` shows the subscription: `PassthroughSubject` or
    /// `CurrentValueSubject`.
    @usableFromInline
    let name: StaticString

    /// `performRequest` and `performCancel`, compiled for the concrete subject type.
    ///
    /// `request(_:)` and `cancel()` are reached through the `Subscription` existential, where the
    /// code of a generic class runs unspecialised and pays a metadata lookup per generic type it
    /// touches. These closures are built in the `@inlinable` initializer, which the subject calls
    /// from its own `@inlinable receive(subscriber:)`, so they run specialised code instead. They
    /// capture nothing and cost no allocation.
    @usableFromInline
    let requestHook: (SubjectConduit, Subscribers.Demand) -> Void

    @usableFromInline
    let cancelHook: (SubjectConduit) -> Void

    @inlinable
    init<Parent: SubjectConduitParent>(name: StaticString, parent: Parent, downstream: @escaping Deliver)
    where Parent.Output == Output, Parent.Failure == Failure {
        self.name = name
        self.state = LockedState(State(parent: parent))
        self.downstream = Downstream(downstream)
        // The subscribing thread owns delivery until the subscriber has its subscription, so
        // nothing reaches the subscriber before `receive(subscription:)`.
        flags.store(Self.emittingFlag | Self.slowFlag, ordering: .releasing)
        self.requestHook = { conduit, demand in conduit.performRequest(demand, parentType: Parent.self) }
        self.cancelHook = { conduit in conduit.performCancel(parentType: Parent.self) }
    }

    /// Ends the subscribing thread's turn: call right after `receive(subscription:)` returned.
    /// Delivers what was offered meanwhile.
    @inlinable
    func subscriptionDelivered() {
        drain(extra: .none)
    }

    /// Offers one value: delivered now, queued behind a delivery in progress, or dropped when the
    /// subscriber has no outstanding demand.
    @inlinable
    func offer(_ value: Output) {
        if flags.compareExchange(expected: 0, desired: Self.emittingFlag, ordering: .acquiring).exchanged {
            // Open, unlimited demand, nothing queued, and now ours: no bookkeeping needed.
            _ = downstream.unsafelyUnwrapped.deliver(.value(value))
            if flags.compareExchange(expected: Self.emittingFlag, desired: 0, ordering: .releasing).exchanged {
                return
            }
            drain(extra: .none)
            return
        }
        let mustDeliver = state.withLock { state -> Bool in
            guard state.accepting, state.demand.rawValue != 0, downstream != nil else { return false }
            state.demand -= 1
            let before = flags.bitwiseOr(Self.emittingFlag | Self.slowFlag, ordering: .acquiringAndReleasing).oldValue
            if before & Self.emittingFlag != 0 {
                state.pending.append(.value(value))
                return false
            }
            return true
        }
        guard mustDeliver else { return }
        let extra = downstream.unsafelyUnwrapped.deliver(.value(value))
        drain(extra: extra)
    }

    /// Offers the completion: delivered now or after the delivery in progress; nothing follows.
    @inlinable
    func offer(completion: Subscribers.Completion<Failure>) {
        let mustDeliver = state.withLock { state -> Bool in
            guard state.accepting, downstream != nil else { return false }
            state.accepting = false
            let before = flags.bitwiseOr(Self.emittingFlag | Self.slowFlag, ordering: .acquiringAndReleasing).oldValue
            if before & Self.emittingFlag != 0 {
                state.pending.append(.completion(completion))
                return false
            }
            return true
        }
        guard mustDeliver else { return }
        deliverCompletion(completion)
    }

    /// Called by the emitter: delivers the completion, then releases the subscriber and the
    /// subject (outside the lock) and ends the emitting turn for good.
    @inlinable
    func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
        _ = downstream.unsafelyUnwrapped.deliver(.completion(completion))
        var released: Downstream?
        var parent: AnyObject?
        state.withLock { state in
            swap(&released, &downstream)
            swap(&parent, &state.parent)
            flags.store(Self.slowFlag, ordering: .releasing)
        }
        _ = released
        _ = parent
    }

    /// Called by the emitter after each delivery: adds the subscriber's extra demand, delivers
    /// queued events until there are none, then ends the emitting turn.
    @inlinable
    func drain(extra: Subscribers.Demand) {
        var extra = extra
        while true {
            var released: Downstream?
            let next = state.withLock { state -> Event? in
                if extra.rawValue != 0, state.accepting { state.demand += extra }
                if let event = state.takePending() { return event }
                if !state.accepting {
                    // Cancelled while this thread was delivering: it releases the subscriber.
                    swap(&released, &downstream)
                }
                flags.store(state.allowsFastPath ? 0 : Self.slowFlag, ordering: .releasing)
                return nil
            }
            switch next {
            case nil:
                _ = released
                return
            case .value(let value)?:
                extra = downstream.unsafelyUnwrapped.deliver(.value(value))
            case .completion(let completion)?:
                deliverCompletion(completion)
                return
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("\(name) subscription request(_:)")
        requestHook(self, demand)
    }

    @inlinable
    func performRequest<Parent: SubjectConduitParent>(_ demand: Subscribers.Demand, parentType: Parent.Type)
    where Parent.Output == Output, Parent.Failure == Failure {
        let parent = state.withLock { state -> AnyObject? in
            guard state.accepting, downstream != nil else { return nil }
            state.demand += demand
            if state.allowsFastPath {
                flags.bitwiseAnd(~Self.slowFlag, ordering: .acquiringAndReleasing)
            }
            if state.reportedDemand { return nil }
            state.reportedDemand = true
            return state.parent
        }
        if let parent, let current = unsafeDowncast(parent, to: Parent.self).conduitReceivedFirstDemand() {
            offer(current)
        }
    }

    @inlinable
    func cancel() {
        cancelHook(self)
    }

    @inlinable
    func performCancel<Parent: SubjectConduitParent>(parentType: Parent.Type)
    where Parent.Output == Output, Parent.Failure == Failure {
        // Everything released here (subscriber, subject, queued values) is dropped after the
        // lock is left. Moved out through locals rather than a returned tuple: this method is
        // reached through the `Subscription` existential, unspecialised, where a tuple type would
        // cost a metadata lookup.
        var released: Downstream?
        var parent: AnyObject?
        var dropped = ContiguousArray<Event>()
        state.withLock { state in
            state.accepting = false
            swap(&dropped, &state.pending)
            state.pendingHead = 0
            swap(&parent, &state.parent)
            let before = flags.bitwiseOr(Self.slowFlag, ordering: .acquiringAndReleasing).oldValue
            if before & Self.emittingFlag == 0 {
                // No one is delivering and no one can start: release the subscriber now.
                // Otherwise the emitting thread releases it when its turn ends.
                swap(&released, &downstream)
            }
        }
        if let parent {
            unsafeDowncast(parent, to: Parent.self).conduitCancelled(self)
        }
        _ = released
        _ = dropped
    }

    @usableFromInline
    var description: String { "\(name)" }

    @usableFromInline
    var customMirror: Mirror {
        let (parent, demand) = state.withLock { ($0.parent, $0.demand) }
        return Mirror(self, children: ["parent": parent as Any, "demand": demand])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

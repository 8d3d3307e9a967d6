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
/// `CurrentValueSubject` use it).
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

    /// Holds the delivery closure. The state hands the subscriber out of the lock as this class
    /// reference rather than as a bare closure: a closure returned through the generic `withLock`
    /// would be re-abstracted, which allocates a thunk on every value.
    @usableFromInline
    final class Downstream {
        @usableFromInline
        let deliver: Deliver

        @inlinable
        init(_ deliver: @escaping Deliver) {
            self.deliver = deliver
        }
    }

    @usableFromInline
    struct State {
        /// The subscriber; `nil` once completed or cancelled, which releases it.
        @usableFromInline var downstream: Downstream?
        /// The subject; its concrete type is known to the hooks, which downcast it.
        @usableFromInline var parent: AnyObject?
        @usableFromInline var demand: Subscribers.Demand = .none
        /// A thread is inside the subscriber (or owns the right to call it).
        @usableFromInline var emitting: Bool
        /// False once a completion was accepted or the conduit cancelled.
        @usableFromInline var accepting = true
        /// Whether the parent has been told about the first demand.
        @usableFromInline var reportedDemand = false
        /// Events waiting for the emitting thread; read from `pendingHead`.
        @usableFromInline var pending: ContiguousArray<Event> = []
        @usableFromInline var pendingHead = 0

        @inlinable
        init(downstream: Downstream, parent: AnyObject) {
            self.downstream = downstream
            self.parent = parent
            // The subscribing thread owns delivery until the subscriber has its subscription, so
            // nothing reaches the subscriber before `receive(subscription:)`.
            self.emitting = true
        }

        /// Takes the next queued event, or ends the emitting turn when there is none.
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
            emitting = false
            return nil
        }
    }

    @usableFromInline
    let state: LockedState<State>

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
        self.state = LockedState(State(downstream: Downstream(downstream), parent: parent))
        self.requestHook = { conduit, demand in conduit.performRequest(demand, parentType: Parent.self) }
        self.cancelHook = { conduit in conduit.performCancel(parentType: Parent.self) }
    }

    /// Ends the subscribing thread's turn: call right after `receive(subscription:)` returned.
    /// Delivers what was offered meanwhile.
    @inlinable
    func subscriptionDelivered() {
        guard let downstream = state.withLock({ $0.downstream }) else {
            state.withLock { $0.emitting = false }
            return
        }
        drain(downstream, extra: .none)
    }

    /// Offers one value: delivered now, queued behind a delivery in progress, or dropped when the
    /// subscriber has no outstanding demand.
    @inlinable
    func offer(_ value: Output) {
        let deliver = state.withLock { state -> Downstream? in
            guard state.accepting, state.demand.rawValue != 0, let downstream = state.downstream else { return nil }
            state.demand -= 1
            if state.emitting {
                state.pending.append(.value(value))
                return nil
            }
            state.emitting = true
            return downstream
        }
        guard let deliver else { return }
        let extra = deliver.deliver(.value(value))
        drain(deliver, extra: extra)
    }

    /// Offers the completion: delivered now or after the delivery in progress; nothing follows.
    @inlinable
    func offer(completion: Subscribers.Completion<Failure>) {
        let deliver = state.withLock { state -> Downstream? in
            guard state.accepting, let downstream = state.downstream else { return nil }
            state.accepting = false
            if state.emitting {
                state.pending.append(.completion(completion))
                return nil
            }
            state.emitting = true
            return downstream
        }
        guard let deliver else { return }
        deliverCompletion(deliver, completion)
    }

    @inlinable
    func deliverCompletion(_ deliver: Downstream, _ completion: Subscribers.Completion<Failure>) {
        _ = deliver.deliver(.completion(completion))
        // Release the subscriber and the subject outside the lock.
        let released = state.withLock { state in
            defer {
                state.downstream = nil
                state.parent = nil
                state.emitting = false
            }
            return (state.downstream, state.parent)
        }
        withExtendedLifetime(released) {}
    }

    /// Delivers queued events until the queue is empty, then ends the emitting turn.
    @inlinable
    func drain(_ deliver: Downstream, extra: Subscribers.Demand) {
        var extra = extra
        while true {
            let next = state.withLock { state -> Event? in
                if extra.rawValue != 0, state.accepting { state.demand += extra }
                return state.takePending()
            }
            switch next {
            case nil:
                return
            case .value(let value)?:
                extra = deliver.deliver(.value(value))
            case .completion(let completion)?:
                deliverCompletion(deliver, completion)
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
            guard state.accepting, state.downstream != nil else { return nil }
            state.demand += demand
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
        var downstream: Downstream?
        var parent: AnyObject?
        var dropped = ContiguousArray<Event>()
        state.withLock { state in
            state.accepting = false
            swap(&dropped, &state.pending)
            state.pendingHead = 0
            swap(&downstream, &state.downstream)
            swap(&parent, &state.parent)
        }
        if let parent {
            unsafeDowncast(parent, to: Parent.self).conduitCancelled(self)
        }
        _ = downstream
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

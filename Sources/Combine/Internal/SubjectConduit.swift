import Synchronization
import TributaryLocks

/// The subscription a subject gives each subscriber (``PassthroughSubject``,
/// ``CurrentValueSubject``, ``ObservableObjectPublisher`` and `@Published` all use it).
///
/// It is generic over the subject's `Output` and `Failure` (and its dispatcher's `Extra`), not over
/// the subscriber, so the subject keeps all its conduits in one plain array. The subscriber is
/// reached through two closures that capture nothing, built in the subject's `@inlinable`
/// `receive(subscriber:)` and therefore compiled for the concrete subscriber in the caller's
/// module; they receive the subscriber's box as an unowned pointer.
///
/// Demand is counted per conduit: a value the subscriber has no demand for is dropped for it. Only
/// the dispatcher's emitter calls into the subscriber (see ``SubjectDispatcher``). The bookkeeping
/// below is guarded by the dispatcher's mutex; `fast` is its lock-free summary for the emitter.
@usableFromInline
final class SubjectConduit<Output, Failure: Error, Extra>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    typealias Dispatcher = SubjectDispatcher<Output, Failure, Extra>

    /// Something waiting for the end of the handshake.
    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    @usableFromInline
    let dispatcher: Dispatcher

    /// The subject's name as `print()` shows the subscription.
    @usableFromInline
    let name: StaticString

    /// True while the subscriber may be called without the mutex: open, handshake over, demand
    /// unlimited. Written under the dispatcher's mutex, read by the emitter.
    @usableFromInline
    let fast = Atomic<Bool>(false)

    // Guarded by the dispatcher's mutex.
    @exclusivity(unchecked) @usableFromInline var demand: Subscribers.Demand = .none
    /// False once the completion was taken for delivery or the conduit was cancelled.
    @exclusivity(unchecked) @usableFromInline var accepting = true
    /// True until the subscriber's `receive(subscription:)` has returned and the emitter ran the
    /// conduit's `activate` job; values with demand meanwhile wait in `pending`.
    @exclusivity(unchecked) @usableFromInline var handshaking = true
    @exclusivity(unchecked) @usableFromInline var reportedDemand = false
    /// What arrived during the handshake. One array for values and completion: a stored
    /// `Completion<Failure>?` would make the (never specialised) deinit look up generic metadata
    /// on every subscription.
    @exclusivity(unchecked) @usableFromInline var pending: ContiguousArray<Event> = []
    /// The subject, kept alive while subscribed as Apple's subjects are; dropped on cancel.
    @exclusivity(unchecked) @usableFromInline var parent: AnyObject?

    /// Owns the subscriber's box until cancel or completion. Written only by the emitter, or by a
    /// canceller when no one emits (see ``SubjectDispatcher/removeLocked(_:_:)``).
    @exclusivity(unchecked) @usableFromInline
    var subscriberBox: AnyObject?

    /// The same box, unowned, for the calls below.
    @usableFromInline
    let subscriberPointer: UnsafeRawPointer

    @usableFromInline
    let receiveValue: (UnsafeRawPointer, Output) -> Subscribers.Demand

    @usableFromInline
    let receiveCompletion: (UnsafeRawPointer, Subscribers.Completion<Failure>) -> Void

    /// What the subject does on the first demand of any of its subscribers, under the mutex (it
    /// gets the dispatcher too, for a current value kept outside the mutex):
    /// returns the value to give this subscriber first (a current value) and the upstream
    /// subscriptions to ask for values (`nil` rather than an empty array: this runs on every
    /// subscription, and an optional costs no reference counting).
    @usableFromInline
    let firstDemand: (Dispatcher, inout Extra) -> (Output?, [any Subscription]?)

    /// `performRequest` and `performCancel`, compiled for the concrete types. `request(_:)` and
    /// `cancel()` are reached through the `Subscription` existential, where this generic class
    /// runs unspecialised; these closures capture nothing and run specialised code instead.
    @usableFromInline
    let requestHook: (SubjectConduit, Subscribers.Demand) -> Void

    @usableFromInline
    let cancelHook: (SubjectConduit) -> Void

    @inlinable
    init<S: Subscriber>(
        name: StaticString,
        parent: AnyObject,
        dispatcher: Dispatcher,
        subscriber: S,
        firstDemand: @escaping (Dispatcher, inout Extra) -> (Output?, [any Subscription]?)
    ) where S.Input == Output, S.Failure == Failure {
        self.name = name
        self.parent = parent
        self.dispatcher = dispatcher
        let box = SubscriberBox(subscriber)
        subscriberBox = box
        subscriberPointer = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
        receiveValue = { pointer, value in
            Unmanaged<SubscriberBox<S>>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                $0.subscriber.receive(value)
            }
        }
        receiveCompletion = { pointer, completion in
            Unmanaged<SubscriberBox<S>>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                $0.subscriber.receive(completion: completion)
            }
        }
        self.firstDemand = firstDemand
        requestHook = { conduit, demand in conduit.performRequest(demand) }
        cancelHook = { conduit in conduit.performCancel() }
    }

    /// Drops the subscriber's box; the caller lets go of the result outside any lock.
    @inlinable
    func takeSubscriber() -> AnyObject? {
        var box: AnyObject?
        swap(&box, &subscriberBox)
        return box
    }

    /// Under the mutex: recomputes `fast`.
    @inlinable
    func updateFastLocked() {
        fast.store(accepting && !handshaking && demand == .unlimited, ordering: .releasing)
    }

    // MARK: Emitter side

    /// Offers a value; the emitter's per-value path.
    @inlinable
    func emit(_ value: Output) {
        if fast.load(ordering: .acquiring) {
            _ = receiveValue(subscriberPointer, value)
            return
        }
        emitSlow(value)
    }

    /// Offers a value with the bookkeeping: demand, handshake.
    @inlinable
    func emitSlow(_ value: Output) {
        let deliverNow = dispatcher.state.withLock { _ -> Bool in
            guard accepting, demand.rawValue != 0 else { return false }
            demand -= 1
            if handshaking {
                pending.append(.value(value))
                return false
            }
            return true
        }
        guard deliverNow else { return }
        addDemand(receiveValue(subscriberPointer, value))
    }

    /// Adds the demand a subscriber returned from `receive(_:)`.
    @inlinable
    func addDemand(_ extra: Subscribers.Demand) {
        guard extra.rawValue != 0 else { return }
        dispatcher.state.withLock { _ in
            guard accepting else { return }
            demand += extra
            updateFastLocked()
        }
    }

    /// Offers the completion; afterwards the conduit lets go of its subscriber and subject.
    @inlinable
    func emit(completion: Subscribers.Completion<Failure>) {
        var parent: AnyObject?
        let deliverNow = dispatcher.state.withLock { _ -> Bool in
            guard accepting else { return false }
            accepting = false
            updateFastLocked()
            swap(&parent, &self.parent)
            if handshaking {
                pending.append(.completion(completion))
                return false
            }
            return true
        }
        _ = parent
        guard deliverNow else { return }
        receiveCompletion(subscriberPointer, completion)
        _ = takeSubscriber()
    }

    /// Ends the handshake: delivers what waited for it, then lets the emitter call freely. The
    /// caller holds the emitter role.
    @inlinable
    func activate() {
        var waiting = ContiguousArray<Event>()
        dispatcher.state.withLock { _ in
            handshaking = false
            swap(&waiting, &pending)
            updateFastLocked()
        }
        for event in waiting {
            switch event {
            case .value(let value):
                addDemand(receiveValue(subscriberPointer, value))
            case .completion(let completion):
                receiveCompletion(subscriberPointer, completion)
                _ = takeSubscriber()
                return
            }
        }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("\(name) subscription request(_:)")
        requestHook(self, demand)
    }

    @inlinable
    func performRequest(_ demand: Subscribers.Demand) {
        var upstreams: [any Subscription]?
        var runNow: Output?
        var giveBack = false
        dispatcher.state.withLock { state in
            guard accepting else { return }
            self.demand += demand
            updateFastLocked()
            guard !reportedDemand else { return }
            reportedDemand = true
            let (current, subjectUpstreams) = firstDemand(dispatcher, &state.extra)
            upstreams = subjectUpstreams
            guard let current else { return }
            var unused = ContiguousArray<SubjectConduit>()
            switch dispatcher.takeRoleOrQueueLocked(&state, .single(self, current), nestedList: &unused) {
            case .taken:
                runNow = current
                giveBack = true
            case .nested:
                runNow = current
            case .busy:
                break
            }
        }
        if let upstreams {
            for upstream in upstreams {
                upstream.request(.unlimited)
            }
        }
        if let runNow {
            emitSlow(runNow)
            if giveBack { dispatcher.giveBackRole() }
        }
    }

    @inlinable
    func cancel() {
        cancelHook(self)
    }

    @inlinable
    func performCancel() {
        // Everything released here (subscriber, subject, waiting values) is dropped after the
        // mutex is left.
        var parent: AnyObject?
        var waiting = ContiguousArray<Event>()
        let releaseNow = dispatcher.state.withLock { state -> Bool in
            guard accepting else { return false }
            accepting = false
            updateFastLocked()
            swap(&parent, &self.parent)
            if !pending.isEmpty {
                swap(&waiting, &pending)
            }
            return dispatcher.removeLocked(&state, self)
        }
        if releaseNow {
            _ = takeSubscriber()
        }
        _ = parent
        _ = waiting
    }

    @usableFromInline
    var description: String { "\(name)" }

    @usableFromInline
    var customMirror: Mirror {
        let (parent, demand) = dispatcher.state.withLock { _ in (self.parent, self.demand) }
        return Mirror(self, children: ["parent": parent as Any, "demand": demand])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

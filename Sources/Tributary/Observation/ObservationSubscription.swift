import Combine
import Observation
import TributaryLocks

/// The subscription of ``ObservationPublisher``: reads the property under
/// `withObservationTracking`, hands the read that follows each reported change to the scheduler,
/// and delivers one value at a time. The decisions are ``ObservationStateMachine``'s, made under
/// `state`'s lock; this class performs them after unlocking.
///
/// The model is held weakly, so a model that subscribes to its own properties and keeps the
/// cancellable does not keep itself alive. Each installed tracking keeps this object (through the
/// `onChange` closure the model's registrar holds until the next change); that is why everything
/// the user handed in lives in the state machine, which lets go of it when the subscription ends.
///
/// The model is a `weak let`: never assigned after `init`, so loading it needs no exclusivity
/// check, only the weak load (which retains the model for the read). A weak reference moves the
/// model's reference counts to a side table, which makes every retain and release of the model
/// take the runtime's slow path (about 300 instructions per change in row 9c of the benchmarks):
/// the price of not keeping the model alive.
///
/// `@unchecked Sendable`: the `onChange` closure must be `@Sendable`, and it captures this object.
/// Every mutable field is in `state`, guarded by its lock; `object` is immutable (weak loads are
/// atomic).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@usableFromInline
final class ObservationSubscription<Object: AnyObject & Observable, Context: Scheduler, Downstream: Subscriber>:
    ObservationChangeTarget, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Never {
    @usableFromInline typealias Output = Downstream.Input

    /// What a read needs.
    @usableFromInline
    struct Reader {
        @usableFromInline let keyPath: KeyPath<Object, Output>
        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?

        @inlinable
        init(keyPath: KeyPath<Object, Output>, scheduler: Context, options: Context.SchedulerOptions?) {
            self.keyPath = keyPath
            self.scheduler = scheduler
            self.options = options
        }
    }

    @usableFromInline typealias Machine = ObservationStateMachine<Output, Downstream, Reader>

    @usableFromInline weak let object: Object?
    @usableFromInline let state: LockedState<Machine>

    @inlinable
    init(object: Object, reader: Reader, downstream: Downstream) {
        self.object = object
        state = LockedState(Machine(downstream: downstream, reader: reader))
        // The target is always this class: only this initialiser makes the hook.
        super.init { target, generation in
            unsafeDowncast(target, to: ObservationSubscription.self).changed(generation: generation)
        }
    }

    @usableFromInline
    var description: String { "ObservationPublisher" }

    /// The first read, made by the subscribing thread before the subscriber has the subscription:
    /// the value waits for the subscriber's first demand.
    @inlinable
    func start(with object: Object) {
        guard case .read(let generation, let reader) = state.withLock({ $0.beginRead(on: .current) }) else { return }
        read(object, generation: generation, reader: reader)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none {
            fatalError("Combine API misuse: ObservationPublisher's Subscription.request(_:) was called with .none; a subscriber must request at least one value.")
        }
        perform(state.withLock { $0.request(demand) })
    }

    @usableFromInline
    func cancel() {
        // Released here, after the lock.
        _ = state.withLock { $0.cancel() }
    }

    /// The `onChange` of the tracking tagged `generation`. The model calls it from inside its
    /// `willSet`, on the thread that changes it, before the new value is stored: nothing can be
    /// read here, so the read is handed to the scheduler.
    @inlinable
    func changed(generation: UInt64) {
        let thread = ThreadIdentity.current
        guard let reader = state.withLock({ $0.changed(generation: generation, on: thread) }) else { return }
        reader.scheduler.schedule(options: reader.options) { self.scheduledRead() }
        state.withLock { $0.handedOver(on: thread) }
    }

    /// A read handed to the scheduler.
    @inlinable
    func scheduledRead() {
        switch state.withLock({ $0.beginRead(on: .current) }) {
        case .stop:
            return
        case .synchronousScheduler:
            Self.synchronousSchedulerTrap()
        case .read(let generation, let reader):
            guard let object else {
                perform(state.withLock { $0.modelGone() })
                return
            }
            read(object, generation: generation, reader: reader)
        }
    }

    /// Reads the property, installing the tracking tagged `generation`, and offers the value.
    @inlinable
    func read(_ object: Object, generation: UInt64, reader: Reader) {
        let keyPath = reader.keyPath
        let target: ObservationChangeTarget = self
        let value = withObservationTracking {
            object[keyPath: keyPath]
        } onChange: {
            target.changeHook(target, generation)
        }
        perform(state.withLock { $0.endRead(value, generation: generation) })
    }

    /// Performs an action returned by the state machine, outside the lock. Delivering loops while
    /// values arrive during the subscriber's `receive(_:)`, so only one thread delivers at a time.
    @inlinable
    func perform(_ action: Machine.Action) {
        var action = action
        while true {
            switch action {
            case .none:
                return
            case .deliver(let value, let downstream):
                let more = downstream.receive(value)
                action = state.withLock { $0.delivered(more) }
            case .scheduleRead(let reader):
                reader.scheduler.schedule(options: reader.options) { self.scheduledRead() }
                return
            case .finish(let downstream):
                downstream.receive(completion: .finished)
                return
            }
        }
    }

    @usableFromInline
    static func synchronousSchedulerTrap() -> Never {
        fatalError("""
            ObservationPublisher: the scheduler ran the read of the property inside schedule(options:_:), \
            while the model was still in its willSet, before the new value is stored (ImmediateScheduler \
            does this). Read on a scheduler that runs actions later: the queue, run loop or actor \
            executor the model is changed on, or a TestScheduler in tests.
            """)
    }
}

/// What the `onChange` closure of a tracking captures: an object of a type that is not generic.
///
/// The closure must be `@Sendable`, and a `@Sendable` closure formed inside the generic
/// subscription would capture its type parameters' metatypes, which are not `Sendable`. It reaches
/// the subscription through `changeHook` instead, a closure made in the subscription's initialiser,
/// so compiled for its concrete types where the caller's module specialises them (a method
/// overridden from here would be reached through the generic class's vtable, unspecialised).
///
/// `@unchecked Sendable`: `changeHook` is immutable and captures nothing; subclasses guard their
/// own state.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@usableFromInline
class ObservationChangeTarget: @unchecked Sendable {
    @usableFromInline let changeHook: (ObservationChangeTarget, UInt64) -> Void

    @inlinable
    init(changeHook: @escaping (ObservationChangeTarget, UInt64) -> Void) {
        self.changeHook = changeHook
    }
}

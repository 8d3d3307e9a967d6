import Synchronization

/// The subscription a subject gives each subscriber (``PassthroughSubject``,
/// ``CurrentValueSubject``, ``ObservableObjectPublisher`` and `@Published` all use it), as far as
/// it does not depend on the subject's `Output` and `Failure`: the dispatcher's bookkeeping about
/// this subscriber, `request`, `cancel`, the description and the mirror. Compiled once in the
/// library; the generic subclass ``SubjectDispatcher/Conduit`` adds the call to the subscriber.
///
/// A subscriber reaches `request(_:)` and `cancel()` through the `Subscription` existential. The
/// witnesses are this class's methods, which need no type metadata, so they run at full speed
/// from the library; only a subject with a current value, which may have to give that value at
/// once, goes on to code specialised for it (``SubjectDispatcherCore/requestHook``).
///
/// A conduit is part of its dispatcher. Its ``guarded`` fields are the dispatcher's state about
/// this one subscriber, stored here so that reaching them costs no look-up; only the dispatcher
/// reads or writes them, under its mutex, and `fast` is their lock-free summary for the emitter.
@usableFromInline
class SubjectConduitCore: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    /// The dispatcher's bookkeeping for this subscriber, guarded by the dispatcher's mutex.
    @usableFromInline
    struct Guarded {
        /// What the subscriber may still receive; a value without demand is dropped for it.
        @usableFromInline var demand: Subscribers.Demand = .none
        /// False once the completion was taken for delivery or the conduit was cancelled.
        /// While it is set, the dispatcher holds the subject for this subscription (see
        /// `State.owner`).
        @usableFromInline var accepting = true
        /// True until the subscriber's `receive(subscription:)` has returned and the emitter ran
        /// the conduit's `activate` job; values with demand meanwhile wait in the dispatcher's
        /// `pending`.
        @usableFromInline var handshaking = true
        /// Whether this subscriber's first demand has been reported to the subject.
        @usableFromInline var reportedDemand = false
        /// A value was sent while this subscriber had no demand. A subject with a current
        /// value (`CurrentValueSubject`, `@Published`) then gives it the current value on its
        /// next request, as Apple's do: values sent without demand collapse into the latest.
        @usableFromInline var missedValue = false
        /// Something for this conduit waits in the dispatcher's `pending`, so that a conduit
        /// with nothing waiting never searches it.
        @usableFromInline var hasPending = false

        @usableFromInline
        init() {}
    }

    /// The subject's dispatcher: the conduit's `request`, `cancel` and mirror all go through
    /// it, and it outlives every conduit it made.
    @usableFromInline
    final let core: SubjectDispatcherCore

    /// Only under the dispatcher's mutex. Hence `@exclusivity(unchecked)`: the mutex already
    /// rules out overlapping access.
    @exclusivity(unchecked) @usableFromInline
    final var guarded = Guarded()

    /// True while the subscriber may be called without the mutex: open, handshake over, demand
    /// unlimited. Written under the dispatcher's mutex, read by the emitter. With the subclass's
    /// closure, the conduit's own fields end at 56 bytes: a subscriber of up to 32 bytes held
    /// in the conduit still fits a 96-byte malloc chunk.
    @usableFromInline
    final let fast = Atomic<Bool>(false)

    @usableFromInline
    init(core: SubjectDispatcherCore) {
        self.core = core
    }

    /// Under the dispatcher's mutex: recomputes `fast` from the bookkeeping.
    @inlinable
    final func updateFastLocked() {
        fast.store(
            guarded.accepting && !guarded.handshaking && guarded.demand == .unlimited, ordering: .releasing)
    }

    /// Gives the subscriber the completion, boxed as the dispatcher keeps it (see
    /// `SubjectDispatcherCore.State.completion`). Once per subscription, so a class method, not
    /// a field of every conduit, even though it runs unspecialised.
    @usableFromInline
    func receiveCompletion(_ completion: AnyObject) {}

    /// Lets go of the subscriber when it lives in a box of its own; the caller releases the
    /// result outside any lock. A folded conduit keeps its subscriber until it is deallocated
    /// itself.
    @usableFromInline
    func takeSubscriber() -> AnyObject? { nil }

    /// The subscriber, for the mirror; only read while the conduit is accepting.
    @usableFromInline
    var reflectedSubscriber: Any? { nil }

    @usableFromInline
    final func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("\(core.name) subscription request(_:)")
        if let requestHook = core.requestHook {
            requestHook(self, demand)
        } else {
            core.request(demand, for: self)
        }
    }

    @usableFromInline
    final func cancel() {
        core.cancel(self)
    }

    @usableFromInline
    var description: String { "\(core.name)" }

    /// Apple's shape: `parent`, `downstream`, `demand`, `subject`; `parent` and `downstream`
    /// become `nil` once the subscription is cancelled or completed. Apple's `subject` still
    /// shows the subject then; ours shows `nil` too, as nothing keeps a reference to the
    /// subject for a subscription after a cancel (a weak one would cost every subscription a
    /// side table).
    @usableFromInline
    var customMirror: Mirror {
        let (parent, downstream, demand) = core.state.withLock { state in
            // A boxed subscriber is only taken after `accepting` is cleared under this mutex,
            // so while it is set the box can be read here.
            guarded.accepting
                ? (state.owner, reflectedSubscriber, guarded.demand) : (nil, nil, guarded.demand)
        }
        if core.opensOnFirstRequest {
            // ObservableObjectPublisher's subscription counts no demand and shows only its
            // subscriber, as Apple's does.
            return Mirror(self, children: ["downstream": downstream as Any])
        }
        return Mirror(
            self,
            children: [
                "parent": parent as Any, "downstream": downstream as Any, "demand": demand,
                "subject": parent as Any,
            ])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

import Synchronization

extension Subscribers {
    /// A subscriber that asks for every value (`.unlimited`) and hands each value and the
    /// completion to a closure.
    ///
    /// Usually made with ``Publisher/sink(receiveCompletion:receiveValue:)``, which also wraps it
    /// in an ``AnyCancellable``. After the first completion or `cancel()` the sink ignores every
    /// event and releases its subscription. A second subscription is cancelled straight away (the
    /// sink serves one publisher only); Apple's Sink does the same rather than trapping.
    ///
    /// The value path reads one atomic word and takes no lock; subscribing costs two
    /// compare-and-exchanges, completing and cancelling one each, and the sink allocates nothing
    /// beyond itself.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// Called with each value.
        public let receiveValue: (Input) -> Void

        /// Called once, with the completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        /// Where the sink stands, one atomic word (see ``SinkPhase``). Every transition is a
        /// compare-and-exchange; whoever wins it owns ``upstream`` for that step, so the field is
        /// never touched by two threads at once and no lock is needed.
        @usableFromInline
        let phase: Atomic<Int>

        /// The upstream subscription while connected, otherwise a ``SinkVacantUpstream``. Written
        /// by `receive(subscription:)` in the `storing` phase; taken by the caller that moves the
        /// phase from `subscribed` to a terminal one (or by `receive(subscription:)` itself when
        /// it loses that race). (`@exclusivity(unchecked)`: the atomic phase already serialises
        /// every access.) Not an optional: an optional of this non-class existential is copied and
        /// destroyed through the runtime's generic witnesses, several times dearer than the
        /// existential itself.
        ///
        /// The sink never hands this subscription to other code and calls `request` on it only
        /// from `receive(subscription:)`: ``SinkOneValueSubscription`` (see ``receiveOneValue(_:)``)
        /// relies on both to hold the sink without a reference.
        @usableFromInline
        @exclusivity(unchecked)
        var upstream: any Subscription

        /// Makes a sink that calls `receiveCompletion` on completion and `receiveValue` per value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
            phase = Atomic(SinkPhase.awaiting)
            upstream = SinkVacantUpstream()
        }

        /// Keeps the first subscription and asks it for unlimited values; cancels any later one,
        /// and the first one too when the sink was cancelled before or while it arrived.
        @inlinable
        public func receive(subscription: any Subscription) {
            guard
                phase.compareExchange(
                    expected: SinkPhase.awaiting, desired: SinkPhase.storing, ordering: .acquiring
                ).exchanged
            else {
                subscription.cancel()
                return
            }
            upstream = subscription
            if phase.compareExchange(
                expected: SinkPhase.storing, desired: SinkPhase.subscribed, ordering: .acquiringAndReleasing
            ).exchanged {
                subscription.request(.unlimited)
            } else {
                // Cancelled (or, against the contract, completed) while storing: the sink still
                // owns the field, so it releases it and cancels the subscription.
                upstream = SinkVacantUpstream()
                subscription.cancel()
            }
        }

        /// Passes the value to ``receiveValue`` unless the sink has completed or been cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if phase.load(ordering: .acquiring) < SinkPhase.terminal {
                receiveValue(value)
            }
            return .none
        }

        /// Passes the first completion to ``receiveCompletion`` and releases the subscription.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            let left = terminate()
            guard left != SinkPhase.terminal else { return }
            if left == SinkPhase.subscribed {
                // Released here, before the closure runs.
                _ = takeUpstream()
            }
            receiveCompletion(completion)
        }

        /// Cancels the subscription; no value or completion is delivered afterwards. Before a
        /// subscription has arrived, a cancel is ignored, as on Apple's platforms: a subscription
        /// that arrives later is asked for everything.
        @inlinable
        public func cancel() {
            var current = phase.load(ordering: .relaxed)
            while current != SinkPhase.awaiting && current != SinkPhase.terminal {
                let (exchanged, original) = phase.compareExchange(
                    expected: current, desired: SinkPhase.terminal, ordering: .acquiringAndReleasing
                )
                if exchanged { break }
                current = original
            }
            guard current == SinkPhase.subscribed else { return }
            takeUpstream().cancel()
        }

        /// Moves the sink to its terminal phase and returns the phase it left (`terminal` when it
        /// already was). Only leaving `subscribed` hands ``upstream`` to the caller; in `storing`
        /// the thread in `receive(subscription:)` still owns it and cancels it when it sees the
        /// new phase.
        @inlinable
        func terminate() -> Int {
            var current = phase.load(ordering: .relaxed)
            while current != SinkPhase.terminal {
                let (exchanged, original) = phase.compareExchange(
                    expected: current, desired: SinkPhase.terminal, ordering: .acquiringAndReleasing
                )
                if exchanged { return current }
                current = original
            }
            return current
        }

        /// Moves the subscription out of ``upstream``; only for the owner of the field.
        @inlinable
        func takeUpstream() -> any Subscription {
            var taken: any Subscription = SinkVacantUpstream()
            swap(&taken, &upstream)
            return taken
        }

        /// Subscribes the sink to a publisher of one value (`Just`) without allocating a
        /// subscription object: the sink gets a ``SinkOneValueSubscription``, which delivers
        /// `value` and `.finished` on the sink's request.
        @inlinable
        func receiveOneValue(_ value: Input) {
            receive(subscription: SinkOneValueSubscription(value: value, sink: self))
        }

        /// `"Sink"`, as Apple prints it.
        public var description: String { "Sink" }

        /// An empty mirror: the closures are not worth showing.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The same as ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Subscribes with a ``Subscribers/Sink`` that calls `receiveValue` for each value and
    /// `receiveCompletion` at the end.
    ///
    /// Keep the returned ``AnyCancellable``: releasing it cancels the subscription.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with a ``Subscribers/Sink`` that calls `receiveValue` for each value. Only for
    /// publishers that cannot fail, where there is no error to handle.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

/// The phases of a ``Subscribers/Sink``, ordered so that `phase < terminal` means "still live".
@usableFromInline
enum SinkPhase {
    /// No subscription yet.
    @inlinable static var awaiting: Int { 0 }
    /// `receive(subscription:)` is writing the subscription into the sink.
    @inlinable static var storing: Int { 1 }
    /// Connected; the subscription is in the sink.
    @inlinable static var subscribed: Int { 2 }
    /// Completed or cancelled; the subscription has been handed to whoever made the transition.
    @inlinable static var terminal: Int { 3 }
}

/// The subscription a ``Subscribers/Sink`` makes for itself in ``Subscribers/Sink/receiveOneValue(_:)``:
/// a value, not an object, so `Just(x).sink` allocates nothing for it (it fits the existential's
/// inline buffer when `Input` is small).
///
/// It holds the sink `unowned(unsafe)` and has no state of its own. That is safe only because of
/// what the sink, in this file, does with it, all on the subscribing thread: it asks for
/// `.unlimited` once, from `receive(subscription:)`, and only if this is the subscription it keeps;
/// it never hands the subscription out; it drops it on completion or cancel. A sink that is already
/// subscribed or cancelled cancels it, which does nothing, so nothing is delivered, as with Just's
/// other subscriptions. Debug builds check that a request finds the sink subscribed to it.
@usableFromInline
struct SinkOneValueSubscription<Input, Failure: Error>: Subscription {
    @usableFromInline
    let value: Input

    @usableFromInline
    unowned(unsafe) let sink: Subscribers.Sink<Input, Failure>

    @inlinable
    init(value: Input, sink: Subscribers.Sink<Input, Failure>) {
        self.value = value
        self.sink = sink
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Just subscription request(_:)")
        #if DEBUG
        if sink.phase.load(ordering: .acquiring) != SinkPhase.subscribed {
            fatalError("Tributary internal error: Just's subscription for a Sink was asked for values while the sink was not subscribed to it; Subscribers.Sink must request only from receive(subscription:)")
        }
        #endif
        _ = sink.receive(value)
        sink.receive(completion: .finished)
    }

    @inlinable
    func cancel() {}

    /// The sink's identity: it has at most one such subscription, so the identifier is stable and
    /// unique while the subscription lives.
    @usableFromInline
    var combineIdentifier: CombineIdentifier { CombineIdentifier(sink) }
}

/// What a ``Subscribers/Sink`` keeps in place of a subscription while it has none: a stateless
/// value that fits the existential's inline buffer, so storing and dropping it costs nothing.
@usableFromInline
struct SinkVacantUpstream: Subscription {
    @inlinable
    init() {}

    @inlinable
    func request(_ demand: Subscribers.Demand) {}

    @inlinable
    func cancel() {}

    @usableFromInline
    var combineIdentifier: CombineIdentifier { CombineIdentifier() }
}

/// A sink drops its subscription on completion and on cancel, and never hands it to anyone, so a
/// subject may keep the sink inside the subscription it gives it.
extension Subscribers.Sink: ReleasesSubscriptionWhenDone {}

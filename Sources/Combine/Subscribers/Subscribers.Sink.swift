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
    /// beyond itself (72 bytes, one 80-byte malloc chunk) unless its subscription is a value
    /// rather than an object, which it then keeps in a small box.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// Called with each value.
        public let receiveValue: (Input) -> Void

        /// Called once, with the completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        /// Where the sink stands and, while it is subscribed, its subscription: one atomic word
        /// (see ``SinkPhase``). The low two bits are the phase; in the `subscribed` phase the rest
        /// is the subscription object, retained by the sink (`0` when there is nothing to cancel).
        /// Every transition is a compare-and-exchange, and whoever wins it owns the subscription
        /// and ``upstreamType`` for that step, so no lock is needed.
        ///
        /// Keeping the subscription as an object reference and its type, instead of an
        /// `any Subscription` beside a phase word, is what brings the sink from 96 bytes (a
        /// 112-byte chunk) to 72. The sink never hands this subscription to other code and calls
        /// `request` only from `receive(subscription:)`, on the subscription it was passed.
        @usableFromInline
        let phase: Atomic<UInt>

        /// The type of the object in ``phase``, whose `Subscription` conformance `cancel()` goes
        /// through. Written in the `storing` phase by `receive(subscription:)`, read by whoever
        /// takes the subscription out. (`@exclusivity(unchecked)`: the atomic phase already
        /// serialises every access.)
        @usableFromInline
        @exclusivity(unchecked)
        var upstreamType: (any Subscription.Type)?

        /// Makes a sink that calls `receiveCompletion` on completion and `receiveValue` per value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
            phase = Atomic(SinkPhase.awaiting)
        }

        deinit {
            // A sink released while subscribed (its upstream did not keep it) still owns its
            // subscription's reference; nobody else can reach the sink any more.
            let word = phase.load(ordering: .acquiring)
            if word & SinkPhase.mask == SinkPhase.subscribed {
                SinkPhase.release(word, upstreamType)
            }
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
            let (object, type) = SinkPhase.retainedObject(of: subscription)
            upstreamType = type
            if phase.compareExchange(
                expected: SinkPhase.storing, desired: object | SinkPhase.subscribed, ordering: .acquiringAndReleasing
            ).exchanged {
                subscription.request(.unlimited)
            } else {
                // Cancelled (or, against the contract, completed) while storing: the sink still
                // owns the subscription, so it releases it and cancels it.
                upstreamType = nil
                SinkPhase.release(object | SinkPhase.subscribed, type)
                subscription.cancel()
            }
        }

        /// Passes the value to ``receiveValue`` unless the sink has completed or been cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if phase.load(ordering: .acquiring) & SinkPhase.mask != SinkPhase.terminal {
                receiveValue(value)
            }
            return .none
        }

        /// Passes the first completion to ``receiveCompletion`` and releases the subscription.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            let left = terminate()
            guard left != SinkPhase.terminal else { return }
            if left & SinkPhase.mask == SinkPhase.subscribed {
                // Released here, before the closure runs.
                SinkPhase.release(left, takeUpstreamType())
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
            guard current & SinkPhase.mask == SinkPhase.subscribed else { return }
            SinkPhase.cancel(current, takeUpstreamType())
        }

        /// Moves the sink to its terminal phase and returns the word it left (`terminal` when it
        /// already was). Only leaving `subscribed` hands the subscription to the caller; in
        /// `storing` the thread in `receive(subscription:)` still owns it and cancels it when it
        /// sees the new phase.
        @inlinable
        func terminate() -> UInt {
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

        /// Moves ``upstreamType`` out; only for the owner of the subscription.
        @inlinable
        func takeUpstreamType() -> (any Subscription.Type)? {
            var taken: (any Subscription.Type)?
            swap(&taken, &upstreamType)
            return taken
        }

        /// Subscribes the sink to a publisher of one value (`Just`) without a subscription
        /// object: the sink moves to `subscribed` with nothing to cancel, then gets `value` and
        /// `.finished`, as a subscription that delivers both on the sink's request would give
        /// them. A sink already subscribed or cancelled gets nothing, as it would cancel such a
        /// subscription.
        @inlinable
        func receiveOneValue(_ value: Input) {
            guard
                phase.compareExchange(
                    expected: SinkPhase.awaiting, desired: SinkPhase.subscribed, ordering: .acquiring
                ).exchanged
            else { return }
            _ = receive(value)
            receive(completion: .finished)
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

/// The phases of a ``Subscribers/Sink``, in the low two bits of its phase word, and what the sink
/// does with the subscription object kept in the rest of the word.
@usableFromInline
enum SinkPhase {
    /// No subscription yet.
    @inlinable static var awaiting: UInt { 0 }
    /// `receive(subscription:)` is storing the subscription.
    @inlinable static var storing: UInt { 1 }
    /// Connected; the rest of the word is the subscription object (or `0`).
    @inlinable static var subscribed: UInt { 2 }
    /// Completed or cancelled; the subscription has been handed to whoever made the transition.
    @inlinable static var terminal: UInt { 3 }
    /// The phase's bits. An object's address is a multiple of at least 8 (its header is two
    /// pointers), so it never uses them.
    @inlinable static var mask: UInt { 3 }

    /// The sink's reference to `subscription` as a word for the phase (its phase bits clear), and
    /// its type. A subscription that is an object is retained and kept as it is; one that is a
    /// value is put in a ``SubscriptionHandle`` first. Runs unspecialised (the subscription's
    /// type is only known at run time), once per subscription.
    @usableFromInline
    static func retainedObject(of subscription: any Subscription) -> (UInt, any Subscription.Type) {
        func retained<Upstream: Subscription>(_ upstream: Upstream) -> (UInt, any Subscription.Type) {
            if Upstream.self is AnyObject.Type {
                let object = unsafeBitCast(upstream, to: AnyObject.self)
                return (UInt(bitPattern: Unmanaged.passRetained(object).toOpaque()), Upstream.self)
            }
            let box = SubscriptionHandle(upstream)
            return (UInt(bitPattern: Unmanaged.passRetained(box).toOpaque()), SubscriptionHandle.self)
        }
        return retained(subscription)
    }

    /// Cancels the subscription object in `word` (of type `type`) and releases it.
    @usableFromInline
    static func cancel(_ word: UInt, _ type: (any Subscription.Type)?) {
        guard let type, let pointer = UnsafeRawPointer(bitPattern: word & ~mask) else { return }
        func cancel<Upstream: Subscription>(_: Upstream.Type) {
            let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
            unsafeBitCast(object, to: Upstream.self).cancel()
        }
        cancel(type)
    }

    /// Releases the subscription object in `word` without cancelling it.
    @usableFromInline
    static func release(_ word: UInt, _ type: (any Subscription.Type)?) {
        guard type != nil, let pointer = UnsafeRawPointer(bitPattern: word & ~mask) else { return }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
}

/// A sink drops its subscription on completion and on cancel, and never hands it to anyone, so a
/// subject may keep the sink inside the subscription it gives it.
extension Subscribers.Sink: ReleasesSubscriptionWhenDone {}

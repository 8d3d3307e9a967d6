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
    /// Once its stream has ended (a completion, or a cancel made while it has a subscription) the
    /// sink also lets go of both closures and of everything they capture, as Apple's does. So a
    /// view model that keeps `publisher.sink { self.… }` in its own `Set<AnyCancellable>` is freed
    /// as soon as that stream is over, although the cancellable is still in the set. From then on
    /// ``receiveValue`` and ``receiveCompletion`` return closures that do nothing.
    ///
    /// The value path takes no lock: it counts itself in, and out again, on the sink's one atomic
    /// word, so that a cancel made on another thread (or from inside the closure itself) leaves
    /// the closure alive until the call has returned; whoever is last out after the end releases
    /// the closures. Subscribing costs two compare-and-exchanges, completing and cancelling one
    /// each, and the sink allocates nothing beyond itself unless its subscription is a value
    /// rather than an object, which it then keeps in a small box.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        // The two closures must stay the first stored properties: `SinkHandlers` overwrites them
        // in place at those offsets when the stream ends (see there why they are `let`s).

        /// The value closure, until the stream ends; a closure that does nothing after that.
        @usableFromInline
        let valueHandler: (Input) -> Void

        /// The completion closure, until the stream ends; a closure that does nothing after that.
        @usableFromInline
        let completionHandler: (Subscribers.Completion<Failure>) -> Void

        /// Where the sink stands, and how many calls are using its closures right now: the low two
        /// bits are the phase (see ``SinkPhase``), the rest counts the readers in units of
        /// ``SinkPhase/reader``. Every change of phase is a compare-and-exchange that keeps the
        /// count, and whoever wins it owns the subscription for that step, so no lock is needed.
        @usableFromInline
        let state: Atomic<UInt>

        /// The subscription object while the sink holds one, retained by the sink (`nil` when
        /// there is nothing to cancel). Written in the `storing` phase by
        /// `receive(subscription:)`, taken by whoever moves the sink out of `subscribed`.
        /// (`@exclusivity(unchecked)`: the atomic state already serialises every access.)
        @usableFromInline
        @exclusivity(unchecked)
        var upstreamObject: UnsafeMutableRawPointer?

        /// The type of ``upstreamObject``, whose `Subscription` conformance `cancel()` goes
        /// through. Keeping an object reference and its type, instead of an `any Subscription`,
        /// keeps the sink at 80 bytes.
        @usableFromInline
        @exclusivity(unchecked)
        var upstreamType: (any Subscription.Type)?

        /// Makes a sink that calls `receiveCompletion` on completion and `receiveValue` per value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            valueHandler = receiveValue
            completionHandler = receiveCompletion
            state = Atomic(SinkPhase.awaiting)
        }

        deinit {
            // A sink released while subscribed (its upstream did not keep it) still owns its
            // subscription's reference; nobody else can reach the sink any more.
            if state.load(ordering: .acquiring) & SinkPhase.mask == SinkPhase.subscribed {
                SinkPhase.release(upstreamObject, upstreamType)
            }
        }

        /// The closure called with each value; once the stream has ended, one that does nothing.
        public var receiveValue: (Input) -> Void {
            var handler: (Input) -> Void = { _ in }
            read { handler = $0.valueHandler }
            return handler
        }

        /// The closure called with the completion; once the stream has ended, one that does
        /// nothing.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            var handler: (Subscribers.Completion<Failure>) -> Void = { _ in }
            read { handler = $0.completionHandler }
            return handler
        }

        /// Runs `body` counted as a reader of the closures, unless the stream has already ended.
        func read(_ body: (Sink) -> Void) {
            let entered = state.wrappingAdd(SinkPhase.reader, ordering: .acquiring).oldValue
            if entered & SinkPhase.mask != SinkPhase.terminal {
                body(self)
            }
            leave()
        }

        /// Keeps the first subscription and asks it for unlimited values; cancels any later one,
        /// and the first one too when the sink was cancelled before or while it arrived.
        public func receive(subscription: any Subscription) {
            guard transition(from: SinkPhase.awaiting, to: SinkPhase.storing) != nil else {
                subscription.cancel()
                return
            }
            let (object, type) = SinkPhase.retainedObject(of: subscription)
            upstreamObject = object
            upstreamType = type
            if transition(from: SinkPhase.storing, to: SinkPhase.subscribed) != nil {
                subscription.request(.unlimited)
            } else {
                // Cancelled (or, against the contract, completed) while storing: the sink still
                // owns the subscription, so it releases it and cancels it.
                SinkPhase.release(takeUpstreamObject(), type)
                subscription.cancel()
            }
        }

        /// Passes the value to the value closure unless the sink has completed or been cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            let entered = state.wrappingAdd(SinkPhase.reader, ordering: .acquiring).oldValue
            if entered & SinkPhase.mask != SinkPhase.terminal {
                valueHandler(value)
            }
            leave()
            return .none
        }

        /// Passes the first completion to the completion closure, then releases the subscription
        /// and both closures.
        public func receive(completion: Subscribers.Completion<Failure>) {
            // Counted as a reader first, so that nobody releases the closure during the call.
            state.wrappingAdd(SinkPhase.reader, ordering: .acquiring)
            guard let left = end() else {
                leave()
                return
            }
            if left & SinkPhase.mask == SinkPhase.subscribed {
                // Released here, before the closure runs.
                SinkPhase.release(takeUpstreamObject(), upstreamType)
            }
            completionHandler(completion)
            leave()
        }

        /// Cancels the subscription and releases both closures; no value or completion is
        /// delivered afterwards. Before a subscription has arrived, a cancel is ignored, as on
        /// Apple's platforms: a subscription that arrives later is asked for everything.
        public func cancel() {
            guard state.load(ordering: .relaxed) & SinkPhase.mask != SinkPhase.awaiting, let current = end() else {
                return
            }
            if current & SinkPhase.readers == 0 {
                // Nobody is in a closure: they go now (otherwise the last reader out releases them).
                SinkHandlers.release(self)
            }
            if current & SinkPhase.mask == SinkPhase.subscribed {
                SinkPhase.cancel(takeUpstreamObject(), upstreamType)
            }
        }

        /// Counts a reader out; the last one out after the stream has ended releases the closures,
        /// unless they have been released already.
        @inlinable
        func leave() {
            if state.wrappingSubtract(SinkPhase.reader, ordering: .acquiringAndReleasing).oldValue
                == SinkPhase.reader | SinkPhase.terminal
            {
                SinkHandlers.releaseIfUnclaimed(self)
            }
        }

        /// Moves the phase from `from` to `to`, keeping the reader count; `nil` when the phase was
        /// not `from`. Returns the phase it left. One compare-and-exchange when nobody reads the
        /// closures at that moment, as is usual; the loop that keeps a count is a call away.
        @inlinable
        func transition(from: UInt, to: UInt) -> UInt? {
            if state.compareExchange(expected: from, desired: to, ordering: .acquiringAndReleasing).exchanged {
                return from
            }
            return transitionKeepingReaders(from: from, to: to)
        }

        /// ``transition(from:to:)`` when the word holds more than the phase.
        @inlinable @inline(never)
        func transitionKeepingReaders(from: UInt, to: UInt) -> UInt? {
            var current = state.load(ordering: .relaxed)
            while current & SinkPhase.mask == from {
                let (exchanged, original) = state.compareExchange(
                    expected: current, desired: current & ~SinkPhase.mask | to, ordering: .acquiringAndReleasing
                )
                if exchanged { return from }
                current = original
            }
            return nil
        }

        /// Moves the sink to its terminal phase, keeping the reader count, and returns the word it
        /// left; `nil` when it already was terminal. When nobody was reading the closures, the
        /// same exchange marks them released, and the caller releases them. Only leaving
        /// `subscribed` hands the subscription to the caller; in `storing` the thread in
        /// `receive(subscription:)` still owns it and cancels it when it sees the new phase.
        @inlinable
        func end() -> UInt? {
            var current = state.load(ordering: .relaxed)
            while current & SinkPhase.mask != SinkPhase.terminal {
                let desired = current & SinkPhase.readers == 0
                    ? current & ~SinkPhase.mask | SinkPhase.terminal | SinkPhase.released
                    : current & ~SinkPhase.mask | SinkPhase.terminal
                let (exchanged, original) = state.compareExchange(
                    expected: current, desired: desired, ordering: .acquiringAndReleasing
                )
                if exchanged { return current }
                current = original
            }
            return nil
        }

        /// Moves ``upstreamObject`` out; only for the owner of the subscription.
        @inlinable
        func takeUpstreamObject() -> UnsafeMutableRawPointer? {
            defer { upstreamObject = nil }
            return upstreamObject
        }

        /// Subscribes the sink to a publisher of one value (`Just`) without a subscription
        /// object: the sink moves to `subscribed` with nothing to cancel, then gets `value` and
        /// `.finished`, as a subscription that delivers both on the sink's request would give
        /// them. A sink already subscribed or cancelled gets nothing, as it would cancel such a
        /// subscription.
        @inlinable
        func receiveOneValue(_ value: Input) {
            guard transition(from: SinkPhase.awaiting, to: SinkPhase.subscribed) != nil else { return }
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

/// The phases of a ``Subscribers/Sink``, in the low two bits of its state word, then a bit that
/// says its closures have been released, above which the word counts the calls using the
/// closures; and what the sink does with its subscription.
@usableFromInline
enum SinkPhase {
    /// No subscription yet.
    @inlinable static var awaiting: UInt { 1 }
    /// `receive(subscription:)` is storing the subscription.
    @inlinable static var storing: UInt { 2 }
    /// Connected; ``Subscribers/Sink/upstreamObject`` is the subscription (or `nil`).
    @inlinable static var subscribed: UInt { 3 }
    /// Completed or cancelled; the subscription has been handed to whoever made the transition.
    /// Clearing the phase bits is how every phase moves here. Zero, so that the last reader out of
    /// an ended sink whose closures are still to be released leaves the whole word at zero, which
    /// the processor reports with the subtraction itself: no extra comparison per value.
    @inlinable static var terminal: UInt { 0 }
    /// The phase's bits.
    @inlinable static var mask: UInt { 3 }
    /// Set, in the terminal phase only, by whoever took on releasing the closures.
    @inlinable static var released: UInt { 4 }
    /// One call using the closures, in the reader count above the phase and `released` bits.
    @inlinable static var reader: UInt { 8 }
    /// The reader count's bits.
    @inlinable static var readers: UInt { ~7 }

    /// The sink's reference to `subscription`, and its type. A subscription that is an object is
    /// retained and kept as it is; one that is a value is put in a ``SubscriptionHandle`` first.
    /// Runs unspecialised (the subscription's type is only known at run time), once per
    /// subscription.
    @usableFromInline
    static func retainedObject(of subscription: any Subscription) -> (UnsafeMutableRawPointer, any Subscription.Type) {
        func retained<Upstream: Subscription>(_ upstream: Upstream) -> (UnsafeMutableRawPointer, any Subscription.Type) {
            if Upstream.self is AnyObject.Type {
                let object = unsafeBitCast(upstream, to: AnyObject.self)
                return (Unmanaged.passRetained(object).toOpaque(), Upstream.self)
            }
            let box = SubscriptionHandle(upstream)
            return (Unmanaged.passRetained(box).toOpaque(), SubscriptionHandle.self)
        }
        return retained(subscription)
    }

    /// Cancels the subscription `object` (of type `type`) and releases it.
    @usableFromInline
    static func cancel(_ object: UnsafeMutableRawPointer?, _ type: (any Subscription.Type)?) {
        guard let type, let object else { return }
        func cancel<Upstream: Subscription>(_: Upstream.Type) {
            let retained = Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue()
            unsafeBitCast(retained, to: Upstream.self).cancel()
        }
        cancel(type)
    }

    /// Releases the subscription `object` without cancelling it.
    @usableFromInline
    static func release(_ object: UnsafeMutableRawPointer?, _ type: (any Subscription.Type)?) {
        guard type != nil, let object else { return }
        Unmanaged<AnyObject>.fromOpaque(object).release()
    }
}

/// How a ``Subscribers/Sink`` lets go of its closures when its stream ends.
///
/// The closures are `let` properties so that the value path calls them at +0, as it would a
/// closure that never changes: a `var` read before a call is copied (a retain and a release of
/// the closure's context per value, about 15 instructions and two atomic operations more per
/// value). They change exactly once, here, when the reader count in the sink's state word says
/// that nobody is in them and the phase says that nobody will call or read them again: each
/// closure's context, the object that holds what it captured, is taken out (left `nil`) and
/// released. Its function pointer stays, never to be called: every call and every read of the
/// public properties checks the phase first, and destroying a closure whose context is `nil`
/// (when the sink itself goes) releases nothing. No closure is made and nothing generic runs, so
/// this costs two loads, two stores and the releases.
///
/// A closure value is two words, its function and its context (Swift's layout for thick
/// functions). The two closures are the first stored properties of `Sink`, which has no
/// superclass, so they sit right after the object's header (two words) whatever the sink's
/// generic arguments are; a debug build checks that against the runtime's field metadata.
@usableFromInline
enum SinkHandlers {
    /// Releases `sink`'s closures if nobody has taken that on yet: called by the last reader out
    /// of a terminal sink, which may find that another reader came in meanwhile (that one then
    /// releases them when it leaves) or that they were released already.
    @inlinable @inline(never)
    static func releaseIfUnclaimed<Input, Failure: Error>(_ sink: Subscribers.Sink<Input, Failure>) {
        let claimed = sink.state.compareExchange(
            expected: SinkPhase.terminal, desired: SinkPhase.terminal | SinkPhase.released, ordering: .acquiringAndReleasing
        ).exchanged
        if claimed { release(sink) }
    }

    /// Takes the contexts out of `sink`'s two closures and releases them; only for whoever set
    /// `released`.
    @usableFromInline
    static func release(_ sink: AnyObject) {
        assert(layoutIsAsExpected, "Subscribers.Sink: its closures are no longer its first stored properties")
        let word = MemoryLayout<UnsafeRawPointer>.size
        let object = Unmanaged.passUnretained(sink).toOpaque()
        // Header (two words), then the value closure (function, context), then the completion
        // closure (function, context).
        let valueContext = (object + 3 * word).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        let completionContext = (object + 5 * word).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        let taken = (valueContext.pointee, completionContext.pointee)
        valueContext.pointee = nil
        completionContext.pointee = nil
        // Released after both are gone from the sink: a capture's `deinit` may reach the sink.
        if let context = taken.0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
        if let context = taken.1 { Unmanaged<AnyObject>.fromOpaque(context).release() }
    }

    /// Whether the runtime's field metadata puts the closures where ``release(_:)`` writes.
    static let layoutIsAsExpected: Bool = {
        let header = 2 * MemoryLayout<UnsafeRawPointer>.size
        let fields = StoredFields.of(Subscribers.Sink<Int, Never>.self, asClass: true)
        let offsets = Dictionary(fields.map { ($0.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        return offsets["valueHandler"] == header
            && offsets["completionHandler"] == header + MemoryLayout<(Int) -> Void>.size
            && MemoryLayout<(Int) -> Void>.size == 2 * MemoryLayout<UnsafeRawPointer>.size
    }()
}

/// A sink drops its subscription on completion and on cancel, and never hands it to anyone, so a
/// subject may keep the sink inside the subscription it gives it.
extension Subscribers.Sink: ReleasesSubscriptionWhenDone {}

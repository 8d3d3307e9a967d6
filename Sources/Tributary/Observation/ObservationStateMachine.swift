import Combine

/// The bookkeeping of one ``ObservationPublisher`` subscription: where the tracking of the model
/// stands, the demand, the value waiting for it, and who is delivering.
///
/// A pure value: every method runs under the subscription's lock and returns what to do once the
/// lock is released (call the subscriber, hand a read to the scheduler, let go of the subscriber).
/// Nothing here calls out.
///
/// The cycle it runs: a read of the property under `withObservationTracking` arms the tracking
/// (`armed`); the model's next change reports itself once, from inside its `willSet`, and asks for
/// a read on the scheduler (`readPending`) if the subscriber has demand, or only remembers the
/// change (`changed`) if not, in which case the read is asked for when demand arrives. The
/// scheduled read is the next `reading`, which arms the tracking again. So at most one read is in
/// flight, and changes made between a report and the read that follows it come out as one value.
///
/// `Reader` is what a read needs (the key path, the scheduler and its options), `Downstream` the
/// subscriber; both are let go of when the subscription ends, so the model's registrar, which
/// keeps the subscription until the model's next change, keeps nothing the user handed in.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@usableFromInline
struct ObservationStateMachine<Output, Downstream, Reader> {
    /// Where the tracking of the model stands.
    @usableFromInline
    enum Tracking: Equatable {
        /// A read is owed: handed to the scheduler, or, for the first one, about to be made by
        /// the subscribing thread.
        case readPending
        /// A read is under way and its tracking is being installed. `changed` records a change
        /// reported for this read's tracking before its value came back: the value may then be
        /// older than the model's.
        case reading(generation: UInt64, changed: Bool)
        /// The last read's tracking is installed and no change has been reported since.
        case armed(generation: UInt64)
        /// A change was reported while the subscriber had no demand; the read waits for demand.
        case changed
        /// Cancelled, or finished because the model is gone.
        case ended

        /// A pattern match rather than the synthesised `==`, which compares payloads.
        @inlinable
        var hasEnded: Bool {
            if case .ended = self { return true }
            return false
        }
    }

    /// What a read that is about to begin should do.
    @usableFromInline
    enum ReadStart {
        /// Read the property, installing a tracking tagged `generation`.
        case read(generation: UInt64, Reader)
        /// The subscription has ended; do nothing.
        case stop
        /// The scheduler ran the read inside the `schedule` call made from the model's `willSet`:
        /// the new value is not stored yet, so there is nothing correct to read.
        case synchronousScheduler
    }

    /// What to do after a delivery, a request or a read.
    @usableFromInline
    enum Action {
        case none
        /// Give `value` to the subscriber; the caller now holds the delivery role.
        case deliver(Output, Downstream)
        /// Hand a read to the scheduler.
        case scheduleRead(Reader)
        /// Send `finished` to the subscriber: the model went away.
        case finish(Downstream)
    }

    @usableFromInline var tracking: Tracking = .readPending
    /// Tags each read's tracking, so that a report from an older tracking (the registrar may
    /// report one change twice when two threads change the model at once) is told apart.
    @usableFromInline var generation: UInt64 = 0
    /// The thread that is handing a read to the scheduler from inside the model's `willSet`,
    /// until the `schedule` call returns: a read that begins on this thread meanwhile was run
    /// synchronously by the scheduler.
    @usableFromInline var handingOver: ThreadIdentity?
    /// The latest value read and not yet delivered; dropped when a change makes it stale.
    @usableFromInline var held: Output?
    @usableFromInline var demand = Subscribers.Demand.none
    /// A thread is inside the subscriber's `receive(_:)`; values read meanwhile wait in `held`.
    @usableFromInline var delivering = false
    /// The model went away while a value was being delivered: the deliverer sends `finished`.
    @usableFromInline var finishPending = false
    @usableFromInline var downstream: Downstream?
    @usableFromInline var reader: Reader?

    @inlinable
    init(downstream: Downstream, reader: Reader) {
        self.downstream = downstream
        self.reader = reader
    }

    /// A read is about to begin on `thread`.
    @inlinable
    mutating func beginRead(on thread: ThreadIdentity) -> ReadStart {
        switch tracking {
        case .readPending:
            if let handingOver, handingOver == thread { return .synchronousScheduler }
            guard let reader else { return .stop }
            generation &+= 1
            tracking = .reading(generation: generation, changed: false)
            return .read(generation: generation, reader)
        case .ended:
            return .stop
        case .reading, .armed, .changed:
            preconditionFailure("Internal inconsistency: ObservationPublisher began a read in state \(tracking)")
        }
    }

    /// The read tagged `generation` returned `value` and its tracking is installed.
    @inlinable
    mutating func endRead(_ value: Output, generation: UInt64) -> Action {
        guard case .reading(generation, let changed) = tracking else { return .none }
        if changed {
            // The model changed after this read's access was recorded. Without demand the value
            // is stale before anyone could see it; with demand it still goes out (so that changes
            // arriving faster than reads cannot starve the subscriber), and the read for the
            // newer value is asked for when the delivery returns.
            tracking = .changed
            if demand == .none {
                held = nil
                return .none
            }
        } else {
            tracking = .armed(generation: generation)
        }
        held = value
        return takeDelivery()
    }

    /// The tracking tagged `generation` reported a change, on `thread`, from inside the model's
    /// `willSet`. Returns the reader when a read must be handed to the scheduler.
    @inlinable
    mutating func changed(generation: UInt64, on thread: ThreadIdentity) -> Reader? {
        switch tracking {
        case .armed(generation):
            held = nil
            if demand == .none {
                tracking = .changed
                return nil
            }
            tracking = .readPending
            handingOver = thread
            return reader
        case .reading(generation, _):
            tracking = .reading(generation: generation, changed: true)
            return nil
        default:
            // A second report of a change already taken into account, or the subscription ended.
            return nil
        }
    }

    /// The `schedule` call made on `thread` for a reported change has returned.
    @inlinable
    mutating func handedOver(on thread: ThreadIdentity) {
        if let handingOver, handingOver == thread { self.handingOver = nil }
    }

    /// The subscriber asked for `more`.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Action {
        guard !tracking.hasEnded else { return .none }
        demand += more
        return takeDeliveryOrRead()
    }

    /// The subscriber's `receive(_:)` returned `more`.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Action {
        delivering = false
        if finishPending {
            finishPending = false
            guard let downstream else { return .none }
            self.downstream = nil
            return .finish(downstream)
        }
        guard !tracking.hasEnded else { return .none }
        demand += more
        return takeDeliveryOrRead()
    }

    /// A read found the model gone.
    @inlinable
    mutating func modelGone() -> Action {
        guard !tracking.hasEnded else { return .none }
        tracking = .ended
        held = nil
        reader = nil
        if delivering {
            finishPending = true
            return .none
        }
        guard let downstream else { return .none }
        self.downstream = nil
        return .finish(downstream)
    }

    /// The subscriber cancelled. Returns what the subscription held, to be released after the
    /// lock (releasing a subscriber may run its deinitialiser, which is user code).
    @inlinable
    mutating func cancel() -> (Downstream?, Reader?) {
        tracking = .ended
        finishPending = false
        held = nil
        defer {
            downstream = nil
            reader = nil
        }
        return (downstream, reader)
    }

    @inlinable
    mutating func takeDeliveryOrRead() -> Action {
        let delivery = takeDelivery()
        if case .deliver = delivery { return delivery }
        if case .changed = tracking, demand > .none, let reader {
            tracking = .readPending
            return .scheduleRead(reader)
        }
        return .none
    }

    /// Takes the delivery role for the held value, if there is one, demand for it, and nobody
    /// delivering.
    @inlinable
    mutating func takeDelivery() -> Action {
        guard !delivering, demand > .none, let value = held, let downstream else { return .none }
        held = nil
        demand -= 1
        delivering = true
        return .deliver(value, downstream)
    }
}

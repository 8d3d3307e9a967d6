/// The state of one `switchToLatest` subscription as a pure value; every method runs under the
/// subscription's lock and returns what to do after unlocking. The downstream half (demand, the
/// values waiting for another thread's delivery, the completion) is the ``EmitterState`` that
/// ``DeliveryEmitter`` drives.
///
/// The upstream (a publisher of publishers) is asked for everything. Each new inner publisher
/// replaces the current one, which is cancelled; its late values are recognised by `generation`
/// and dropped. The demand protocol is Apple's: a new inner is granted the downstream demand not
/// yet spent, every later `request(n)` of the subscriber is forwarded to the current inner as it
/// is, and the demand the subscriber returns for a value is returned to the inner that sent it.
/// An inner that sends beyond that demand, or completes before its subscription, breaks the
/// contract, and Apple's operator stops the process there; so does ours. The operator finishes
/// once the upstream and the latest inner have finished; a failure of either fails it at once
/// and cancels the other.
@usableFromInline
struct SwitchToLatestStateMachine<Downstream: Subscriber>: EmitterMachine {
    @usableFromInline
    typealias Box = SubscriberBox<Downstream>

    /// Where the current inner publisher is in its life.
    @usableFromInline
    enum InnerPhase {
        /// No inner publisher yet.
        case none
        /// Subscribed to, its subscription not arrived yet.
        case awaitingSubscription
        /// Its subscription is held.
        case subscribed
        /// It finished; its subscription was let go of without a cancel.
        case finished
        /// It failed, or it was cancelled (by the subscriber or by an upstream failure): whatever
        /// it still sends is dropped.
        case dropped
    }

    /// What to do with an inner value, decided under the lock.
    @usableFromInline
    enum ValueDecision {
        /// Dropped: a replaced, failed or cancelled inner, or the operator is done.
        case drop
        /// The value exceeds the demand the inner was given: Apple's operator stops the process.
        case beyondDemand
        /// Hand the value to the emitter (``DeliveryEmitter/acceptLocked(_:tag:_:step:ticket:)``).
        case accept
        /// Sent from inside the subscriber on the emitting thread: its demand is spent; deliver it
        /// at once, nested, and record the answer with ``EmitterState/delivered(additional:)``.
        case nested
    }

    @usableFromInline
    var upstream: SubscriptionHandle?

    @usableFromInline
    var upstreamFinished = false

    /// The upstream's subscription has arrived (`upstream` is let go of when the upstream ends).
    @usableFromInline
    var upstreamSubscribed = false

    /// The current inner's subscription, while ``innerPhase`` is `.subscribed`.
    @usableFromInline
    var inner: SubscriptionHandle?

    @usableFromInline
    var innerPhase = InnerPhase.none

    /// Identifies the current inner publisher; bumped on every switch.
    @usableFromInline
    var generation = 0

    /// The subscriber's answers to values the emitter delivered for other threads, which no
    /// `receive(_:)` returns: requested from the current inner after the delivery
    /// (``topUp(at:)``).
    @usableFromInline
    var answersToForward = Subscribers.Demand.none

    /// Last: its size depends on the subscriber's types, and the fields before it are then
    /// reached at fixed offsets in a debug build, without this type's metadata.
    @usableFromInline
    var emitter: EmitterState<Downstream, Void>

    /// See ``EmitterMachine/deliverAtOnce(_:tag:emitting:)``.
    @inlinable
    mutating func deliverAtOnce(_ value: Downstream.Input, tag: Void, emitting: Bool) -> Bool {
        emitter.deliverAtOnce(value, tag: tag, emitting: emitting)
    }

    @inlinable
    init(box: Box) {
        emitter = EmitterState(box: box)
    }

    /// Values may go out without the bookkeeping while the demand is unlimited: the subscriber's
    /// answer then changes nothing, and the value's sender returns it itself.
    @inlinable
    var fastEligible: Bool { emitter.flowsFreely }

    /// ``EmitterState/freeDemand``, answered from the demand field alone when it is unlimited
    /// (nothing queued can reduce it): the common case reads a field at a fixed offset where the
    /// emitter's property would look up its metadata in a debug build. The same goes for the
    /// `emitter.phase.isOpen` tests in this type, rather than `emitter.isOpen`.
    @inlinable
    var freeDemand: Subscribers.Demand {
        emitter.demand == .unlimited ? .unlimited : emitter.freeDemand
    }

    /// Whether the current inner no longer counts for the operator's completion.
    @inlinable
    var innerIsDone: Bool {
        switch innerPhase {
        case .none, .finished, .dropped: return true
        case .awaitingSubscription, .subscribed: return false
        }
    }

    /// Lets go of the current inner; returns its subscription, for cancelling.
    @inlinable
    mutating func dropInner() -> SubscriptionHandle? {
        let held = inner
        inner = nil
        innerPhase = .dropped
        return held
    }

    // MARK: Upstream

    /// Keeps the upstream's subscription; `false` when it must be cancelled (a second one, or
    /// the operator is already done).
    @inlinable
    mutating func receiveUpstream(subscription: SubscriptionHandle) -> Bool {
        guard !emitter.terminated, upstream == nil, !upstreamFinished else { return false }
        upstream = subscription
        upstreamSubscribed = true
        return true
    }

    /// Switches to a new inner publisher: returns its generation and the previous inner's
    /// subscription to cancel, or `nil` when the operator is done.
    @inlinable
    mutating func switchInner() -> (generation: Int, previous: SubscriptionHandle?)? {
        // A publisher sent before the upstream's subscription is ignored, as Apple's operator does.
        guard emitter.phase.isOpen, !upstreamFinished, upstreamSubscribed else { return nil }
        let previous = inner
        inner = nil
        innerPhase = .awaitingSubscription
        generation += 1
        // The new inner is granted the free demand, answers included.
        answersToForward = .none
        return (generation, previous)
    }

    /// What ``switchToImmediate(nested:)`` decided.
    @usableFromInline
    typealias ImmediateSwitch = SwitchToLatestImmediateSwitch

    /// Switches to an inner publisher whose one value is at hand (see ``ImmediateOutput``). With
    /// demand free for it, the inner is over at once: its value is offered as the value of a
    /// subscribed inner would be, and the inner counts as finished, which it would be as soon as
    /// that value was taken. (The upstream has not finished, so that completion decides nothing.)
    /// `nested`: the calling thread is delivering further up its stack.
    @inlinable
    mutating func switchToImmediate(nested: Bool) -> ImmediateSwitch {
        guard let (generation, previous) = switchInner() else { return .ignored }
        guard freeDemand > .none else { return .subscribe(generation: generation, previous: previous) }
        innerPhase = .finished
        if nested {
            emitter.demand -= 1
            return .offeredNested(previous: previous)
        }
        return .offered(previous: previous)
    }

    /// The upstream's completion: whether it was accepted (the emitter then settles), and a
    /// subscription to cancel.
    @inlinable
    mutating func receiveUpstream(
        completion: Subscribers.Completion<Downstream.Failure>
    ) -> (accepted: Bool, cancel: SubscriptionHandle?) {
        guard emitter.phase.isOpen, !upstreamFinished else { return (false, nil) }
        upstreamFinished = true
        upstream = nil
        switch completion {
        case .finished:
            if innerIsDone { emitter.finish() }
            return (true, nil)
        case .failure(let error):
            emitter.fail(error)
            return (true, dropInner())
        }
    }

    // MARK: Inner

    /// Keeps the subscription of the current inner and returns the demand to request of it
    /// (`.none`: nothing yet); `nil` when it must be cancelled (a replaced inner, or the operator
    /// is done). One the current inner sends after it finished, while the operator runs on, is
    /// ignored (`.none`, not kept), as Apple's operator ignores it.
    @inlinable
    mutating func receiveInner(subscription: SubscriptionHandle, generation: Int) -> Subscribers.Demand? {
        if emitter.phase.isOpen, generation == self.generation, innerPhase == .finished { return Subscribers.Demand.none }
        guard emitter.phase.isOpen, generation == self.generation, innerPhase == .awaitingSubscription else {
            return nil
        }
        inner = subscription
        innerPhase = .subscribed
        return freeDemand
    }

    /// An inner value. `nested`: the calling thread is delivering further up its stack (the value
    /// comes from inside the subscriber).
    @inlinable
    mutating func receiveInner(_ value: Downstream.Input, generation: Int, nested: Bool) -> ValueDecision {
        guard generation == self.generation else { return .drop }
        switch innerPhase {
        case .none, .dropped:
            return .drop
        case .awaitingSubscription, .subscribed, .finished:
            // Apple counts every value of the current inner against the demand it passed on,
            // even one sent before the inner's subscription or after its completion.
            if freeDemand == .none { return .beyondDemand }
            guard emitter.phase.isOpen, innerPhase != .finished else { return .drop }
            // From inside the subscriber, on the emitting thread: Apple's operator delivers it at
            // once, nested, and returns the subscriber's answer to the inner.
            if nested {
                emitter.demand -= 1
                return .nested
            }
            return .accept
        }
    }

    /// What an inner's completion calls for.
    @usableFromInline
    enum InnerCompletion {
        /// Nothing for the emitter to settle: a replaced, finished or dropped inner, the operator
        /// is done, or the current inner finished while the upstream goes on (the quiet end,
        /// ``endInnerQuietly(finished:generation:)``), after which the operator waits for the
        /// next inner and the subscriber hears nothing.
        case ignored
        /// The inner completed before its subscription: Apple's operator stops the process.
        case beforeSubscription
        /// Accepted, and it ends the operator: the emitter settles, after `cancel` is cancelled.
        case accepted(cancel: SubscriptionHandle?)
    }

    /// The common case of ``receiveInner(completion:generation:)``, decided without the
    /// completion's type: the current inner finished while the operator and its upstream go on
    /// (recorded here: the quiet end), or an inner that is no longer current completed (nothing
    /// to do). Returns `false`, having changed nothing, for every other case, which the full
    /// method handles.
    @inlinable
    mutating func endInnerQuietly(finished: Bool, generation: Int) -> Bool {
        guard generation == self.generation else { return true }
        switch innerPhase {
        case .none, .finished, .dropped:
            return true
        case .awaitingSubscription:
            return false
        case .subscribed:
            guard finished, !upstreamFinished, emitter.phase.isOpen else { return false }
            inner = nil
            innerPhase = .finished
            return true
        }
    }

    /// An inner's completion, every case: the ones ``endInnerQuietly(finished:generation:)``
    /// takes are decided there, the rest here.
    @inlinable
    mutating func receiveInner(
        completion: Subscribers.Completion<Downstream.Failure>, generation: Int
    ) -> InnerCompletion {
        let finished: Bool
        if case .finished = completion { finished = true } else { finished = false }
        if endInnerQuietly(finished: finished, generation: generation) { return .ignored }
        // Left: the current inner, before its subscription or subscribed.
        guard case .subscribed = innerPhase else { return .beforeSubscription }
        // The inner's subscription is let go of, not cancelled: the inner has ended.
        inner = nil
        guard emitter.phase.isOpen else {
            innerPhase = .dropped
            return .ignored
        }
        switch completion {
        case .finished:
            // The upstream has finished too: a finish while it goes on ended quietly above.
            innerPhase = .finished
            emitter.finish()
            return .accepted(cancel: nil)
        case .failure(let error):
            innerPhase = .dropped
            emitter.fail(error)
            let held = upstream
            upstream = nil
            upstreamFinished = true
            return .accepted(cancel: held)
        }
    }

    // MARK: Downstream

    /// The current inner's subscription, to forward a demand to.
    @inlinable
    var forwardingTarget: SubscriptionHandle? {
        guard emitter.phase.isOpen, innerPhase == .subscribed else { return nil }
        return inner
    }

    /// Adds the subscriber's demand; returns the current inner, to forward it to as it is.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> SubscriptionHandle? {
        guard !emitter.terminated else { return nil }
        _ = emitter.request(demand)
        return forwardingTarget
    }

    /// For the emitter, after a queued value (another thread's) was delivered: records the
    /// subscriber's answer, which that thread's `receive(_:)` no longer returns, for
    /// ``topUp(at:)`` to request from the current inner. Returns whether there is one.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        _ = emitter.delivered(additional: additional)
        guard additional != .none, forwardingTarget != nil else { return false }
        answersToForward += additional
        return true
    }

    /// The answers ``delivered(additional:)`` set aside, with the inner to request them of (the
    /// operator's only "upstream", `index` 0).
    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        let answers = answersToForward
        answersToForward = .none
        guard answers != .none, let target = forwardingTarget else { return nil }
        return (target, answers)
    }

    /// Cancels: returns the inner's and the upstream's subscriptions, in the order Apple's
    /// operator cancels them.
    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        emitter.cancel()
        var held = ContiguousArray<any Subscription>()
        if let inner = dropInner() { held.append(inner) }
        if let upstream {
            held.append(upstream)
            self.upstream = nil
        }
        upstreamFinished = true
        return held
    }
}

/// What ``SwitchToLatestStateMachine/switchToImmediate(nested:)`` decided. Not nested in the
/// generic machine, whose nested types are generic too: a debug build would look up this enum's
/// metadata, and that of the tuple the lock returns it in, for every inner publisher.
@usableFromInline
enum SwitchToLatestImmediateSwitch {
    /// The operator is done, or the upstream has not subscribed yet: the publisher is ignored.
    case ignored
    /// No demand is free for the value: subscribe to the inner as usual, after cancelling
    /// `previous`.
    case subscribe(generation: Int, previous: SubscriptionHandle?)
    /// Offer the value to the emitter as if the inner had been subscribed to, had sent it and
    /// had finished, after cancelling `previous`.
    case offered(previous: SubscriptionHandle?)
    /// The same, from inside the subscriber on the emitting thread: the value's demand is
    /// spent; cancel `previous`, then deliver the value at once, nested.
    case offeredNested(previous: SubscriptionHandle?)
}

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

    @usableFromInline
    typealias InnerPhase = SwitchToLatestCore.InnerPhase

    @usableFromInline
    typealias ValueDecision = SwitchToLatestCore.ValueDecision

    /// The upstream's and the inners' bookkeeping, first: see ``SwitchToLatestCore``.
    @usableFromInline
    var core = SwitchToLatestCore()

    /// Last: its size depends on the subscriber's types, and the fields before it are then
    /// reached at fixed offsets in a debug build, without this type's metadata.
    @usableFromInline
    var emitter: EmitterState<Downstream, Void>

    /// See ``EmitterMachine/deliverAtOnce(_:tag:emitting:)``. The rule is applied to the
    /// emitter's fields (see ``EmitterRules``): every value goes through here.
    @inlinable
    mutating func deliverAtOnce(_ value: Downstream.Input, tag: Void, emitting: Bool) -> Bool {
        let queued = emitter.queuedCount
        if EmitterRules.spendsAtOnce(demand: &emitter.demand, queued: queued, emitting: emitting) { return true }
        emitter.enqueue(value, tag: tag)
        return false
    }

    @inlinable
    init(box: Box) {
        emitter = EmitterState(box: box)
    }

    /// Values may go out without the bookkeeping while the demand is unlimited: the subscriber's
    /// answer then changes nothing, and the value's sender returns it itself.
    @inlinable
    var fastEligible: Bool {
        EmitterRules.flowsFreely(phase: emitter.phase, demand: emitter.demand, queued: emitter.queuedCount)
    }

    /// Whether events are still accepted: the emitter's phase, which the core's copy follows.
    @inlinable
    var isOpen: Bool { core.emitterFlags.checked(open: emitter.phase.isOpen) }

    /// ``EmitterState/freeDemand``, answered from the demand field alone when it is unlimited
    /// (nothing queued can reduce it).
    @inlinable
    var freeDemand: Subscribers.Demand {
        emitter.demand == .unlimited ? .unlimited : emitter.freeDemand
    }

    // MARK: Upstream

    /// Keeps the upstream's subscription; `false` when it must be cancelled (a second one, or
    /// the operator is already done).
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription) -> Bool {
        guard !emitter.terminated, core.upstream == nil, !core.upstreamFinished else { return false }
        core.upstream = subscription
        core.upstreamSubscribed = true
        return true
    }

    /// What ``switchToImmediate(nested:handingOver:)`` decided.
    @usableFromInline
    typealias ImmediateSwitch = SwitchToLatestImmediateSwitch

    /// Switches to an inner publisher whose one value is at hand (see ``ImmediateOutput``). With
    /// demand free for it, the inner is over at once: its value is offered as the value of a
    /// subscribed inner would be, and the inner counts as finished, which it would be as soon as
    /// that value was taken. (The upstream has not finished, so that completion decides nothing.)
    /// `nested`: the calling thread is delivering further up its stack.
    /// The previous inner's subscription is handed over as by
    /// ``SwitchToLatestCore/switchInner(handingOver:)``.
    @inlinable
    mutating func switchToImmediate(nested: Bool, handingOver previous: inout any Subscription) -> ImmediateSwitch {
        guard let generation = core.switchInner(handingOver: &previous) else { return .ignored }
        guard freeDemand > .none else { return .subscribe(generation: generation) }
        core.innerPhase = .finished
        if nested {
            emitter.demand -= 1
            return .offeredNested
        }
        return .offered
    }

    /// The upstream's completion: whether it was accepted (the emitter then settles), and a
    /// subscription to cancel.
    @inlinable
    mutating func receiveUpstream(
        completion: Subscribers.Completion<Downstream.Failure>
    ) -> (accepted: Bool, cancel: (any Subscription)?) {
        guard isOpen, !core.upstreamFinished else { return (false, nil) }
        core.upstreamFinished = true
        core.upstream = nil
        switch completion {
        case .finished:
            if core.innerIsDone { emitter.finish(keeping: &core.emitterFlags) }
            return (true, nil)
        case .failure(let error):
            emitter.fail(error, keeping: &core.emitterFlags)
            return (true, core.dropInner())
        }
    }

    // MARK: Inner

    /// An inner value while the demand is finite: ``SwitchToLatestCore/receiveInner(generation:hasFreeDemand:nested:)``
    /// with the free demand, and the demand of a value delivered nested spent here. (With an
    /// unlimited demand the core decides alone: there is nothing to count.)
    @inlinable
    mutating func receiveInner(generation: Int, nested: Bool) -> ValueDecision {
        let decision = core.receiveInner(generation: generation, hasFreeDemand: freeDemand > .none, nested: nested)
        if case .nested = decision { emitter.demand -= 1 }
        return decision
    }

    /// What an inner's completion calls for.
    @usableFromInline
    enum InnerCompletion {
        /// Nothing for the emitter to settle: a replaced, finished or dropped inner, the operator
        /// is done, or the current inner finished while the upstream goes on (the quiet end,
        /// ``SwitchToLatestCore/endInnerQuietly(finished:generation:)``), after which the
        /// operator waits for the next inner and the subscriber hears nothing.
        case ignored
        /// The inner completed before its subscription: Apple's operator stops the process.
        case beforeSubscription
        /// Accepted, and it ends the operator: the emitter settles, after `cancel` is cancelled.
        case accepted(cancel: (any Subscription)?)
    }

    /// An inner's completion, every case: the ones ``SwitchToLatestCore/endInnerQuietly(finished:generation:)``
    /// takes are decided there, the rest here.
    @inlinable
    mutating func receiveInner(
        completion: Subscribers.Completion<Downstream.Failure>, generation: Int
    ) -> InnerCompletion {
        let finished: Bool
        if case .finished = completion { finished = true } else { finished = false }
        if core.endInnerQuietly(finished: finished, generation: generation) { return .ignored }
        // Left: the current inner, before its subscription or subscribed.
        guard case .subscribed = core.innerPhase else { return .beforeSubscription }
        // The inner's subscription is let go of, not cancelled: the inner has ended.
        _ = core.takeInner()
        guard isOpen else {
            core.innerPhase = .dropped
            return .ignored
        }
        switch completion {
        case .finished:
            // The upstream has finished too: a finish while it goes on ended quietly above.
            core.innerPhase = .finished
            emitter.finish(keeping: &core.emitterFlags)
            return .accepted(cancel: nil)
        case .failure(let error):
            core.innerPhase = .dropped
            emitter.fail(error, keeping: &core.emitterFlags)
            let held = core.upstream
            core.upstream = nil
            core.upstreamFinished = true
            return .accepted(cancel: held)
        }
    }

    // MARK: Downstream

    /// Adds the subscriber's demand; returns the current inner, to forward it to as it is.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        guard !emitter.terminated else { return nil }
        _ = emitter.request(demand)
        core.emitterFlags.note(demand: emitter.demand)
        return core.forwardingTarget
    }

    /// Records the subscriber's answer to a value this thread delivered itself (its sender
    /// returns the answer to the inner).
    @inlinable
    mutating func deliveredOwn(additional: Subscribers.Demand) {
        _ = emitter.delivered(additional: additional)
        core.emitterFlags.note(demand: emitter.demand)
    }

    /// For the emitter, after a queued value (another thread's) was delivered: records the
    /// subscriber's answer, which that thread's `receive(_:)` no longer returns, for
    /// ``topUp(at:)`` to request from the current inner. Returns whether there is one.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        deliveredOwn(additional: additional)
        guard additional != .none, core.forwards else { return false }
        core.answersToForward += additional
        return true
    }

    /// The answers ``delivered(additional:)`` set aside, with the inner to request them of (the
    /// operator's only "upstream", `index` 0).
    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        let answers = core.answersToForward
        core.answersToForward = .none
        guard answers != .none, let target = core.forwardingTarget else { return nil }
        return (target, answers)
    }

    /// Cancels: returns the inner's and the upstream's subscriptions, in the order Apple's
    /// operator cancels them.
    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        emitter.cancel(keeping: &core.emitterFlags)
        var held = ContiguousArray<any Subscription>()
        if let inner = core.dropInner() { held.append(inner) }
        if let upstream = core.upstream {
            held.append(upstream)
            core.upstream = nil
        }
        core.upstreamFinished = true
        return held
    }
}

/// The upstream's and the current inner's bookkeeping of a ``SwitchToLatestStateMachine``, in a
/// type that does not depend on the subscriber's: the checks made for every inner publisher
/// (switching, its subscription, its values while the demand is unlimited, its quiet end) are its
/// methods, which a debug build calls without looking up the machine's metadata (about 330
/// instructions a lock trip, four trips an inner). They read copies of what they need of the
/// emitter's state (``emitterFlags``), which the machine keeps up to date.
@usableFromInline
struct SwitchToLatestCore {
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
        /// Hand the value to the emitter (``DeliveryEmitter/acceptLocked(_:tag:_:tookRole:ticket:)``).
        case accept
        /// Sent from inside the subscriber on the emitting thread: its demand is spent (by the
        /// machine, when it is finite); deliver it at once, nested, and record the answer.
        case nested
    }

    /// What the current inner's subscription calls for.
    @usableFromInline
    enum InnerSubscription {
        /// A replaced inner's, or the operator is done: cancel it.
        case cancel
        /// The current inner's, sent after it finished: ignored, as Apple's operator ignores it.
        case ignore
        /// Kept: request the free demand of it.
        case grant
    }

    /// The upstream's subscription, from its arrival until the upstream ends or is let go of.
    @usableFromInline
    var upstream: (any Subscription)?

    @usableFromInline
    var upstreamFinished = false

    /// The upstream's subscription has arrived (`upstream` is let go of when the upstream ends).
    @usableFromInline
    var upstreamSubscribed = false

    /// The current inner's subscription while ``innerPhase`` is `.subscribed`, otherwise a
    /// ``PlaceholderSubscription``.
    @usableFromInline
    var inner: any Subscription = PlaceholderSubscription()

    @usableFromInline
    var innerPhase = InnerPhase.none

    /// Identifies the current inner publisher; bumped on every switch.
    @usableFromInline
    var generation = 0

    /// The subscriber's answers to values the emitter delivered for other threads, which no
    /// `receive(_:)` returns: requested from the current inner after the delivery
    /// (``SwitchToLatestStateMachine/topUp(at:)``).
    @usableFromInline
    var answersToForward = Subscribers.Demand.none

    /// What the checks below need of the machine's ``EmitterState``: whether it is open and
    /// whether the demand is unlimited. ``SwitchToLatestStateMachine/isOpen`` asserts that the
    /// copy of the phase agrees.
    @usableFromInline
    var emitterFlags = EmitterFlags()

    @inlinable
    init() {}

    /// Whether the current inner no longer counts for the operator's completion.
    @inlinable
    var innerIsDone: Bool {
        switch innerPhase {
        case .none, .finished, .dropped: return true
        case .awaitingSubscription, .subscribed: return false
        }
    }

    /// Moves the current inner's subscription out, if one is held, leaving the placeholder; the
    /// caller sets the phase.
    @inlinable
    mutating func takeInner() -> (any Subscription)? {
        guard case .subscribed = innerPhase else { return nil }
        return PlaceholderSubscription.take(from: &inner)
    }

    /// Lets go of the current inner; returns its subscription, for cancelling.
    @inlinable
    mutating func dropInner() -> (any Subscription)? {
        let held = takeInner()
        innerPhase = .dropped
        return held
    }

    /// Whether a demand is forwarded to the current inner: the operator is open and the inner's
    /// subscription is held.
    @inlinable
    var forwards: Bool {
        guard emitterFlags.open, case .subscribed = innerPhase else { return false }
        return true
    }

    /// The current inner's subscription, to forward a demand to.
    @inlinable
    var forwardingTarget: (any Subscription)? {
        forwards ? inner : nil
    }

    /// Switches to a new inner publisher: returns its generation, or `nil` when the operator is
    /// done. The previous inner's subscription, if one is held, trades places with `previous`,
    /// which holds a ``PlaceholderSubscription``, for the caller to cancel after unlocking (the
    /// placeholder's cancel does nothing). Not handed out as an optional: copying and testing an
    /// optional existential goes through value witnesses, hundreds of instructions per inner in
    /// an optimised build.
    @inlinable
    mutating func switchInner(handingOver previous: inout any Subscription) -> Int? {
        // A publisher sent before the upstream's subscription is ignored, as Apple's operator does.
        guard emitterFlags.open, !upstreamFinished, upstreamSubscribed else { return nil }
        if case .subscribed = innerPhase { swap(&previous, &inner) }
        innerPhase = .awaitingSubscription
        generation += 1
        // The new inner is granted the free demand, answers included.
        answersToForward = .none
        return generation
    }

    /// Keeps the subscription of the current inner (then the caller requests the free demand of
    /// it). One the current inner sends after it
    /// finished, while the operator runs on, is ignored, not kept, as Apple's operator ignores it.
    @inlinable
    mutating func receiveInner(subscription: any Subscription, generation: Int) -> InnerSubscription {
        guard emitterFlags.open, generation == self.generation else { return .cancel }
        switch innerPhase {
        case .finished:
            return .ignore
        case .awaitingSubscription:
            PlaceholderSubscription.fill(&inner, with: subscription)
            innerPhase = .subscribed
            return .grant
        case .none, .subscribed, .dropped:
            return .cancel
        }
    }

    /// An inner value. `hasFreeDemand`: whether demand is free for it; `nested`: the calling
    /// thread is delivering further up its stack (the value comes from inside the subscriber).
    @inlinable
    func receiveInner(generation: Int, hasFreeDemand: Bool, nested: Bool) -> ValueDecision {
        guard generation == self.generation else { return .drop }
        switch innerPhase {
        case .none, .dropped:
            return .drop
        case .awaitingSubscription, .subscribed, .finished:
            // Apple counts every value of the current inner against the demand it passed on,
            // even one sent before the inner's subscription or after its completion.
            if !hasFreeDemand { return .beyondDemand }
            guard emitterFlags.open else { return .drop }
            if case .finished = innerPhase { return .drop }
            // From inside the subscriber, on the emitting thread: Apple's operator delivers it at
            // once, nested, and returns the subscriber's answer to the inner.
            return nested ? .nested : .accept
        }
    }

    /// The common case of an inner's completion, decided without the completion's type: the
    /// current inner finished while the operator and its upstream go on (recorded here: the
    /// quiet end), or an inner that is no longer current completed (nothing to do). Returns
    /// `false`, having changed nothing, for every other case, which
    /// ``SwitchToLatestStateMachine/receiveInner(completion:generation:)`` handles.
    @inlinable
    mutating func endInnerQuietly(finished: Bool, generation: Int) -> Bool {
        guard generation == self.generation else { return true }
        switch innerPhase {
        case .none, .finished, .dropped:
            return true
        case .awaitingSubscription:
            return false
        case .subscribed:
            guard finished, !upstreamFinished, emitterFlags.open else { return false }
            _ = takeInner()
            innerPhase = .finished
            return true
        }
    }
}

/// What ``SwitchToLatestStateMachine/switchToImmediate(nested:handingOver:)`` decided. Not
/// nested in the generic machine, whose nested types are generic too: a debug build would look
/// up this enum's metadata, and that of the tuple the lock returns it in, for every inner
/// publisher.
@usableFromInline
enum SwitchToLatestImmediateSwitch {
    /// The operator is done, or the upstream has not subscribed yet: the publisher is ignored.
    case ignored
    /// No demand is free for the value: subscribe to the inner as usual, after cancelling the
    /// previous inner.
    case subscribe(generation: Int)
    /// Offer the value to the emitter as if the inner had been subscribed to, had sent it and
    /// had finished, after cancelling the previous inner.
    case offered
    /// The same, from inside the subscriber on the emitting thread: the value's demand is
    /// spent; cancel the previous inner, then deliver the value at once, nested.
    case offeredNested
}

/// What a flat map knows about one inner publisher: where it stands and its subscription. A slot
/// is reused once its inner is done; `generation` tells the inner it was made for from later ones.
@usableFromInline
struct FlatMapInnerSlot {
    /// Where the slot's inner stands.
    @usableFromInline
    enum Phase {
        /// Registered; its subscription has not arrived. An inner that completes before its
        /// subscription stays here (and counted as pending) until that subscription arrives.
        case awaitingSubscription
        /// Its subscription is held in ``FlatMapInnerSlot/subscription``.
        case subscribed
        /// Let go of after it had subscribed, by the operator's failure or cancel; not reused.
        case closed
        /// Done and on the free list; `nextFree` is the slot freed before it, or `-1`.
        case free(nextFree: Int)
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription

    /// The inner's subscription while ``Phase/subscribed``; otherwise a ``PlaceholderSubscription``
    /// (kept apart from the phase: a payload would make every change of phase copy the
    /// existential through its value witnesses).
    @usableFromInline
    var subscription: any Subscription = PlaceholderSubscription()

    @usableFromInline
    var generation: Int

    @inlinable
    init(generation: Int) {
        self.generation = generation
    }

    @inlinable
    var isSubscribed: Bool {
        if case .subscribed = phase { return true }
        return false
    }

    @inlinable
    var isFree: Bool {
        if case .free = phase { return true }
        return false
    }

    /// Makes a free slot ready for a new inner and returns the free slot after it; the
    /// subscription is already the placeholder.
    @inlinable
    mutating func reuse(generation: Int) -> Int {
        guard case .free(let nextFree) = phase else {
            preconditionFailure("FlatMap inner slot \(phase): reused while not free")
        }
        self.generation = generation
        phase = .awaitingSubscription
        return nextFree
    }

    /// Stores the inner's subscription in place of the placeholder.
    @inlinable
    mutating func hold(_ newSubscription: any Subscription) {
        switch phase {
        case .awaitingSubscription:
            phase = .subscribed
            PlaceholderSubscription.fill(&subscription, with: newSubscription)
        case .subscribed, .closed, .free:
            preconditionFailure("FlatMap inner slot \(phase): subscription held")
        }
    }

    /// A second subscription for the same inner: it takes the first one's place, which is
    /// returned (Apple's operator lets go of it without a cancel).
    @inlinable
    mutating func replace(with newSubscription: any Subscription) -> any Subscription {
        guard isSubscribed else { preconditionFailure("FlatMap inner slot \(phase): subscription replaced") }
        return withUnsafeMutablePointer(to: &subscription) { field in
            let replaced = field.move()
            field.initialize(to: newSubscription)
            return replaced
        }
    }

    /// Lets go of the subscription after the inner finished or failed: the slot goes on the free
    /// list in front of `firstFree` (the caller then makes it the first). Returns the
    /// subscription it held. (Non-optional results throughout: testing an optional existential
    /// goes through its value witnesses.)
    @inlinable
    mutating func free(after firstFree: Int) -> any Subscription {
        guard isSubscribed else { preconditionFailure("FlatMap inner slot \(phase): freed") }
        phase = .free(nextFree: firstFree)
        return takeSubscription()
    }

    /// Lets go of the subscription when the operator fails or is cancelled.
    @inlinable
    mutating func close() -> any Subscription {
        guard isSubscribed else { preconditionFailure("FlatMap inner slot \(phase): closed") }
        phase = .closed
        return takeSubscription()
    }

    /// Puts the placeholder back, returning the subscription it replaces.
    @inlinable
    mutating func takeSubscription() -> any Subscription {
        PlaceholderSubscription.take(from: &subscription)
    }
}

/// The slot of the inner publisher that sent a value waiting for the subscriber's demand: once
/// the value is delivered, that inner is asked for one more.
@usableFromInline
struct FlatMapTag {
    @usableFromInline
    var index: Int
    @usableFromInline
    var generation: Int

    @inlinable
    init(index: Int, generation: Int) {
        self.index = index
        self.generation = generation
    }
}

/// The state of one `flatMap` subscription as a pure value; every method runs under the
/// subscription's lock and returns what to do after unlocking.
///
/// The demand protocol is Apple's (specification §13):
/// - The upstream is asked for `maxPublishers` publishers at first, and for one more each time an
///   inner publisher finishes (unless `maxPublishers` is unlimited), so at most `maxPublishers`
///   inners are alive at once; `.max(1)` therefore concatenates them.
/// - Each inner is asked for one value at a time (`unlimited` once the subscriber's demand is):
///   a value delivered at once returns `max(1)` from the inner subscriber's `receive`; a value
///   that has to wait for demand is queued, and once delivered its inner is asked for one more.
/// - Inner completions are absorbed. The operator finishes once the upstream and every inner have
///   finished and the queue is empty; any failure fails it at once and cancels the other inners.
/// - Who calls the subscriber (the *emitter*) is not recorded here but in the subscription's
///   atomic word (see ``DeliveryEmitter``), so that an inner value can take that role without
///   the lock. The downstream half (``emitter``) says what the emitter must do next; this value
///   adds whether values may skip it altogether (``fastEligible``).
@usableFromInline
struct FlatMapStateMachine<Downstream: Subscriber>: EmitterMachine {
    @usableFromInline
    typealias Input = Downstream.Input

    @usableFromInline
    typealias Box = SubscriberBox<Downstream>

    /// What to perform outside the lock, besides an emission.
    @usableFromInline
    struct Action {
        /// Ask every inner for everything (the subscriber's demand became unlimited).
        @usableFromInline
        var requestAll = false
        /// Subscriptions to cancel.
        @usableFromInline
        var cancel = ContiguousArray<any Subscription>()
        /// Ask the upstream for one more publisher.
        @usableFromInline
        var requestOne: (any Subscription)?
        /// A subscription let go of, dropped only after the emission (a failing inner's, which
        /// Apple's operator holds until the failure has been delivered).
        @usableFromInline
        var releaseAfter: (any Subscription)?

        @inlinable
        init() {}
    }

    /// What to do with an inner value that could not take the lock-free path.
    @usableFromInline
    enum ValueDecision {
        /// Dropped (a replaced inner, or the operator is done).
        case drop
        /// Deliver it on this thread as the emitter; the inner gets `oneMore` back (`max(1)`, or
        /// `none` when the demand is unlimited).
        case deliver(oneMore: Subscribers.Demand)
        /// Deliver it at once on this thread, which is emitting further up its stack (the inner
        /// sent it from inside the subscriber), nested in the delivery in progress; the inner
        /// gets `oneMore` back.
        case deliverNested(oneMore: Subscribers.Demand)
        /// Queued, with a ticket for its delivery.
        case queued
    }

    /// The upstream's and the inners' bookkeeping, first: see ``FlatMapCore``.
    @usableFromInline
    var core: FlatMapCore

    @usableFromInline
    typealias UpstreamPhase = FlatMapCore.UpstreamPhase

    /// The subscriber's side: its box and demand, the values waiting for that demand (each tagged
    /// with the inner that sent it) and the completion decided for it. Last: its size depends on
    /// the subscriber's types, and the fields before it are then reached at fixed offsets in a
    /// debug build, without this type's metadata.
    @usableFromInline
    var emitter: EmitterState<Downstream, FlatMapTag>

    /// See ``EmitterMachine/deliverAtOnce(_:tag:emitting:)``.
    @inlinable
    mutating func deliverAtOnce(_ value: Downstream.Input, tag: FlatMapTag, emitting: Bool) -> Bool {
        emitter.deliverAtOnce(value, tag: tag, emitting: emitting)
    }

    @inlinable
    init(box: Box, maxPublishers: Subscribers.Demand) {
        core = FlatMapCore(maxPublishers: maxPublishers)
        emitter = EmitterState(box: box)
    }

    // MARK: Delivery

    /// Whether events are still accepted (not cancelled, no completion decided). Tests the
    /// emitter's phase field rather than calling ``EmitterState/isOpen``: a debug build calls a
    /// method of the generic emitter state with its metadata, looked up on every call (three
    /// times for every inner publisher), and reaches the field at a fixed offset without it.
    @inlinable
    var isOpen: Bool { core.emitterFlags.checked(open: emitter.phase.isOpen) }

    /// Whether an inner value may go straight to the subscriber with no bookkeeping: open,
    /// nothing queued, and unlimited demand (so there is nothing to count).
    @inlinable
    var fastEligible: Bool { emitter.flowsFreely && core.completionAwaitsTransforms == 0 }

    /// For the emitter, after a delivered value: records the demand the subscriber returned.
    /// Never asks for a top-up: inners are asked one value at a time instead.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        _ = emitter.delivered(additional: additional)
        core.emitterFlags.note(demand: additional)
        return false
    }

    /// For the emitter, after delivering a queued value while the demand is finite: the
    /// subscription of the inner that sent it, with ``FlatMapCore/requestingOne`` set (values
    /// sent from inside that request are queued); `nil` when that inner is gone.
    @inlinable
    mutating func beginFollowUp(after tag: FlatMapTag) -> (any Subscription)? {
        guard isOpen, emitter.demand != .unlimited, core.inners[tag.index].generation == tag.generation,
            core.inners[tag.index].isSubscribed
        else { return nil }
        core.requestingOne = true
        return core.inners[tag.index].subscription
    }

    @inlinable
    mutating func endFollowUp() {
        core.requestingOne = false
    }

    // MARK: Upstream (the publisher of values to transform)

    /// Keeps the upstream's subscription; `false` when it must be cancelled (a second one, or
    /// the operator is already done: the subscriber cancelled before it arrived).
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription) -> Bool {
        guard !emitter.terminated, case .awaitingSubscription = core.upstreamPhase else { return false }
        core.upstreamPhase = .subscribed
        PlaceholderSubscription.fill(&core.upstreamSubscription, with: subscription)
        return true
    }

    /// Whether values are still wanted: the upstream has subscribed (a value sent before its
    /// subscription is ignored, as Apple's `flatMap` ignores it) and not finished.
    @inlinable
    var acceptsUpstreamValues: Bool { core.acceptsUpstreamValues }

    /// Reserves a slot for the inner publisher of a new upstream value; `nil` when the operator
    /// no longer wants values (then the transform is not called).
    @inlinable
    mutating func registerInner() -> (index: Int, generation: Int)? {
        core.registerInner()
    }




    /// The upstream's completion. `duringTransforms`: how many transforms whose inners are not
    /// counted yet it comes from inside, which the operator must then wait for.
    @inlinable
    mutating func receiveUpstream(
        completion: Subscribers.Completion<Downstream.Failure>, duringTransforms: Int = 0
    ) -> Action {
        guard isOpen, !core.upstreamFinished else { return Action() }
        _ = core.leaveUpstream()
        switch completion {
        case .finished:
            core.upstreamPhase = .finished(awaitingTransforms: duringTransforms)
            if duringTransforms == 0, core.innersDone {
                emitter.finish(keeping: &core.emitterFlags)
            }
            return Action()
        case .failure(let error):
            emitter.fail(error, keeping: &core.emitterFlags)
            var action = Action()
            action.cancel = core.closeInners(except: -1)
            return action
        }
    }

    // MARK: Inner publishers

    /// What to do with an inner publisher's subscription.
    @usableFromInline
    typealias InnerSubscriptionDecision = FlatMapInnerSubscriptionDecision

    @inlinable
    mutating func receiveInner(subscription: any Subscription, at index: Int, generation: Int) -> InnerSubscriptionDecision {
        core.receiveInner(subscription: subscription, at: index, generation: generation)
    }

    /// Accepts an inner value that could not take the lock-free path. `emitting` says whether
    /// the emitter role may be held (by another thread, by this one further up the stack, or
    /// taken at any moment through the lock-free path); `nested`, that this thread holds it (the
    /// value comes from inside the subscriber). A nested value goes out at once while there is
    /// demand, even ahead of queued values, as in Apple's operator, unless it comes from inside
    /// the emitter's request for one more.
    @inlinable
    mutating func receiveInner(
        _ value: Input, at index: Int, generation: Int, emitting: Bool, nested: Bool = false
    ) -> ValueDecision {
        // A replaced inner's values, and anything after a cancel or the completion, are dropped.
        guard isOpen, core.inners[index].generation == generation else { return .drop }
        if nested, emitter.demand > 0, !core.requestingOne {
            if emitter.demand == .unlimited { return .deliverNested(oneMore: .none) }
            emitter.demand -= 1
            return .deliverNested(oneMore: .max(1))
        }
        if !emitting, emitter.queuedCount == 0, emitter.demand > 0 {
            if emitter.demand == .unlimited { return .deliver(oneMore: .none) }
            emitter.demand -= 1
            return .deliver(oneMore: .max(1))
        }
        emitter.enqueue(value, tag: FlatMapTag(index: index, generation: generation))
        return .queued
    }

    /// The common way an inner publisher ends: it finishes while the upstream still runs and
    /// `maxPublishers` is unlimited. Then nothing is to be requested or delivered, so the slot is
    /// just freed and `true` returned. Otherwise nothing changes and the caller goes the general
    /// way (``receiveInner(completion:at:generation:)``).
    @inlinable
    mutating func finishInnerQuietly(at index: Int, generation: Int) -> Bool {
        core.finishInnerQuietly(at: index, generation: generation)
    }

    @inlinable
    mutating func receiveInner(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int, generation: Int
    ) -> Action {
        var action = Action()
        guard isOpen else { return action }
        guard core.inners[index].generation == generation, !core.inners[index].isFree else {
            // An inner that already finished, finishing again: Apple's operator does not tell it
            // from a live one and asks the upstream for one more publisher all the same (§2d:
            // the misbehaviour is the inner's, and Apple passes it on).
            if case .finished = completion, !core.upstreamFinished, core.maxPublishers != .unlimited {
                action.requestOne = core.upstream
            }
            return action
        }
        // Done: the slot may serve a later inner. (One that completes before its subscription
        // keeps its slot, and still counts as pending, until that subscription arrives.)
        var held: (any Subscription)?
        if core.inners[index].isSubscribed {
            held = core.inners[index].free(after: core.firstFree)
            core.heldSubscriptions -= 1
            core.firstFree = index
        }
        switch completion {
        case .finished:
            if core.upstreamFinished {
                if core.innersDone { emitter.finish(keeping: &core.emitterFlags) }
            } else if core.maxPublishers != .unlimited {
                action.requestOne = core.upstream
            }
        case .failure(let error):
            emitter.fail(error, keeping: &core.emitterFlags)
            action.releaseAfter = held
            action.cancel = core.closeInners(except: index)
            // Apple's operator leaves the upstream alone here; it is let go of without a cancel.
            _ = core.leaveUpstream()
        }
        return action
    }

    // MARK: Downstream

    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Action {
        var action = Action()
        guard !emitter.terminated else { return action }
        if more == .unlimited { action.requestAll = true }
        emitter.demand += more
        core.emitterFlags.note(demand: emitter.demand)
        return action
    }

    /// After a request has been handled: Apple's operator tests here whether it is done, counting
    /// a second subscription of one inner against the first (the sum, not each term, must be
    /// zero).
    @inlinable
    mutating func finishAfterRequest() -> Action {
        if isOpen, core.upstreamFinished, core.pendingSubscriptions + core.heldSubscriptions == 0,
            core.completionAwaitsTransforms == 0
        {
            emitter.finish(keeping: &core.emitterFlags)
        }
        return Action()
    }

    /// The subscriptions of every inner, to ask each for everything.
    @inlinable
    func heldInnerSubscriptions() -> ContiguousArray<any Subscription> {
        var held = ContiguousArray<any Subscription>()
        guard isOpen else { return held }
        for index in core.inners.indices where core.inners[index].isSubscribed {
            held.append(core.inners[index].subscription)
        }
        return held
    }

    /// Cancels: nothing more is delivered; the box is released by the emitter.
    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        emitter.cancel(keeping: &core.emitterFlags)
        // The inners first, then the upstream, as Apple's operator cancels them.
        var held = core.closeInners(except: -1)
        if let upstream = core.leaveUpstream() { held.append(upstream) }
        return held
    }

}

/// What `flatMap` does with an inner publisher's subscription; the caller still holds it, so it
/// is not copied out again (every copy of an `any Subscription` goes through its value
/// witnesses). Not nested in the generic machine, whose nested types are generic too: a debug
/// build would look up this enum's metadata for every inner publisher.
@usableFromInline
enum FlatMapInnerSubscriptionDecision {
    /// Keep it and request this much (one value, or everything once the demand is unlimited).
    case request(Subscribers.Demand, replaced: (any Subscription)?)
    case cancel
}

/// The part of a `flatMap`'s state that does not depend on the subscriber's types: the upstream
/// and the inner publishers' slots and counts, the first field of ``FlatMapStateMachine``. Not
/// generic, so that a debug build runs the checks made for every inner publisher
/// (``registerInner()``, ``receiveInner(subscription:at:generation:)``,
/// ``finishInnerQuietly(at:generation:)``) without looking up the machine's metadata, which a
/// call of a method of the generic machine costs each time (about 330 instructions), and so does
/// reaching any field of its generic ``EmitterState``. What those checks need of the subscriber's
/// side (whether the operator is open, whether the demand is unlimited) is copied here
/// (``emitterFlags``).
@usableFromInline
struct FlatMapCore {
    @usableFromInline
    let maxPublishers: Subscribers.Demand

    /// Where the upstream (the publisher of values to transform) stands.
    @usableFromInline
    enum UpstreamPhase {
        /// Its subscription has not arrived; a value sent now is ignored, as Apple's `flatMap`
        /// ignores it.
        case awaitingSubscription
        /// Its subscription is held in ``FlatMapCore/upstreamSubscription``; its values
        /// are transformed.
        case subscribed
        /// It completed, or the operator let go of it (a failure, a cancel). `awaitingTransforms`:
        /// how many transforms whose inner publisher is not counted yet (one that may be delivered
        /// without a subscription, see ``ImmediateOutput``) were running when the upstream
        /// finished from inside them (more than one when a transform sent into its own upstream):
        /// the operator must wait for their inners, which the transforms' callers then register
        /// (``registerAfterTransform()``).
        case finished(awaitingTransforms: Int)
    }

    @usableFromInline
    var upstreamPhase = UpstreamPhase.awaitingSubscription

    /// The upstream's subscription while ``UpstreamPhase/subscribed``; otherwise a
    /// ``PlaceholderSubscription``. Kept apart from the phase, whose tests run for every upstream
    /// value and every inner: with the existential as a payload, each test copied the phase
    /// (about 150 instructions per value of `flatMap { Just($0) }`).
    @usableFromInline
    var upstreamSubscription: any Subscription = PlaceholderSubscription()

    /// Inner publishers by slot; a finished slot is reused.
    @usableFromInline
    var inners = ContiguousArray<FlatMapInnerSlot>()

    /// The most recently freed slot, `-1` when none; each free slot links to the one freed
    /// before it (``FlatMapInnerSlot/Phase/free(nextFree:)``), so reusing one touches no second
    /// array.
    @usableFromInline
    var firstFree = -1

    @usableFromInline
    var nextGeneration = 0

    /// Inners subscribed to whose subscription has not arrived, less the subscriptions that
    /// arrived a second time for the same inner (Apple counts every arrival; a misbehaving inner
    /// can make this negative).
    @usableFromInline
    var pendingSubscriptions = 0

    /// Inners whose subscription is held.
    @usableFromInline
    var heldSubscriptions = 0

    /// The upstream's subscription while it is held.
    @inlinable
    var upstream: (any Subscription)? {
        if case .subscribed = upstreamPhase { return upstreamSubscription }
        return nil
    }

    /// Whether the upstream has completed or been let go of.
    @inlinable
    var upstreamFinished: Bool {
        if case .finished = upstreamPhase { return true }
        return false
    }

    /// See ``UpstreamPhase/finished(awaitingTransforms:)``.
    @inlinable
    var completionAwaitsTransforms: Int {
        if case .finished(let transforms) = upstreamPhase { return transforms }
        return 0
    }

    /// Lets go of the upstream without a cancel; returns its subscription, if it was held.
    @inlinable
    mutating func leaveUpstream() -> (any Subscription)? {
        switch upstreamPhase {
        case .awaitingSubscription:
            upstreamPhase = .finished(awaitingTransforms: 0)
            return nil
        case .subscribed:
            upstreamPhase = .finished(awaitingTransforms: 0)
            return PlaceholderSubscription.take(from: &upstreamSubscription)
        case .finished:
            return nil
        }
    }

    /// The emitter is asking an inner for one more value after delivering its queued one: what
    /// any inner sends meanwhile from inside that request is queued, not delivered nested (as
    /// Apple's operator does, for every inner).
    @usableFromInline
    var requestingOne = false


    /// A slot for an inner publisher, counted as pending until its subscription arrives.
    @inlinable
    mutating func register() -> (index: Int, generation: Int) {
        pendingSubscriptions += 1
        nextGeneration += 1
        let index: Int
        if firstFree >= 0 {
            index = firstFree
            firstFree = inners[index].reuse(generation: nextGeneration)
        } else {
            index = inners.count
            inners.append(FlatMapInnerSlot(generation: nextGeneration))
        }
        return (index, nextGeneration)
    }

    /// For an inner publisher made by a transform that ran uncounted (see
    /// ``completionAwaitsTransforms``) and could not be delivered without a subscription: its
    /// slot, whatever happened meanwhile, as if it had been registered before the transform
    /// (an operator that was cancelled meanwhile cancels its subscription when it arrives).
    @inlinable
    mutating func registerAfterTransform() -> (index: Int, generation: Int) {
        if case .finished(let transforms) = upstreamPhase, transforms > 0 {
            upstreamPhase = .finished(awaitingTransforms: transforms - 1)
        }
        return register()
    }

    /// Releases every inner's subscription but the one at `except`, returning them for
    /// cancelling.
    @inlinable
    mutating func closeInners(except: Int) -> ContiguousArray<any Subscription> {
        var held = ContiguousArray<any Subscription>()
        for index in inners.indices where index != except && inners[index].isSubscribed {
            held.append(inners[index].close())
        }
        heldSubscriptions = 0
        return held
    }

    /// Whether every inner has finished (or never was): Apple's test after an inner's or the
    /// upstream's completion.
    @inlinable
    var innersDone: Bool { pendingSubscriptions == 0 && heldSubscriptions == 0 && completionAwaitsTransforms == 0 }

    // MARK: For every inner publisher

    /// What the checks below need of the operator's ``EmitterState``: whether it is open and
    /// whether the demand is unlimited. `FlatMapStateMachine.isOpen` asserts that the copy of the
    /// phase agrees.
    @usableFromInline
    var emitterFlags = EmitterFlags()

    /// Whether values are still wanted: the operator is open, and the upstream has subscribed
    /// (a value sent before its subscription is ignored, as Apple's `flatMap` ignores it) and
    /// not finished.
    @inlinable
    var acceptsUpstreamValues: Bool {
        guard emitterFlags.open, case .subscribed = upstreamPhase else { return false }
        return true
    }

    /// See ``FlatMapStateMachine/registerInner()``.
    @inlinable
    mutating func registerInner() -> (index: Int, generation: Int)? {
        guard acceptsUpstreamValues else { return nil }
        return register()
    }

    /// See ``FlatMapStateMachine/receiveInner(subscription:at:generation:)``.
    @inlinable
    mutating func receiveInner(
        subscription: any Subscription, at index: Int, generation: Int
    ) -> FlatMapInnerSubscriptionDecision {
        guard emitterFlags.open, inners[index].generation == generation, !inners[index].isFree else { return .cancel }
        pendingSubscriptions -= 1
        // A second subscription for the same inner replaces the first, which is let go of
        // without a cancel, as Apple's operator does.
        var replaced: (any Subscription)?
        if inners[index].isSubscribed {
            replaced = inners[index].replace(with: subscription)
        } else {
            heldSubscriptions += 1
            inners[index].hold(subscription)
        }
        return .request(emitterFlags.demandUnlimited ? .unlimited : .max(1), replaced: replaced)
    }

    /// See ``FlatMapStateMachine/finishInnerQuietly(at:generation:)``.
    @inlinable
    mutating func finishInnerQuietly(at index: Int, generation: Int) -> Bool {
        guard !upstreamFinished, maxPublishers == .unlimited, emitterFlags.open, inners[index].generation == generation,
            inners[index].isSubscribed
        else { return false }
        _ = inners[index].free(after: firstFree)
        heldSubscriptions -= 1
        firstFree = index
        return true
    }

    @inlinable
    init(maxPublishers: Subscribers.Demand) {
        self.maxPublishers = maxPublishers
    }
}

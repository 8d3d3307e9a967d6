/// Stands in for an inner publisher's subscription in a ``FlatMapInnerSlot`` before it arrives and
/// after the inner is done. (A placeholder rather than an optional: assigning an optional
/// existential goes through generic value witnesses, which cost a hundred-odd instructions per
/// inner publisher.) Never handed to anyone.
@usableFromInline
struct FlatMapNoSubscription: Subscription {
    @inlinable
    init() {}

    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier() }

    @inlinable
    func request(_ demand: Subscribers.Demand) {}

    @inlinable
    func cancel() {}
}

/// What a flat map knows about one inner publisher: its subscription, how much it has been
/// granted and not yet used, and whether it is done. A slot is reused once its inner is done;
/// `generation` tells the inner it was made for from later ones.
@usableFromInline
struct FlatMapInnerSlot {
    /// The inner's subscription while ``subscribed``; otherwise a ``FlatMapNoSubscription``.
    @usableFromInline
    var subscription: any Subscription = FlatMapNoSubscription()

    @usableFromInline
    var subscribed = false

    /// Demand requested from this inner and not yet used by a value.
    @usableFromInline
    var granted: Subscribers.Demand = .none

    /// The inner finished or was cancelled.
    @usableFromInline
    var finished = false

    @usableFromInline
    var generation: Int

    /// While the slot is free: the slot freed before it, or `-1`.
    @usableFromInline
    var nextFree = -1

    @inlinable
    init(generation: Int) {
        self.generation = generation
    }

    /// Makes the slot ready for a new inner; the subscription is already the placeholder.
    @inlinable
    mutating func reuse(generation: Int) {
        self.generation = generation
        granted = .none
        finished = false
    }

    /// Raises the grant to `target`; returns the subscription and the extra demand to request
    /// (outside the lock), or `nil` when the inner already has enough or cannot be asked.
    @inlinable
    mutating func topUp(to target: Subscribers.Demand) -> (any Subscription, Subscribers.Demand)? {
        guard !finished, subscribed, target > granted else { return nil }
        let extra = target - granted
        granted = target
        return (subscription, extra)
    }

    /// Stores the inner's subscription in place of the placeholder.
    ///
    /// Destroying the placeholder and initialising the field, rather than assigning, skips the
    /// runtime's generic existential assignment (which compares the two dynamic types first).
    @inlinable
    mutating func hold(_ newSubscription: any Subscription) {
        subscribed = true
        withUnsafeMutablePointer(to: &subscription) { field in
            field.deinitialize(count: 1)
            field.initialize(to: newSubscription)
        }
    }

    /// Puts the placeholder back, returning the subscription it replaces.
    @inlinable
    mutating func release() -> any Subscription {
        subscribed = false
        return withUnsafeMutablePointer(to: &subscription) { field in
            let held = field.move()
            field.initialize(to: FlatMapNoSubscription())
            return held
        }
    }

    /// Marks the inner done; returns its subscription, if any, for cancelling.
    @inlinable
    mutating func close() -> (any Subscription)? {
        finished = true
        guard subscribed else { return nil }
        return release()
    }

    /// Marks the inner finished by itself: its subscription is just dropped.
    @inlinable
    mutating func finish() {
        finished = true
        if subscribed { _ = release() }
    }
}

/// The state of one `flatMap` subscription as a pure value; every method runs under the
/// subscription's lock and returns what to do after unlocking.
///
/// - The upstream is asked for `maxPublishers` publishers at first, and for one more each time an
///   inner publisher finishes (unless `maxPublishers` is unlimited), so at most `maxPublishers`
///   inners are alive at once; `.max(1)` therefore concatenates them.
/// - Each inner is granted at most the downstream demand no queued value is already waiting to
///   spend; grants only grow with downstream demand, so inner values never outrun it.
/// - Inner completions are absorbed. The operator finishes once the upstream and every inner have
///   finished; any failure fails it at once and cancels everything else.
/// - Who calls the subscriber (the *emitter*) is not recorded here but in the subscription's
///   atomic word, so that an inner value can take that role without the lock. This value only
///   says what the emitter must do next (``next()``), whether there is something for a thread
///   that is not emitting to start (``hasWork``), and whether values may skip it altogether
///   (``fastEligible``).
@usableFromInline
struct FlatMapStateMachine<Downstream: Subscriber>: FanInCompletionDeciding, DeliveryTicketing {
    @usableFromInline
    typealias Input = Downstream.Input

    @usableFromInline
    typealias Box = SubscriberBox<Downstream>

    /// What the emitter does next, outside the lock.
    @usableFromInline
    enum Emission {
        /// Nothing: the role has been given back.
        case idle
        /// Deliver the value, then come back with the demand it returned (the role is kept).
        case value(Input)
        /// Deliver the completion; the role has been given back and the box is the caller's to
        /// drop afterwards.
        case completion(Subscribers.Completion<Downstream.Failure>, Box)
        /// The subscriber cancelled: drop the box (outside the lock), the role has been given back.
        case release(Box)
    }

    /// What to perform outside the lock, besides an emission.
    @usableFromInline
    struct Action {
        /// Whether inner grants may need topping up (downstream demand grew).
        @usableFromInline
        var topUp = false
        /// Subscriptions to cancel.
        @usableFromInline
        var cancel = ContiguousArray<any Subscription>()
        /// Ask the upstream for one more publisher.
        @usableFromInline
        var requestOne: (any Subscription)?

        @inlinable
        init() {}
    }

    /// The subscriber's box; `nil` once it has been handed out for the completion or for release.
    @usableFromInline
    var box: Box?

    /// The subscriber cancelled, or its completion was handed to the emitter.
    @usableFromInline
    var terminated = false

    /// Outstanding downstream demand, not yet spent on delivered values.
    @usableFromInline
    var demand: Subscribers.Demand = .none

    /// Values accepted from inners and not yet delivered.
    @usableFromInline
    var queue = DeliveryQueue<Input>()

    /// The completion to deliver once the queue has drained (a failure empties the queue).
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    /// Every queued value, counted for the inner publishers' threads that wait for its delivery.
    @usableFromInline
    var tickets = DeliveryTickets()

    @usableFromInline
    let maxPublishers: Subscribers.Demand

    @usableFromInline
    var upstream: (any Subscription)?

    @usableFromInline
    var upstreamFinished = false

    /// The upstream's subscription has arrived (a flag: testing the optional existential
    /// `upstream` would copy it, retain and release included, for every upstream value).
    @usableFromInline
    var upstreamSubscribed = false

    /// Inner publishers by slot; a finished slot is reused.
    @usableFromInline
    var inners = ContiguousArray<FlatMapInnerSlot>()

    /// The most recently freed slot, `-1` when none; each free slot links to the one freed
    /// before it (``FlatMapInnerSlot/nextFree``), so reusing one touches no second array.
    @usableFromInline
    var firstFree = -1

    @usableFromInline
    var nextGeneration = 0

    /// Inners subscribed (or being subscribed) and not finished.
    @usableFromInline
    var activeInners = 0

    @inlinable
    init(box: Box, maxPublishers: Subscribers.Demand) {
        self.box = box
        self.maxPublishers = maxPublishers
    }

    // MARK: Delivery

    /// Whether events are still accepted (not cancelled, no completion decided).
    @inlinable
    var isOpen: Bool { !terminated && pendingCompletion == nil }

    /// Whether an inner value may go straight to the subscriber with no bookkeeping: open,
    /// nothing queued, and unlimited demand (so there is nothing to count).
    @inlinable
    var fastEligible: Bool { demand == .unlimited && queue.isEmpty && isOpen }

    /// Whether a thread that is not emitting should take the role and start ``next()``.
    @inlinable
    var hasWork: Bool {
        if terminated { return box != nil }
        if !queue.isEmpty { return demand > 0 }
        return pendingCompletion != nil
    }

    /// Demand that no queued value is already waiting to spend.
    @inlinable
    var freeDemand: Subscribers.Demand { demand - queue.count }

    /// For the emitter: the next value (when demand allows), else the completion once the queue
    /// is empty; after a cancel, the box to release. `.idle` when there is nothing to do.
    @inlinable
    mutating func next() -> Emission {
        if terminated {
            guard let box else { return .idle }
            self.box = nil
            return .release(box)
        }
        if !queue.isEmpty {
            guard demand > 0, let value = queue.popFirst() else { return .idle }
            demand -= 1
            return .value(value)
        }
        if let completion = pendingCompletion, let box {
            pendingCompletion = nil
            terminated = true
            self.box = nil
            return .completion(completion, box)
        }
        return .idle
    }

    /// For the emitter, after a delivered value: records the demand the subscriber returned;
    /// returns whether inner grants may need topping up.
    @inlinable
    mutating func delivered(additional: Subscribers.Demand) -> Bool {
        guard !terminated, additional != .none, demand != .unlimited else { return false }
        demand += additional
        return true
    }


    // MARK: Upstream (the publisher of values to transform)

    /// Keeps the upstream's subscription; `false` when it must be cancelled (a second one, or
    /// the operator is already done: the subscriber cancelled before it arrived).
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription) -> Bool {
        guard !terminated, upstream == nil, !upstreamFinished else { return false }
        upstream = subscription
        upstreamSubscribed = true
        return true
    }

    /// Whether values are still wanted: the upstream has subscribed (a value sent before its
    /// subscription is ignored, as Apple's `flatMap` ignores it) and not finished.
    @inlinable
    var acceptsUpstreamValues: Bool { isOpen && !upstreamFinished && upstreamSubscribed }

    /// Reserves a slot for the inner publisher of a new upstream value; `nil` when the operator
    /// no longer wants values (then the transform is not called).
    @inlinable
    mutating func registerInner() -> (index: Int, generation: Int)? {
        guard acceptsUpstreamValues else { return nil }
        nextGeneration += 1
        let index: Int
        if firstFree >= 0 {
            index = firstFree
            firstFree = inners[index].nextFree
            inners[index].reuse(generation: nextGeneration)
        } else {
            index = inners.count
            inners.append(FlatMapInnerSlot(generation: nextGeneration))
        }
        activeInners += 1
        return (index, nextGeneration)
    }

    @inlinable
    mutating func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) -> Action {
        guard isOpen, !upstreamFinished else { return Action() }
        upstreamFinished = true
        upstream = nil
        switch completion {
        case .finished:
            if activeInners == 0 { finish() }
            return Action()
        case .failure(let error):
            fail(error)
            var action = Action()
            action.cancel = closeAll()
            return action
        }
    }

    // MARK: Inner publishers

    @inlinable
    func isCurrent(_ index: Int, _ generation: Int) -> Bool {
        inners[index].generation == generation && !inners[index].finished
    }

    /// What to do with an inner publisher's subscription; the caller still holds it, so it is not
    /// copied out again (every copy of an `any Subscription` goes through its value witnesses).
    @usableFromInline
    enum InnerSubscriptionDecision {
        case keep
        case request(Subscribers.Demand)
        case cancel
    }

    @inlinable
    mutating func receiveInner(subscription: any Subscription, at index: Int, generation: Int) -> InnerSubscriptionDecision {
        guard isOpen, isCurrent(index, generation), !inners[index].subscribed else {
            return .cancel
        }
        inners[index].hold(subscription)
        // The slot's initial grant: whatever downstream demand no queued value is waiting for.
        let target = freeDemand
        let granted = inners[index].granted
        guard target > granted else { return .keep }
        inners[index].granted = target
        return .request(target - granted)
    }

    /// Accepts an inner value that could not go straight to the subscriber: it joins the queue
    /// (the caller then settles who delivers it). Returns `false` when it is dropped.
    @inlinable
    mutating func receiveInner(_ value: Input, at index: Int, generation: Int) -> Bool {
        guard isOpen, isCurrent(index, generation) else { return false }
        inners[index].granted -= 1
        queue.append(value)
        tickets.enter()
        return true
    }

    /// The common way an inner publisher ends: it finishes while the upstream still runs and
    /// `maxPublishers` is unlimited. Then nothing is to be requested or delivered, so the slot is
    /// just closed and `true` returned. Otherwise nothing changes and the caller goes the general
    /// way (``receiveInner(completion:at:generation:)``).
    @inlinable
    mutating func finishInnerQuietly(at index: Int, generation: Int) -> Bool {
        guard !upstreamFinished, maxPublishers == .unlimited, isOpen, isCurrent(index, generation) else {
            return false
        }
        inners[index].finish()
        inners[index].nextFree = firstFree
        firstFree = index
        activeInners -= 1
        return true
    }

    @inlinable
    mutating func receiveInner(
        completion: Subscribers.Completion<Downstream.Failure>, at index: Int, generation: Int
    ) -> Action {
        guard isOpen, isCurrent(index, generation) else { return Action() }
        inners[index].finish()
        inners[index].nextFree = firstFree
        firstFree = index
        activeInners -= 1
        var action = Action()
        switch completion {
        case .finished:
            if upstreamFinished {
                if activeInners == 0 { finish() }
            } else if maxPublishers != .unlimited {
                action.requestOne = upstream
            }
        case .failure(let error):
            fail(error)
            action.cancel = closeAll()
        }
        return action
    }

    // MARK: Downstream

    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Action {
        var action = Action()
        guard !terminated else { return action }
        action.topUp = demand != .unlimited
        demand += more
        return action
    }

    @inlinable
    mutating func topUp(at index: Int) -> (any Subscription, Subscribers.Demand)? {
        guard isOpen, index < inners.count else { return nil }
        return inners[index].topUp(to: freeDemand)
    }

    /// Cancels: nothing more is delivered; the box is released by ``next()``.
    @inlinable
    mutating func cancel() -> ContiguousArray<any Subscription> {
        terminated = true
        queue.removeAll()
        tickets.markAllSettled()
        pendingCompletion = nil
        return closeAll()
    }

    /// Releases the upstream and every inner, returning their subscriptions for cancelling.
    @inlinable
    mutating func closeAll() -> ContiguousArray<any Subscription> {
        var held = ContiguousArray<any Subscription>()
        if let upstream { held.append(upstream) }
        upstream = nil
        upstreamFinished = true
        for index in inners.indices where !inners[index].finished {
            if let subscription = inners[index].close() { held.append(subscription) }
        }
        activeInners = 0
        return held
    }
}

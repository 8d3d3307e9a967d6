extension Publishers.Buffer {
    /// The state of a buffering stage, as a pure value.
    ///
    /// Calls into the subscriber must never overlap, yet values come from the upstream's thread
    /// and demand from the subscriber's. Whoever finds the stage idle becomes the *drainer*
    /// (it holds `role`): it delivers buffered values, one at a time outside the lock, until demand
    /// or values run out; anyone else only updates the state, and the drainer picks it up.
    @usableFromInline
    struct StateMachine {
        /// Where the upstream stands, with the subscription held in each stage: from its
        /// arrival until the completion goes out or the subscriber cancels (a failure of the
        /// upstream lets go of it at once). It is a ``SubscriptionHandle``, an object, because the
        /// checks made on every value and request switch over this enum; with an
        /// `any Subscription` payload each switch and copy would go through the existential's
        /// value witnesses.
        @usableFromInline
        enum Stage {
            case awaitingSubscription
            case subscribed(SubscriptionHandle)
            /// The upstream has finished. Its subscription is still held (a cancel still reaches
            /// it) and values it still sends are buffered, as Apple's stage does; `finished` waits
            /// in `pendingCompletion` until the buffer is empty and the subscriber has demand left.
            /// Later completions are ignored.
            case finished(SubscriptionHandle)
            /// A failure (the upstream's, or the overflow error) waits in `pendingCompletion`
            /// behind the values still buffered; it needs no demand. Later values are ignored. After
            /// an overflow the (cancelled) subscription is held until the failure goes out; after a
            /// failure of the upstream, none is.
            case failing(SubscriptionHandle?)
            case terminal
        }

        /// The stage with its subscription, as the stage's mirror shows it.
        @usableFromInline
        enum Phase {
            case awaitingSubscription
            case subscribed(any Subscription)
            case finished(any Subscription)
            case failing((any Subscription)?)
            case terminal
        }

        /// What the upstream's value asks the caller to do.
        @usableFromInline
        enum ValueAction {
            case none
            /// Hand the value straight to the subscriber; the caller is now the drainer.
            case deliver(Upstream.Output)
            /// The value was buffered and there is demand: the caller is now the drainer.
            case drain
            /// The buffer is full and the strategy is `customError`: cancel the subscription,
            /// make the error and pass it to ``failed(_:)``.
            case overflow(SubscriptionHandle, () -> Upstream.Failure)
        }

        /// The upstream subscription while values may still come from it.
        @inlinable
        var upstream: SubscriptionHandle? {
            switch stage {
            case .subscribed(let subscription), .finished(let subscription): return subscription
            case .awaitingSubscription, .failing, .terminal: return nil
            }
        }

        /// The subscription the stage holds, whether or not values may still come from it.
        @inlinable
        var held: SubscriptionHandle? {
            switch stage {
            case .subscribed(let subscription), .finished(let subscription): return subscription
            case .failing(let subscription): return subscription
            case .awaitingSubscription, .terminal: return nil
            }
        }

        @usableFromInline
        var phase: Phase {
            switch stage {
            case .awaitingSubscription: return .awaitingSubscription
            case .subscribed(let held): return .subscribed(held.subscription)
            case .finished(let held): return .finished(held.subscription)
            case .failing(let held): return .failing(held?.subscription)
            case .terminal: return .terminal
            }
        }

        @inlinable
        static func isFinished(_ completion: Subscribers.Completion<Upstream.Failure>) -> Bool {
            if case .finished = completion { return true }
            return false
        }

        /// One step of the drainer's loop.
        @usableFromInline
        enum DrainStep {
            case deliver(Upstream.Output)
            /// Deliver the completion, then ask the upstream subscription it returns for `more`
            /// (what the values delivered since the upstream finished left missing, as Apple's
            /// stage asks) and let go of it, and of the values an overflow error dropped.
            case complete(
                Subscribers.Completion<Upstream.Failure>, releasing: SubscriptionHandle?, more: Subscribers.Demand,
                dropped: DeliveryQueue<Upstream.Output>)
            case done
        }

        @usableFromInline let size: Int
        @usableFromInline let prefetch: Publishers.PrefetchStrategy
        @usableFromInline let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        @usableFromInline var stage: Stage = .awaitingSubscription
        @usableFromInline var buffer = DeliveryQueue<Upstream.Output>()
        /// What the subscriber has asked for and not received.
        @usableFromInline var demand: Subscribers.Demand = .none
        /// What has been asked of the upstream and not received.
        @usableFromInline var upstreamDemand: Subscribers.Demand = .none
        @usableFromInline var role = DeliveryFlag()
        @usableFromInline var pendingCompletion: Subscribers.Completion<Upstream.Failure>?
        /// Whether the current holder of `role` has delivered a value: an overflow error waiting
        /// in `pendingCompletion` goes out once such a delivery has used up the demand, and not
        /// when a turn merely finds no demand.
        @usableFromInline var deliveredInTurn = false

        @inlinable
        init(size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Upstream.Failure>) {
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// The prefetch to request from the subscription if it is the first one (and is kept);
        /// `nil` if it must be cancelled.
        @inlinable
        mutating func subscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
            guard case .awaitingSubscription = stage else { return nil }
            stage = .subscribed(SubscriptionHandle(subscription))
            // The caller is the drainer until it has handed the subscription down: whatever a
            // synchronous upstream sends in answer to the prefetch waits until then.
            role.take()
            return topUp()
        }

        /// How much more to ask of the upstream now, to reach what the strategy wants
        /// outstanding: the free room (`keepFull`), or everything (`byRequest`, which Apple's
        /// stage turns into one `request(.unlimited)` when the subscription arrives). Records the
        /// request as made.
        @inlinable
        mutating func topUp() -> Subscribers.Demand {
            // A finished upstream is still asked for what the delivered values left missing:
            // Apple's stage does not look at the upstream's state before asking.
            switch stage {
            case .subscribed, .finished: break
            case .awaitingSubscription, .failing, .terminal: return .none
            }
            guard upstreamDemand != .unlimited else { return .none }
            let target: Subscribers.Demand
            switch prefetch {
            case .keepFull: target = .max(Swift.max(0, size - buffer.count))
            case .byRequest: target = .unlimited
            }
            let deficit = target - upstreamDemand
            guard deficit > 0 else { return .none }
            upstreamDemand += deficit
            return deficit
        }

        /// `topUp()` together with the subscription to send it to.
        @inlinable
        mutating func topUpRequest() -> (SubscriptionHandle, Subscribers.Demand)? {
            // The subscription is copied out only when there is something to ask for: this runs
            // on every request of a subscriber that asks one value at a time (`values`).
            let more = topUp()
            guard more > 0, let subscription = upstream else { return nil }
            return (subscription, more)
        }

        @inlinable
        mutating func value(_ value: Upstream.Output) -> ValueAction {
            switch stage {
            case .subscribed, .finished: break
            case .awaitingSubscription, .failing, .terminal: return .none
            }
            upstreamDemand -= 1
            if !role.isHeld, buffer.count == 0, demand > 0 {
                demand -= 1
                role.take()
                deliveredInTurn = true
                return .deliver(value)
            }
            if buffer.count < size {
                buffer.append(value)
            } else {
                switch whenFull {
                case .dropNewest:
                    return .none
                case .dropOldest:
                    _ = buffer.popFirst()
                    buffer.append(value)
                case .customError(let makeError):
                    // Only here is the subscription copied out (it is cancelled outside the lock).
                    guard let subscription = upstream else { return .none }
                    stage = .failing(subscription)
                    return .overflow(subscription, makeError)
                }
            }
            if !role.isHeld, demand > 0 {
                role.take()
                return .drain
            }
            return .none
        }

        /// The overflow error has been made: whether the caller is now the drainer. It waits
        /// for the subscriber to ask, then goes out as soon as its demand runs out (values still
        /// buffered then are dropped), or once the buffer is empty, with no demand needed
        /// (spec §15 rule 3).
        @inlinable
        mutating func failed(_ error: Upstream.Failure) -> Bool {
            guard case .failing = stage else { return false }
            if case .failure? = pendingCompletion { return false }
            pendingCompletion = .failure(error)
            guard role.tryTake() else { return false }
            return true
        }

        /// What a completion of the upstream leaves for the caller: whether it is now the
        /// drainer, and what to release outside the lock.
        @usableFromInline
        struct Completed {
            @usableFromInline var drain = false
            @usableFromInline var discarded = DeliveryQueue<Upstream.Output>()
            @usableFromInline var released: SubscriptionHandle?

            @inlinable init() {}
        }

        /// The upstream completed. A failure discards the buffer and lets go of the
        /// subscription (both returned for release), so it is delivered at once; `finished` waits.
        @inlinable
        mutating func completed(_ completion: Subscribers.Completion<Upstream.Failure>) -> Completed {
            var result = Completed()
            guard case .subscribed(let subscription) = stage else { return result }
            switch completion {
            case .finished:
                stage = .finished(subscription)
            case .failure:
                stage = .failing(nil)
                result.released = subscription
                result.discarded = buffer.takeAll()
            }
            pendingCompletion = completion
            result.drain = role.tryTake()
            return result
        }

        /// The subscriber asked for more: whether the caller is now the drainer.
        @inlinable
        mutating func request(_ more: Subscribers.Demand) -> Bool {
            switch stage {
            case .terminal, .awaitingSubscription: return false
            case .subscribed, .finished, .failing: break
            }
            demand += more
            guard role.tryTake() else { return false }
            return true
        }

        /// The drainer delivered a value and the subscriber returned `more`.
        @inlinable
        mutating func added(_ more: Subscribers.Demand) {
            if case .terminal = stage { return }
            demand += more
        }

        /// Whether ``pendingCompletion`` may hold a completion: only once the upstream has finished
        /// or failed.
        @inlinable
        var completionMayWait: Bool {
            switch stage {
            case .finished, .failing: return true
            case .awaitingSubscription, .subscribed, .terminal: return false
            }
        }

        /// The drainer's next step; `.done` and `.complete` end its turn.
        ///
        /// The steps that handle an optional of a generic type (the completion, a popped value)
        /// are functions of their own: a debug build looks up the metadata of every such optional
        /// when it enters the function that declares it, and most calls need neither (a turn
        /// ends with a call that finds no demand). They are inlined into this one in an
        /// optimised build.
        @inlinable
        mutating func nextDrainStep() -> DrainStep {
            if case .terminal = stage {
                releaseRole()
                return .done
            }
            // Looked at only when the turn could end (a value to deliver with demand to deliver it
            // is the common step, and reading the completion costs its value witnesses), and only
            // in the stages where a completion waits: the test of the optional looks up type
            // metadata at run time in a debug build. (`buffer.count`, a stored field, for the same
            // reason: `isEmpty` is a method of the generic queue.)
            if completionMayWait, buffer.count == 0 || demand == .none, completionIsDue {
                return completionStep()
            }
            if demand > 0, buffer.count != 0 {
                return deliveryStep()
            }
            releaseRole()
            return .done
        }

        /// Whether the completion waiting in ``pendingCompletion`` is due. `finished` waits for
        /// the buffer to empty and for demand; a failure needs no demand, and an overflow error
        /// does not wait for the values still buffered once a delivery has used up the demand
        /// (they are dropped). In the `finished` stage the completion waiting is `finished` (the
        /// two are set together), which is answered without reading the optional: a debug build
        /// looks up the metadata of an optional of a generic type to test it, and this is asked
        /// on every turn once the upstream has finished with values still buffered.
        @inlinable @inline(__always)
        var completionIsDue: Bool {
            if case .finished = stage { return buffer.count == 0 && demand > 0 }
            return failureIsDue
        }

        /// ``completionIsDue`` in the `failing` stage, where the failure may not have been made
        /// yet (an overflow error).
        @inlinable @inline(__always)
        var failureIsDue: Bool {
            guard let completion = pendingCompletion else { return false }
            if Self.isFinished(completion) {
                return buffer.isEmpty && demand > 0
            }
            return buffer.isEmpty || deliveredInTurn
        }

        /// ``nextDrainStep()`` once ``completionIsDue``: the completion, ending the stage.
        @inlinable @inline(__always)
        mutating func completionStep() -> DrainStep {
            let completion = pendingCompletion!
            let more = Self.isFinished(completion) ? topUp() : .none
            pendingCompletion = nil
            let releasing = held
            stage = .terminal
            releaseRole()
            return .complete(completion, releasing: releasing, more: more, dropped: buffer.takeAll())
        }

        /// ``nextDrainStep()`` with demand and a value buffered: the oldest value.
        @inlinable @inline(__always)
        mutating func deliveryStep() -> DrainStep {
            // The caller saw `buffer.count != 0`: no second test of the pop in an optimised build.
            let value = buffer.popFirst().unsafelyUnwrapped
            demand -= 1
            deliveredInTurn = true
            return .deliver(value)
        }

        @inlinable
        mutating func releaseRole() {
            deliveredInTurn = false
            role.release()
        }

        /// What a cancel leaves for the caller to do outside the lock.
        @usableFromInline
        struct Cancelled {
            /// The subscription to cancel; `nil` when values can no longer come from it.
            @usableFromInline var toCancel: SubscriptionHandle?
            /// What to release: the values waiting and the subscription.
            @usableFromInline var discarded = DeliveryQueue<Upstream.Output>()
            @usableFromInline var released: SubscriptionHandle?

            @inlinable init() {}
        }

        /// The subscriber cancelled.
        @inlinable
        mutating func cancel() -> Cancelled {
            var result = Cancelled()
            // A cancel before the subscription arrives does nothing, as Apple's stage.
            switch stage {
            case .terminal, .awaitingSubscription: return result
            default: break
            }
            result.toCancel = upstream
            result.released = held
            stage = .terminal
            pendingCompletion = nil
            result.discarded = buffer.takeAll()
            return result
        }
    }
}


extension Publishers.Buffer {
    /// The state of a buffering stage, as a pure value.
    ///
    /// Calls into the subscriber must never overlap, yet values come from the upstream's thread
    /// and demand from the subscriber's. Whoever finds the stage idle becomes the *drainer*
    /// (`draining`): it delivers buffered values, one at a time outside the lock, until demand
    /// or values run out; anyone else only updates the state, and the drainer picks it up.
    @usableFromInline
    struct StateMachine {
        @usableFromInline
        enum Phase {
            case awaitingSubscription
            case subscribed(any Subscription)
            /// The upstream has completed (or been dropped after an overflow); the completion
            /// waits in `pendingCompletion` for the buffer to drain.
            case finishing
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
            case overflow(any Subscription, () -> Upstream.Failure)
        }

        /// One step of the drainer's loop.
        @usableFromInline
        enum DrainStep {
            case deliver(Upstream.Output)
            case complete(Subscribers.Completion<Upstream.Failure>)
            case done
        }

        @usableFromInline let size: Int
        @usableFromInline let prefetch: Publishers.PrefetchStrategy
        @usableFromInline let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        @usableFromInline var phase: Phase = .awaitingSubscription
        @usableFromInline var buffer = RingBuffer()
        /// What the subscriber has asked for and not received.
        @usableFromInline var demand: Subscribers.Demand = .none
        /// What has been asked of the upstream and not received.
        @usableFromInline var upstreamDemand: Subscribers.Demand = .none
        @usableFromInline var draining = false
        @usableFromInline var pendingCompletion: Subscribers.Completion<Upstream.Failure>?

        @inlinable
        init(size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Upstream.Failure>) {
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Whether the subscription is the first one (and is kept).
        @inlinable
        mutating func subscribed(_ subscription: any Subscription) -> Bool {
            guard case .awaitingSubscription = phase else { return false }
            phase = .subscribed(subscription)
            return true
        }

        /// How much more to ask of the upstream now, to reach what the strategy wants
        /// outstanding: the free room (`keepFull`) or the demand not covered by the buffer
        /// (`byRequest`). Records the request as made.
        @inlinable
        mutating func topUp() -> Subscribers.Demand {
            guard case .subscribed = phase, upstreamDemand != .unlimited else { return .none }
            let target: Subscribers.Demand
            switch prefetch {
            case .keepFull: target = .max(Swift.max(0, size - buffer.count))
            // A finite demand is capped at the free space: values that arrive while another
            // thread holds the drainer's turn are buffered even when downstream wants them, so
            // asking for the whole downstream demand could overflow the buffer under an upstream
            // that honours demand perfectly. `topUp` runs again after every value, so the flow
            // never stalls. Unlimited downstream demand is passed through unchanged.
            case .byRequest:
                target = demand == .unlimited ? .unlimited : Swift.min(demand, .max(size)) - buffer.count
            }
            let deficit = target - upstreamDemand
            guard deficit > 0 else { return .none }
            upstreamDemand += deficit
            return deficit
        }

        /// `topUp()` together with the subscription to send it to.
        @inlinable
        mutating func topUpRequest() -> (any Subscription, Subscribers.Demand)? {
            guard case .subscribed(let subscription) = phase else { return nil }
            let more = topUp()
            return more > 0 ? (subscription, more) : nil
        }

        @inlinable
        mutating func value(_ value: Upstream.Output) -> ValueAction {
            guard case .subscribed(let subscription) = phase else { return .none }
            upstreamDemand -= 1
            if !draining, buffer.isEmpty, demand > 0 {
                demand -= 1
                draining = true
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
                    phase = .finishing
                    return .overflow(subscription, makeError)
                }
            }
            if !draining, demand > 0 {
                draining = true
                return .drain
            }
            return .none
        }

        /// The overflow error has been made: whether the caller is now the drainer that must
        /// deliver it. The buffered values it supersedes are returned for release.
        @inlinable
        mutating func failed(_ error: Upstream.Failure) -> (drain: Bool, discarded: ContiguousArray<Upstream.Output?>) {
            guard case .finishing = phase, pendingCompletion == nil else { return (false, []) }
            pendingCompletion = .failure(error)
            let discarded = buffer.removeAll()
            if draining { return (false, discarded) }
            draining = true
            return (true, discarded)
        }

        /// The upstream completed: whether the caller is now the drainer. A failure discards
        /// the buffer (returned for release) so it is delivered at once.
        @inlinable
        mutating func completed(_ completion: Subscribers.Completion<Upstream.Failure>) -> (drain: Bool, discarded: ContiguousArray<Upstream.Output?>) {
            guard case .subscribed = phase else { return (false, []) }
            phase = .finishing
            pendingCompletion = completion
            var discarded: ContiguousArray<Upstream.Output?> = []
            if case .failure = completion { discarded = buffer.removeAll() }
            if draining { return (false, discarded) }
            draining = true
            return (true, discarded)
        }

        /// The subscriber asked for more: whether the caller is now the drainer.
        @inlinable
        mutating func request(_ more: Subscribers.Demand) -> Bool {
            switch phase {
            case .terminal, .awaitingSubscription: return false
            case .subscribed, .finishing: break
            }
            demand += more
            if draining { return false }
            draining = true
            return true
        }

        /// The drainer delivered a value and the subscriber returned `more`.
        @inlinable
        mutating func added(_ more: Subscribers.Demand) {
            if case .terminal = phase { return }
            demand += more
        }

        /// The drainer's next step; `.done` and `.complete` end its turn.
        @inlinable
        mutating func nextDrainStep() -> DrainStep {
            if case .terminal = phase {
                draining = false
                return .done
            }
            if buffer.isEmpty, let completion = pendingCompletion {
                pendingCompletion = nil
                phase = .terminal
                draining = false
                return .complete(completion)
            }
            if demand > 0, let value = buffer.popFirst() {
                demand -= 1
                return .deliver(value)
            }
            draining = false
            return .done
        }

        /// The subscriber cancelled: the upstream subscription to cancel and the values to
        /// release, outside the lock.
        @inlinable
        mutating func cancel() -> (any Subscription, ContiguousArray<Upstream.Output?>)? {
            let held: (any Subscription)?
            if case .subscribed(let subscription) = phase { held = subscription } else { held = nil }
            if case .terminal = phase { return nil }
            phase = .terminal
            pendingCompletion = nil
            let discarded = buffer.removeAll()
            guard let held else { return nil }
            return (held, discarded)
        }
    }
}

import TributaryLocks

extension Publishers.Buffer {
    /// The buffering stage: holds the ``StateMachine`` under a lock (the base class's `state`,
    /// reached through ``LockedMachineOwner/withMachine(_:)``), performs what it decides outside
    /// the lock, and shows itself to the subscriber as `Buffer`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: LockedMachineOwner<StateMachine>, Subscriber, Subscription,
        ReflectsAsOperator
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream

        /// ``request(_:)``, compiled for the concrete types. A subscriber reaches `request(_:)`
        /// through the `Subscription` existential, whose witness runs the generic stage
        /// unspecialised, looking up type metadata at every step (the `values` bridge, which asks
        /// for one value at a time, measured 24,470 instructions per value that way); this
        /// closure, made where the types are known, runs specialised code instead.
        @usableFromInline let requestHook: (Inner, Subscribers.Demand) -> Void

        @inlinable
        init(downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
             whenFull: Publishers.BufferingStrategy<Upstream.Failure>) {
            self.downstream = downstream
            self.requestHook = { inner, demand in inner.requestNow(demand) }
            super.init(StateMachine(size: size, prefetch: prefetch, whenFull: whenFull))
        }

        @inlinable
        func receive(subscription: any Subscription) {
            // The prefetch is requested before the subscription goes downstream, as Apple's stage.
            guard let prefetch = withMachine({ $0.subscribed(subscription) }) else { return subscription.cancel() }
            if prefetch > 0 { subscription.request(prefetch) }
            downstream.receive(subscription: self)
            // The subscribed transition made this thread the drainer; deliver what arrived.
            drain()
            topUpUpstream()
        }

        @inlinable
        func topUpUpstream() {
            if let (subscription, more) = withMachine({ $0.topUpRequest() }) {
                subscription.request(more)
            }
        }

        /// Delivers buffered values (and finally the completion) while there is demand. Called
        /// only by the thread the state machine made the drainer, which then asks the upstream for
        /// the room the delivered values left (`receive(_:)` through its return value, as Apple's
        /// stage does, the others with a request): a request that comes in meanwhile only adds
        /// demand.
        @inlinable
        func drain() {
            while true {
                switch withMachine({ $0.nextDrainStep() }) {
                case .deliver(let value):
                    let more = downstream.receive(value)
                    if more != .none { withMachine { $0.added(more) } }
                case .complete(let completion, let held, let more, let dropped):
                    // The values an overflow error cut off are let go of before the subscriber
                    // hears of it.
                    withExtendedLifetime(dropped) {}
                    downstream.receive(completion: completion)
                    if more > 0 { held?.request(more) }
                    withExtendedLifetime(held) {}
                    return
                case .done:
                    return
                }
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            switch withMachine({ $0.value(input) }) {
            case .none:
                break
            case .deliver(let value):
                let more = downstream.receive(value)
                if more != .none { withMachine { $0.added(more) } }
                drain()
            case .drain:
                drain()
            case .overflow(let subscription, let makeError):
                subscription.cancel()
                let error = makeError()
                if withMachine({ $0.failed(error) }) { drain() }
                return .none
            }
            // Ask for what is now missing through the return value: the upstream is calling us.
            return withMachine { $0.topUp() }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard takeCompletion(completion) else { return }
            drain()
            topUpUpstream()
        }

        /// Records the upstream's completion; whether the caller must now drain. What a failure
        /// lets go of (the values buffered, the upstream subscription) is released on return,
        /// before the subscriber hears, as Apple's stage releases it.
        @inlinable
        func takeCompletion(_ completion: Subscribers.Completion<Upstream.Failure>) -> Bool {
            let completed = withMachine { $0.completed(completion) }
            return completed.drain
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            requestHook(self, demand)
        }

        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            // Apple ignores request(.none) on this subscription: no trap, nothing forwarded.
            guard demand != .none else { return }
            // Only the drainer tops the upstream up, once its turn is over; a request made while
            // another call delivers (typically from inside the subscriber's `receive(_:)`) leaves
            // it to that call, so that a value delivered straight away asks for its replacement
            // through `receive(_:)`'s return value.
            guard withMachine({ $0.request(demand) }) else { return }
            drain()
            topUpUpstream()
        }

        @inlinable
        func cancel() {
            let cancelled = withMachine { $0.cancel() }
            cancelled.toCancel?.cancel()
        }

        @usableFromInline var description: String { "Buffer" }

        /// The children Apple's stage shows: the buffered values, where the upstream stands, the
        /// subscriber's outstanding demand and the completion waiting to go out.
        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> {
            let (values, phase, demand, pending) = withMachine { state in
                (state.buffer.contents, state.phase, state.demand, state.pendingCompletion)
            }
            return ["values": values, "state": phase, "downstreamDemand": demand, "terminal": pending as Any]
        }
    }
}

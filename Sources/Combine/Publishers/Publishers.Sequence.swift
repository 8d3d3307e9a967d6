import Synchronization

extension Publishers {
    /// A publisher that emits the elements of a sequence, as fast as the subscriber asks for them,
    /// then finishes.
    ///
    /// Usually made with `sequence.publisher`. Demand is honoured exactly: the subscriber gets no
    /// more elements than it requested. Elements are delivered synchronously inside `request(_:)`
    /// (and inside the demand returned from `receive(_:)`). The publisher looks one element ahead,
    /// so `.finished` follows the last element at once, without waiting for further demand; an
    /// empty sequence finishes right after the subscription, which is then `Subscriptions.empty`.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The elements are the values.
        public typealias Output = Elements.Element

        /// The sequence each subscriber iterates from its start.
        public let sequence: Elements

        /// Makes a publisher of `sequence`'s elements.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Starts a fresh iteration of the sequence for `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Elements.Element == S.Input {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            // `request(_:)` and `cancel()` are reached through the `Subscription` existential and
            // so run unspecialised, where every touch of the generic state would look up type
            // metadata; their bodies are therefore handed over as closures built here, where the
            // subscriber's type is known.
            subscriber.receive(
                subscription: Inner(
                    sequence: sequence, iterator: iterator, first: first, downstream: subscriber,
                    request: { $0.specializedRequest($1) }, cancel: { $0.specializedCancel() }))
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Publishers.Sequence {
    /// The subscription for one subscriber.
    ///
    /// One thread at a time "emits": it owns the iterator and runs the delivery loop; requests
    /// made meanwhile (from other threads or reentrantly from the subscriber) only add demand,
    /// which the emitting thread picks up. The lock is never held while calling the subscriber or
    /// the iterator. Under unlimited demand the loop takes no lock per element, only an atomic
    /// read of the cancellation flag.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        @usableFromInline
        struct State {
            @usableFromInline var demand: Subscribers.Demand = .none
            @usableFromInline var emitting = false
            @usableFromInline var downstream: Downstream?

            @inlinable
            init(downstream: Downstream) {
                self.downstream = downstream
            }
        }

        @usableFromInline
        let state: LockedState<State>

        /// What the emitting thread does next, decided under the lock.
        @usableFromInline
        enum Step {
            case deliver(Subscribers.Demand, Downstream)
            case stop
            case release(Downstream?)
        }

        /// Set by cancel or by the end of the sequence.
        @usableFromInline
        let finished = Atomic<Bool>(false)

        /// Touched only by the emitting thread.
        // Touched only by the emitting thread; `@exclusivity(unchecked)` spares the runtime's
        // dynamic exclusivity check on every element.
        @exclusivity(unchecked) @usableFromInline
        var iterator: Elements.Iterator

        /// The element to deliver next (looked ahead); touched only by the emitting thread.
        // Touched only by the emitting thread; `@exclusivity(unchecked)` spares the runtime's
        // dynamic exclusivity check on every element.
        @exclusivity(unchecked) @usableFromInline
        var next: Elements.Element?

        /// Kept for `description`, which Apple prints as the sequence itself, like `(1...3)`.
        @usableFromInline
        let sequence: Elements

        /// `specializedRequest(_:)`, compiled for the concrete subscriber where the subscription
        /// was created.
        @usableFromInline
        let requestBody: (Inner, Subscribers.Demand) -> Void

        /// `specializedCancel()`, compiled like ``requestBody``.
        @usableFromInline
        let cancelBody: (Inner) -> Void

        @inlinable
        init(
            sequence: Elements, iterator: Elements.Iterator, first: Elements.Element, downstream: Downstream,
            request: @escaping (Inner, Subscribers.Demand) -> Void, cancel: @escaping (Inner) -> Void
        ) {
            self.requestBody = request
            self.cancelBody = cancel
            self.sequence = sequence
            self.iterator = iterator
            self.next = first
            self.state = LockedState(State(downstream: downstream))
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            requestBody(self, demand)
        }

        @inlinable
        func cancel() {
            cancelBody(self)
        }

        @inlinable
        func specializedRequest(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Publishers.Sequence subscription request(_:)")
            let start = state.withLock { state -> Bool in
                guard state.downstream != nil else { return false }
                state.demand += demand
                if state.emitting { return false }
                state.emitting = true
                return true
            }
            if start { emit() }
        }

        /// The delivery loop, run by the one thread that set `emitting`.
        @inlinable
        func emit() {
            while true {
                // Take the whole outstanding demand as a batch.
                let step = state.withLock { state -> Step in
                    if finished.load(ordering: .relaxed) {
                        // Cancelled while emitting: the subscriber is released outside the lock.
                        state.emitting = false
                        defer { state.downstream = nil }
                        return .release(state.downstream)
                    }
                    guard let downstream = state.downstream, state.demand > 0 else {
                        state.emitting = false
                        return .stop
                    }
                    let demand = state.demand
                    state.demand = .none
                    return .deliver(demand, downstream)
                }
                guard case .deliver(var remaining, let downstream) = step else { return }
                var extra = Subscribers.Demand.none
                while remaining > 0 {
                    if finished.load(ordering: .acquiring) { break }
                    guard let element = next else { break }
                    extra += downstream.receive(element)
                    remaining -= 1
                    next = iterator.next()
                    if next == nil {
                        finish(downstream)
                        return
                    }
                }
                // Unused demand (possible only when cancelled) is dropped; extra demand returned
                // by the subscriber goes back into the state for the next batch.
                state.withLock { state in
                    state.demand += extra
                    if remaining > 0, remaining != .unlimited { state.demand += remaining }
                }
            }
        }

        @inlinable
        func finish(_ downstream: Downstream) {
            guard !finished.exchange(true, ordering: .acquiringAndReleasing) else {
                state.withLock { $0.emitting = false; $0.downstream = nil }
                return
            }
            state.withLock { $0.emitting = false; $0.downstream = nil }
            downstream.receive(completion: .finished)
        }

        @inlinable
        func specializedCancel() {
            guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
            let released = state.withLock { state -> Downstream? in
                // While a thread emits it still uses the subscriber; it releases it on its way out.
                if state.emitting { return nil }
                defer { state.downstream = nil }
                return state.downstream
            }
            withExtendedLifetime(released) {}
        }

        @usableFromInline
        var description: String { String(describing: sequence) }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: ["sequence": sequence]) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

extension Sequence {
    /// A publisher of this sequence's elements; it cannot fail.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

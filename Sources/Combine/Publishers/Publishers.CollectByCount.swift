import Synchronization
import TributaryLocks

extension Publishers {
    /// The publisher `collect(_:)` returns: values are gathered into arrays of `count` elements,
    /// each published as soon as it is full; when the upstream finishes, a partial last array is
    /// published too. A failure is passed on and the partial array dropped.
    ///
    /// Demand is counted in arrays: a downstream request for `n` becomes `n * count` upstream.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// A batch of up to `count` values.
        public typealias Output = [Upstream.Output]
        /// Errors are the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are batched.
        public let upstream: Upstream

        /// The size of a full batch.
        public let count: Int

        /// Wraps `upstream`; prefer `upstream.collect(count)`.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            if count <= 0 { APIViolation.invalidOperatorArgument("collect(_:) needs a count > 0, got \(count)") }
            self.upstream = upstream
            self.count = count
        }

        /// Connects `subscriber` through a batching stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == [Upstream.Output], Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount {
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ReflectsAsOperator
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let count: Int
        /// Room for the batch being collected, grown up to `count` over the first batch and then
        /// reused for every later one; its first `filled` of `capacity` elements are initialised.
        /// A plain buffer rather than an `Array`, so that adding a value costs no uniqueness
        /// check. Only touched from upstream deliveries, which Combine serialises (and `deinit`).
        @exclusivity(unchecked) @usableFromInline var slots: UnsafeMutablePointer<Upstream.Output>?
        @exclusivity(unchecked) @usableFromInline var filled: Int
        @exclusivity(unchecked) @usableFromInline var capacity: Int
        /// Debug builds check that upstream calls, which touch the batch without a lock, are
        /// serialised.
        @usableFromInline let serialCalls = SerialCallCheck()
        @usableFromInline let status = LockedState<SubscriptionStatus>(.awaitingSubscription)
        /// Set when the upstream completes or the subscriber cancels: later values are dropped.
        @usableFromInline let done = Atomic<Bool>(false)
        /// Set when the subscription arrives: values ahead of it are ignored, as Apple's stage.
        @usableFromInline let subscribed = Atomic<Bool>(false)

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
            slots = nil
            filled = 0
            capacity = 0
        }

        @inlinable
        deinit {
            if let slots {
                slots.deinitialize(count: filled)
                slots.deallocate()
            }
        }

        /// Makes room for more values: a modest start, then doubling, never beyond `count` (so
        /// `collect(.max)` does not try to allocate everything up front).
        @inlinable
        @inline(never)
        func grow() {
            let newCapacity = capacity == 0 ? Swift.min(count, 64) : (capacity > count / 2 ? count : capacity * 2)
            let newSlots = UnsafeMutablePointer<Upstream.Output>.allocate(capacity: newCapacity)
            if let slots {
                newSlots.moveInitialize(from: slots, count: filled)
                slots.deallocate()
            }
            slots = newSlots
            capacity = newCapacity
        }

        /// Moves the values collected so far out into a new array and empties the buffer.
        @inlinable
        func takeBatch() -> [Upstream.Output] {
            guard let slots, filled > 0 else { return [] }
            let taken = filled
            filled = 0
            return [Upstream.Output](unsafeUninitializedCapacity: taken) { array, initialized in
                array.baseAddress!.moveInitialize(from: slots, count: taken)
                initialized = taken
            }
        }

        @usableFromInline
        func receive(subscription: any Subscription) {
            let accepted: Bool = status.withLock { $0.accept(subscription) }
            guard accepted else { return subscription.cancel() }
            subscribed.store(true, ordering: .releasing)
            downstream.receive(subscription: self)
        }

        @inlinable
        @inline(__always)
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let outermost = serialCalls.enter("collect(_:)")
            defer { serialCalls.leave(outermost) }
            if done.load(ordering: .acquiring) || !subscribed.load(ordering: .acquiring) { return .none }
            if filled == capacity { grow() }
            (slots.unsafelyUnwrapped + filled).initialize(to: input)
            filled += 1
            guard filled == count else { return .none }
            return downstream.receive(takeBatch()) * count
        }

        @usableFromInline
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let outermost = serialCalls.enter("collect(_:)")
            defer { serialCalls.leave(outermost) }
            // Every completion is passed on, as Apple's stage does, even after a cancel or an
            // earlier completion. `finished` first flushes a partial batch, unless a cancel came
            // first: the batch went with the cancel (it is only dropped here, where the upstream's
            // calls are serialised), and `finished` is sent alone.
            done.store(true, ordering: .releasing)
            // The subscription is let go of here, outside the lock and before the subscriber hears.
            let wasSubscribed = status.withLock { $0.terminate() } != nil
            let rest = takeBatch()
            if wasSubscribed, case .finished = completion, !rest.isEmpty { _ = downstream.receive(rest) }
            downstream.receive(completion: completion)
        }

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero("Subscription.request(_:)")
            status.withLock { $0.subscription }?.request(demand * count)
        }

        @usableFromInline
        func cancel() {
            // A cancel before the subscription arrives does nothing, as Apple's stage; after one,
            // values are dropped but completions still go on.
            status.withLock { status -> (any Subscription)? in
                guard case .subscribed = status else { return nil }
                done.store(true, ordering: .releasing)
                return status.terminate()
            }?.cancel()
        }

        @usableFromInline var description: String { "CollectByCount" }

        /// Apple's children. The batch is read without the upstream's serialisation: this is for
        /// debugging output only. Once the stage has ended, the batch is shown empty: a cancel
        /// discards it (it is dropped at the next completion, where the upstream's calls are
        /// serialised), and a completion has flushed or dropped it.
        @usableFromInline var mirrorChildren: KeyValuePairs<String, Any> {
            let subscription = status.withLock { $0.subscription }
            let batch = subscription == nil ? [] : slots.map { Array(UnsafeBufferPointer(start: $0, count: filled)) } ?? []
            return ["downstream": downstream, "upstreamSubscription": subscription as Any, "buffer": batch, "count": count]
        }
    }
}

extension Publisher {
    /// Gathers values into arrays of `count`, publishing each full array, and any remainder when
    /// the upstream finishes.
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

// Sendable when everything it stores is.
extension Publishers.CollectByCount: Sendable where Upstream: Sendable {}

/// The stage lets go of its upstream's subscription exactly when it cancels it or its upstream
/// completes, and hands only itself downstream, so a subject may keep it inside its subscription
/// when its downstream qualifies too.
extension Publishers.CollectByCount.Inner: ReleasesSubscriptionWhenDone where Downstream: ReleasesSubscriptionWhenDone {}

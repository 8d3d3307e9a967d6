import Synchronization
import TributaryLocks

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
            subscriber.receive(
                subscription: Inner.make(sequence: sequence, iterator: iterator, first: first, downstream: subscriber))
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

/// The non-generic part of a `Publishers.Sequence` subscription: the lock and the entry points
/// into the specialised code.
///
/// The subscription is one object: a `ManagedBuffer` with this header, whose raw tail bytes hold
/// the mutex, the generic ``Publishers/Sequence/InnerBody`` and the atomic `finished` flag, each
/// reached through a pointer kept here. (Taking `&header.mutex` instead would be an inout access,
/// which the thread sanitizer reports as a race whenever two threads lock at once.) Its `deinit`
/// runs unspecialised; because every field it has to touch here is of a concrete type, it needs no
/// type-metadata look-ups, and the body is destroyed by `destroyBody`, compiled for the concrete
/// types.
@usableFromInline
struct SequenceSubscriptionHeader {
    /// Where the mutex lives, in the tail bytes.
    @usableFromInline let mutex: UnsafeMutablePointer<PlatformMutexStorage>
    /// Where the body lives, in the tail bytes.
    @usableFromInline let body: UnsafeMutableRawPointer
    /// Where the emitting thread's part of the body lives (a separate region, so that accesses
    /// made under the lock and the emitting thread's accesses never overlap).
    @usableFromInline let emitter: UnsafeMutableRawPointer
    /// Where the `Atomic<Bool>` flag lives, in the tail bytes.
    @usableFromInline let finished: UnsafeMutableRawPointer
    @usableFromInline let request: (AnyObject, Subscribers.Demand) -> Void
    @usableFromInline let cancel: (AnyObject) -> Void
    /// Deinitialises the body and the emitter's part (given their addresses, so the layout is
    /// computed in one place, ``Publishers/Sequence/Inner/make(sequence:iterator:first:downstream:)``).
    @usableFromInline let destroyBody: (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Void

    @inlinable
    init(
        mutex: UnsafeMutablePointer<PlatformMutexStorage>, body: UnsafeMutableRawPointer, emitter: UnsafeMutableRawPointer,
        finished: UnsafeMutableRawPointer,
        request: @escaping (AnyObject, Subscribers.Demand) -> Void,
        cancel: @escaping (AnyObject) -> Void,
        destroyBody: @escaping (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Void
    ) {
        self.mutex = mutex
        self.body = body
        self.emitter = emitter
        self.finished = finished
        self.request = request
        self.cancel = cancel
        self.destroyBody = destroyBody
    }
}

extension Publishers.Sequence {
    /// The state of one subscription.
    @usableFromInline
    struct InnerBody<Downstream: Subscriber>
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        /// Guarded by the header's lock.
        @usableFromInline var demand = Subscribers.Demand.none
        /// Who runs the delivery loop; guarded by the header's lock.
        @usableFromInline var role = DeliveryFlag()
        /// Guarded by the header's lock.
        @usableFromInline var downstream: Downstream?
        /// Kept for `description`, which Apple prints as the sequence itself, like `(1...3)`.
        @usableFromInline let sequence: Elements

        @inlinable
        init(sequence: Elements, downstream: Downstream) {
            self.sequence = sequence
            self.downstream = downstream
        }
    }

    /// The part of a subscription's state touched only by the emitting thread.
    @usableFromInline
    struct InnerEmitterState {
        @usableFromInline var iterator: Elements.Iterator
        /// The element to deliver next (looked ahead).
        @usableFromInline var next: Elements.Element?

        @inlinable
        init(iterator: Elements.Iterator, next: Elements.Element?) {
            self.iterator = iterator
            self.next = next
        }
    }

    /// The subscription for one subscriber.
    ///
    /// One thread at a time "emits": it owns the iterator and runs the delivery loop; requests
    /// made meanwhile (from other threads or reentrantly from the subscriber) only add demand,
    /// which the emitting thread picks up. The lock is never held while calling the subscriber or
    /// the iterator. Under unlimited demand the loop takes no lock per element, only an atomic
    /// read of the cancellation flag.
    ///
    /// `request(_:)` and `cancel()` are reached through the `Subscription` existential and so run
    /// unspecialised; they jump straight into closures compiled for the concrete types when the
    /// subscription was made.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: ManagedBuffer<SequenceSubscriptionHeader, UInt8>,
        Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        @usableFromInline
        typealias Body = InnerBody<Downstream>

        @usableFromInline
        typealias EmitterState = InnerEmitterState

        /// Makes the subscription (one allocation).
        @inlinable
        static func make(
            sequence: Elements, iterator: Elements.Iterator, first: Elements.Element, downstream: Downstream
        ) -> Inner {
            // Room for the mutex, then the body, each at its alignment, then the flag.
            let capacity =
                MemoryLayout<PlatformMutexStorage>.alignment + MemoryLayout<PlatformMutexStorage>.size
                + MemoryLayout<Body>.alignment + MemoryLayout<Body>.size
                + MemoryLayout<EmitterState>.alignment + MemoryLayout<EmitterState>.size
                + MemoryLayout<Atomic<Bool>>.size
            let buffer = create(minimumCapacity: capacity) { buffer in
                let mutex = buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
                    .alignedUp(for: PlatformMutexStorage.self)
                let body = (mutex + MemoryLayout<PlatformMutexStorage>.size).alignedUp(for: Body.self)
                let emitter = (body + MemoryLayout<Body>.size).alignedUp(for: EmitterState.self)
                return SequenceSubscriptionHeader(
                    mutex: mutex.bindMemory(to: PlatformMutexStorage.self, capacity: 1),
                    body: body, emitter: emitter, finished: emitter + MemoryLayout<EmitterState>.size,
                    request: { unsafeDowncast($0, to: Inner.self).specializedRequest($1) },
                    cancel: { unsafeDowncast($0, to: Inner.self).specializedCancel() },
                    destroyBody: { body, emitter in
                        body.assumingMemoryBound(to: Body.self).deinitialize(count: 1)
                        emitter.assumingMemoryBound(to: EmitterState.self).deinitialize(count: 1)
                    })
            }
            // `create` is declared on `ManagedBuffer`; the dynamic type is this subclass.
            let inner = unsafeDowncast(buffer, to: Inner.self)
            inner.withUnsafeMutablePointerToHeader { header in
                header.pointee.body.bindMemory(to: Body.self, capacity: 1).initialize(
                    to: Body(sequence: sequence, downstream: downstream))
                header.pointee.emitter.bindMemory(to: EmitterState.self, capacity: 1).initialize(
                    to: EmitterState(iterator: iterator, next: first))
                header.pointee.finished.bindMemory(to: Atomic<Bool>.self, capacity: 1).initialize(to: Atomic(false))
                PlatformMutex.initialize(header.pointee.mutex)
            }
            return inner
        }

        @inlinable
        deinit {
            withUnsafeMutablePointerToHeader { header in
                header.pointee.destroyBody(header.pointee.body, header.pointee.emitter)
                PlatformMutex.destroy(header.pointee.mutex)
            }
        }

        @inlinable
        var body: UnsafeMutablePointer<Body> {
            withUnsafeMutablePointerToHeader { $0.pointee.body.assumingMemoryBound(to: Body.self) }
        }

        @inlinable
        var emitter: UnsafeMutablePointer<EmitterState> {
            withUnsafeMutablePointerToHeader { $0.pointee.emitter.assumingMemoryBound(to: EmitterState.self) }
        }

        /// Set by cancel or by the end of the sequence.
        @inlinable
        var finished: UnsafeMutablePointer<Atomic<Bool>> {
            withUnsafeMutablePointerToHeader { $0.pointee.finished.assumingMemoryBound(to: Atomic<Bool>.self) }
        }

        @inlinable
        func lock() {
            PlatformMutex.lock(withUnsafeMutablePointerToHeader { $0.pointee.mutex })
        }

        @inlinable
        func unlock() {
            PlatformMutex.unlock(withUnsafeMutablePointerToHeader { $0.pointee.mutex })
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            withUnsafeMutablePointerToHeader { $0.pointee.request }(self, demand)
        }

        @inlinable
        func cancel() {
            withUnsafeMutablePointerToHeader { $0.pointee.cancel }(self)
        }

        @inlinable
        func specializedRequest(_ demand: Subscribers.Demand) {
            // Apple ignores request(.none) on this subscription: no trap, nothing forwarded.
            guard demand != .none else { return }
            let body = self.body
            lock()
            guard body.pointee.downstream != nil else {
                unlock()
                return
            }
            body.pointee.demand += demand
            guard body.pointee.role.tryTake() else {
                unlock()
                return
            }
            unlock()
            emit()
        }

        /// The delivery loop, run by the one thread that holds the role.
        @inlinable
        func emit() {
            let body = self.body
            let state = self.emitter
            while true {
                // Take the whole outstanding demand as a batch.
                lock()
                if finished.pointee.load(ordering: .relaxed) {
                    // Cancelled while emitting: the subscriber is released outside the lock.
                    body.pointee.role.release()
                    let released = body.pointee.downstream
                    body.pointee.downstream = nil
                    unlock()
                    withExtendedLifetime(released) {}
                    return
                }
                guard let downstream = body.pointee.downstream, body.pointee.demand > 0 else {
                    body.pointee.role.release()
                    unlock()
                    return
                }
                var remaining = body.pointee.demand
                body.pointee.demand = .none
                unlock()
                var extra = Subscribers.Demand.none
                if remaining == .unlimited {
                    // Nothing to count: the demand returned by the subscriber cannot add to it.
                    while let element = state.pointee.next {
                        if finished.pointee.load(ordering: .acquiring) { break }
                        _ = downstream.receive(element)
                        state.pointee.next = state.pointee.iterator.next()
                    }
                    if state.pointee.next == nil {
                        finish(downstream)
                        return
                    }
                    continue
                }
                while remaining > 0 {
                    if finished.pointee.load(ordering: .acquiring) { break }
                    guard let element = state.pointee.next else { break }
                    extra += downstream.receive(element)
                    remaining -= 1
                    state.pointee.next = state.pointee.iterator.next()
                    if state.pointee.next == nil {
                        finish(downstream)
                        return
                    }
                }
                // The demand the subscriber returned, and any demand left unused (only when the
                // loop stopped for a cancel), go back into the state; the next batch starts from it.
                lock()
                body.pointee.demand += extra
                if remaining > 0, remaining != .unlimited { body.pointee.demand += remaining }
                unlock()
            }
        }

        @inlinable
        func finish(_ downstream: Downstream) {
            let body = self.body
            let cancelled = finished.pointee.exchange(true, ordering: .acquiringAndReleasing)
            lock()
            body.pointee.role.release()
            let released = body.pointee.downstream
            body.pointee.downstream = nil
            unlock()
            if !cancelled { downstream.receive(completion: .finished) }
            withExtendedLifetime(released) {}
        }

        @inlinable
        func specializedCancel() {
            let body = self.body
            guard !finished.pointee.exchange(true, ordering: .acquiringAndReleasing) else { return }
            lock()
            // While a thread emits it still uses the subscriber; it releases it on its way out.
            var released: Downstream?
            if !body.pointee.role.isHeld {
                released = body.pointee.downstream
                body.pointee.downstream = nil
            }
            unlock()
            withExtendedLifetime(released) {}
        }

        /// The sequence itself while it is being delivered, as Apple prints it, and `"Sequence"`
        /// once it has finished or been cancelled (a finished subscription no longer shows what
        /// it had left to deliver).
        @usableFromInline
        var description: String {
            finished.pointee.load(ordering: .acquiring) ? "Sequence" : String(describing: body.pointee.sequence)
        }

        /// Apple's one child, `sequence`, empty once the subscription has finished or been
        /// cancelled. Nothing of the `ManagedBuffer` it is laid out in shows (`dump` would list
        /// the superclass with its pointers and closures).
        @usableFromInline
        var customMirror: Mirror {
            let sequence: Any =
                finished.pointee.load(ordering: .acquiring) ? [Elements.Element]() : body.pointee.sequence
            return Mirror(self, children: ["sequence": sequence], ancestorRepresentation: .suppressed)
        }

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

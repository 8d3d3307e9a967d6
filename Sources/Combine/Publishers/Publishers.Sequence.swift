import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc
#endif

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
/// The subscription is one object (a `ManagedBuffer` whose header is this and whose single element
/// is the generic ``Publishers/Sequence/InnerBody``). Its `deinit` runs unspecialised; because every
/// field it has to touch here is of a concrete type, it needs no type-metadata look-ups, and the
/// generic body is destroyed by `destroyBody`, compiled for the concrete types.
@usableFromInline
struct SequenceSubscriptionHeader {
    @usableFromInline var mutex = PlatformMutex()
    /// The subscription's element storage (the body).
    @usableFromInline let body: UnsafeMutableRawPointer
    @usableFromInline let request: (AnyObject, Subscribers.Demand) -> Void
    @usableFromInline let cancel: (AnyObject) -> Void
    @usableFromInline let destroyBody: (UnsafeMutableRawPointer) -> Void

    @inlinable
    init(
        body: UnsafeMutableRawPointer, request: @escaping (AnyObject, Subscribers.Demand) -> Void,
        cancel: @escaping (AnyObject) -> Void, destroyBody: @escaping (UnsafeMutableRawPointer) -> Void
    ) {
        self.body = body
        self.request = request
        self.cancel = cancel
        self.destroyBody = destroyBody
    }
}

extension Publishers.Sequence {
    /// The state of one subscription.
    @usableFromInline
    struct InnerBody<Downstream: Subscriber>: ~Copyable
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        /// Set by cancel or by the end of the sequence.
        @usableFromInline let finished = Atomic<Bool>(false)
        /// Guarded by the header's lock.
        @usableFromInline var demand = Subscribers.Demand.none
        /// Guarded by the header's lock.
        @usableFromInline var emitting = false
        /// Guarded by the header's lock.
        @usableFromInline var downstream: Downstream?
        /// Touched only by the emitting thread.
        @usableFromInline var iterator: Elements.Iterator
        /// The element to deliver next (looked ahead); touched only by the emitting thread.
        @usableFromInline var next: Elements.Element?
        /// Kept for `description`, which Apple prints as the sequence itself, like `(1...3)`.
        @usableFromInline let sequence: Elements

        @inlinable
        init(sequence: Elements, iterator: Elements.Iterator, first: Elements.Element, downstream: Downstream) {
            self.sequence = sequence
            self.iterator = iterator
            self.next = first
            self.downstream = downstream
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
    final class Inner<Downstream: Subscriber>: ManagedBuffer<SequenceSubscriptionHeader, InnerBody<Downstream>>,
        Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        @usableFromInline
        typealias Body = InnerBody<Downstream>

        /// Makes the subscription (one allocation).
        @inlinable
        static func make(
            sequence: Elements, iterator: Elements.Iterator, first: Elements.Element, downstream: Downstream
        ) -> Inner {
            let buffer = create(minimumCapacity: 1) { buffer in
                SequenceSubscriptionHeader(
                    body: buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) },
                    request: { unsafeDowncast($0, to: Inner.self).specializedRequest($1) },
                    cancel: { unsafeDowncast($0, to: Inner.self).specializedCancel() },
                    destroyBody: { $0.assumingMemoryBound(to: Body.self).deinitialize(count: 1) })
            }
            // `create` is declared on `ManagedBuffer`; the dynamic type is this subclass.
            let inner = unsafeDowncast(buffer, to: Inner.self)
            inner.withUnsafeMutablePointers { header, body in
                body.initialize(to: Body(sequence: sequence, iterator: iterator, first: first, downstream: downstream))
                let status = pthread_mutex_init(&header.pointee.mutex, nil)
                if status != 0 { fatalError("Tributary: pthread_mutex_init failed with \(status)") }
            }
            return inner
        }

        @inlinable
        deinit {
            withUnsafeMutablePointerToHeader { header in
                header.pointee.destroyBody(header.pointee.body)
                _ = pthread_mutex_destroy(&header.pointee.mutex)
            }
        }

        @inlinable
        var body: UnsafeMutablePointer<Body> {
            withUnsafeMutablePointerToElements { $0 }
        }

        @inlinable
        func lock() {
            _ = withUnsafeMutablePointerToHeader { pthread_mutex_lock(&$0.pointee.mutex) }
        }

        @inlinable
        func unlock() {
            _ = withUnsafeMutablePointerToHeader { pthread_mutex_unlock(&$0.pointee.mutex) }
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
            demand.assertNonZero("Publishers.Sequence subscription request(_:)")
            let body = self.body
            lock()
            guard body.pointee.downstream != nil else {
                unlock()
                return
            }
            body.pointee.demand += demand
            if body.pointee.emitting {
                unlock()
                return
            }
            body.pointee.emitting = true
            unlock()
            emit()
        }

        /// The delivery loop, run by the one thread that set `emitting`.
        @inlinable
        func emit() {
            let body = self.body
            while true {
                // Take the whole outstanding demand as a batch.
                lock()
                if body.pointee.finished.load(ordering: .relaxed) {
                    // Cancelled while emitting: the subscriber is released outside the lock.
                    body.pointee.emitting = false
                    let released = body.pointee.downstream
                    body.pointee.downstream = nil
                    unlock()
                    withExtendedLifetime(released) {}
                    return
                }
                guard let downstream = body.pointee.downstream, body.pointee.demand > 0 else {
                    body.pointee.emitting = false
                    unlock()
                    return
                }
                var remaining = body.pointee.demand
                body.pointee.demand = .none
                unlock()
                var extra = Subscribers.Demand.none
                if remaining == .unlimited {
                    // Nothing to count: the demand returned by the subscriber cannot add to it.
                    while let element = body.pointee.next {
                        if body.pointee.finished.load(ordering: .acquiring) { break }
                        _ = downstream.receive(element)
                        body.pointee.next = body.pointee.iterator.next()
                    }
                    if body.pointee.next == nil {
                        finish(downstream)
                        return
                    }
                    continue
                }
                while remaining > 0 {
                    if body.pointee.finished.load(ordering: .acquiring) { break }
                    guard let element = body.pointee.next else { break }
                    extra += downstream.receive(element)
                    remaining -= 1
                    body.pointee.next = body.pointee.iterator.next()
                    if body.pointee.next == nil {
                        finish(downstream)
                        return
                    }
                }
                // Unused demand (possible only when cancelled) is dropped; extra demand returned
                // by the subscriber goes back into the state for the next batch.
                lock()
                body.pointee.demand += extra
                if remaining > 0, remaining != .unlimited { body.pointee.demand += remaining }
                unlock()
            }
        }

        @inlinable
        func finish(_ downstream: Downstream) {
            let body = self.body
            let cancelled = body.pointee.finished.exchange(true, ordering: .acquiringAndReleasing)
            lock()
            body.pointee.emitting = false
            let released = body.pointee.downstream
            body.pointee.downstream = nil
            unlock()
            if !cancelled { downstream.receive(completion: .finished) }
            withExtendedLifetime(released) {}
        }

        @inlinable
        func specializedCancel() {
            let body = self.body
            guard !body.pointee.finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
            lock()
            // While a thread emits it still uses the subscriber; it releases it on its way out.
            var released: Downstream?
            if !body.pointee.emitting {
                released = body.pointee.downstream
                body.pointee.downstream = nil
            }
            unlock()
            withExtendedLifetime(released) {}
        }

        @usableFromInline
        var description: String { String(describing: body.pointee.sequence) }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: ["sequence": body.pointee.sequence]) }

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

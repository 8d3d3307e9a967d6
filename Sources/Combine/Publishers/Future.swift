import TributaryLocks

/// A publisher that eventually produces one value and finishes, or fails.
///
/// The closure passed to ``init(_:)`` runs at once, exactly once, when the future is created, not
/// when someone subscribes. It receives a ``Promise`` to call when the work is done. The future
/// stores the result and hands it to every subscriber, those present when it arrives and those
/// that come later, without running the work again. A success value waits until the subscriber
/// asks for it; a failure is delivered immediately. Only the first call of the promise counts.
///
/// To run the work once per subscriber, or only on subscription, wrap the future in `Deferred`.
public final class Future<Output, Failure: Error>: Publisher {
    /// The callback the work calls with its result.
    public typealias Promise = (Result<Output, Failure>) -> Void

    /// The lock, the phase, the subscriptions waiting for the result and, once known, the result
    /// itself: one object, shared with every subscription of this future (``FutureStorage``).
    @usableFromInline
    let storage = FutureStorage<Result<Output, Failure>>.make()

    /// Runs `attemptToFulfill` now, with the promise that completes this future.
    @inlinable
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            self.fulfill(result)
        }
    }

    @inlinable
    func fulfill(_ result: Result<Output, Failure>) {
        let phase: FuturePhase
        if case .success = result { phase = .succeeded } else { phase = .failed }
        guard let waiting = storage.settle(phase, with: result) else { return }
        // By index: a `for … in` over the array (or its `indices`) looks up the metadata of its
        // iterator at run time in a debug build, even when no subscription waits.
        for index in 0 ..< waiting.count {
            waiting[index].deliverIfDue(ready: false, demand: false)
        }
    }

    /// Attaches `subscriber`; it receives the result once it is known (a value only on demand).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = SubscriberConduit(parent: self, downstream: subscriber)
        conduit.attach()
        subscriber.receive(subscription: conduit)
        conduit.deliverIfDue(ready: true, demand: false)
    }
}

/// Where a ``Future`` stands. A plain enum, apart from the result itself, so that the checks made
/// under the lock need no type metadata.
@usableFromInline
enum FuturePhase {
    case pending
    case succeeded
    case failed
}

/// The part of a ``Future``'s storage that does not depend on its types. The mutex and the result
/// live in the storage's tail bytes, reached through the two pointers kept here (taking
/// `&header.mutex` would be an inout access, which the thread sanitizer reports as a race whenever
/// two threads lock at once); the phase and the waiting subscriptions are guarded by the mutex.
///
/// The two pointers, written once before the storage is shared, are read with raw loads
/// (``FutureCore/mutex(of:)``, ``FutureStorage/result``): read as `header.pointee.mutex` before
/// the mutex is taken, they are a formal access of the whole header, which the thread sanitizer
/// reports as racing with the thread that holds the mutex and modifies `waiting`.
@usableFromInline
struct FutureHeader {
    /// First: ``FutureCore/mutex(of:)`` loads it at offset 0.
    @usableFromInline let mutex: UnsafeMutablePointer<PlatformMutexStorage>
    /// Where the result lives: initialised, as a `Result<Output, Failure>`, when the phase leaves
    /// `pending`, never written again, and deinitialised with the storage. Second, right after
    /// `mutex`: ``FutureStorage/result`` loads it there.
    @usableFromInline let result: UnsafeMutableRawPointer
    @usableFromInline var phase = FuturePhase.pending
    /// The subscriptions attached while the result was not known; emptied when it arrives.
    @usableFromInline var waiting: ContiguousArray<FutureConduit> = []

    @inlinable
    init(mutex: UnsafeMutablePointer<PlatformMutexStorage>, result: UnsafeMutableRawPointer) {
        self.mutex = mutex
        self.result = result
    }
}

/// A ``Future``'s lock and state, as its subscriptions (``FutureConduit``) see it: they share the
/// lock, which guards their own fields too, and read the result from here once the phase says it
/// is known. Not generic: the subscriptions' bookkeeping runs without type metadata.
@usableFromInline
class FutureCore: ManagedBuffer<FutureHeader, UInt8> {
    /// Takes the mutex and returns the header. The header lives at a fixed place in this object,
    /// so the pointer stays valid as long as the caller holds the object; pass it to
    /// ``unlock(_:)``.
    @inlinable
    final func lock() -> UnsafeMutablePointer<FutureHeader> {
        let header = withUnsafeMutablePointerToHeader { $0 }
        PlatformMutex.lock(Self.mutex(of: header))
        return header
    }

    /// Gives back the mutex taken by ``lock()``.
    @inlinable
    final func unlock(_ header: UnsafeMutablePointer<FutureHeader>) {
        PlatformMutex.unlock(Self.mutex(of: header))
    }

    /// The mutex's address, loaded raw from the header's first field (see ``FutureHeader``).
    @inlinable
    static func mutex(of header: UnsafeMutablePointer<FutureHeader>) -> UnsafeMutablePointer<PlatformMutexStorage> {
        UnsafeRawPointer(header).load(as: UnsafeMutablePointer<PlatformMutexStorage>.self)
    }

    deinit {
        withUnsafeMutablePointerToHeader { PlatformMutex.destroy(Self.mutex(of: $0)) }
    }
}

/// The storage of a ``Future``: lock, phase, waiting subscriptions and result in one allocation.
/// `Value` is always the future's `Result<Output, Failure>`, a type parameter so that the deinit,
/// which runs unspecialised even in a release build, reads the result's type metadata from the
/// class's own instead of looking it up (a stored `Result`-typed field in the generic `Future`
/// cost a look-up each time a future was freed, about 335 instructions in a release build); in a
/// debug build the result is also written without a look-up.
@usableFromInline
final class FutureStorage<Value>: FutureCore {
    /// Makes the storage (one allocation) with an unlocked mutex and no result.
    @inlinable
    static func make() -> FutureStorage {
        // Room for the mutex, then the result, each at its alignment.
        let capacity =
            MemoryLayout<PlatformMutexStorage>.alignment + MemoryLayout<PlatformMutexStorage>.size
            + MemoryLayout<Value>.alignment + MemoryLayout<Value>.size
        let buffer = create(minimumCapacity: capacity) { buffer in
            let mutex = buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
                .alignedUp(for: PlatformMutexStorage.self)
            let result = (mutex + MemoryLayout<PlatformMutexStorage>.size).alignedUp(for: Value.self)
            return FutureHeader(mutex: mutex.bindMemory(to: PlatformMutexStorage.self, capacity: 1), result: result)
        }
        // `create` is declared on `ManagedBuffer`; the dynamic type is this class. An unchecked
        // cast: `unsafeDowncast` checks, which looks up this class's metadata in a debug build.
        let storage = Unmanaged<FutureStorage>.fromOpaque(Unmanaged.passUnretained(buffer).toOpaque())
            .takeUnretainedValue()
        PlatformMutex.initialize(storage.withUnsafeMutablePointerToHeader { $0.pointee.mutex })
        return storage
    }

    /// Records the result unless one is already known, and hands over the subscriptions that
    /// waited for it; `nil` if the result was already known (only the first promise call counts).
    @inlinable
    final func settle(_ phase: FuturePhase, with value: Value) -> ContiguousArray<FutureConduit>? {
        let header = lock()
        guard case .pending = header.pointee.phase else {
            unlock(header)
            return nil
        }
        header.pointee.result.bindMemory(to: Value.self, capacity: 1).initialize(to: value)
        header.pointee.phase = phase
        let waiting = header.pointee.waiting
        header.pointee.waiting = []
        unlock(header)
        return waiting
    }

    /// The result; read only once the phase, seen under the lock, says it is known.
    @inlinable
    final var result: UnsafeMutablePointer<Value> {
        // Typed outside the closure: a closure returning the typed pointer would make its caller
        // look up the metadata of `UnsafeMutablePointer<Value>` in a debug build. Loaded raw, as
        // the mutex is (see ``FutureHeader``): this runs outside the lock.
        withUnsafeMutablePointerToHeader {
            UnsafeRawPointer($0).load(
                fromByteOffset: MemoryLayout<UnsafeMutablePointer<PlatformMutexStorage>>.stride,
                as: UnsafeMutableRawPointer.self)
        }.assumingMemoryBound(to: Value.self)
    }

    @inlinable
    deinit {
        withUnsafeMutablePointerToHeader { header in
            if case .pending = header.pointee.phase { return }
            header.pointee.result.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        }
    }
}

/// What a ``Future``'s subscription knows of its subscriber, under the future's lock.
@usableFromInline
struct FutureConduitFlags {
    /// The subscriber is still held: neither served nor cancelled. Whoever clears this, under the
    /// lock, owns the subscriber from then on.
    @usableFromInline var live = true
    @usableFromInline var hasDemand = false
    /// False until the subscriber has its subscription; nothing is delivered before.
    @usableFromInline var ready = false

    @inlinable
    init() {}

    /// Claims the subscriber when the result can go out now: it is known, the subscriber has its
    /// subscription, and it asked for a value unless the result is a failure.
    @inlinable
    mutating func claim(_ phase: FuturePhase) -> Bool {
        guard ready, live else { return false }
        switch phase {
        case .pending:
            return false
        case .succeeded:
            guard hasDemand else { return false }
        case .failed:
            break
        }
        live = false
        return true
    }
}

/// One subscriber's subscription to a ``Future``, as the future sees it: everything that does not
/// depend on the future's or the subscriber's types. The subscriber itself is kept by the subclass
/// `Future.SubscriberConduit`, generic over its type, and reached through ``deliverHook``, made in
/// that subclass's specialised `init`.
///
/// Not generic, so that the bookkeeping (attaching, requests, the claim on the subscriber,
/// cancelling) runs without type metadata in a debug build, and so that `request(_:)` and
/// `cancel()`, which arrive through the `Subscription` existential, are compiled once rather than
/// run as unspecialised generic code (the reason the generic subscription kept a hook for
/// `request(_:)`: `switchToLatest` over `Future`s looked up type metadata for every one).
///
/// Its fields are guarded by its future's lock (``core``), which it shares: the lock that says
/// whether the result is known also says whether this subscription may deliver it, and a
/// subscription needs no lock of its own.
@usableFromInline
class FutureConduit: Subscription, ReflectsAsOperator {
    /// The future's storage: its lock, its phase and, once known, its result. Held for as long as
    /// this subscription lives, so the result can be read from it after `parent` is let go of.
    @usableFromInline
    let core: FutureCore

    /// Guarded by the lock.
    @usableFromInline
    @exclusivity(unchecked)
    var flags = FutureConduitFlags()

    /// The future, until the result has gone out or the subscription is cancelled; guarded by the
    /// lock. It stays here while the result is being delivered, so that the mirror shows it
    /// meanwhile, as Apple's does.
    @usableFromInline
    @exclusivity(unchecked)
    var parent: AnyObject?

    /// Given `true`, hands the future's result to the subscriber the caller has claimed; given
    /// `false` (a cancel that claimed it), lets go of the subscriber.
    @usableFromInline
    let deliverHook: (FutureConduit, Bool) -> Void

    @inlinable
    init(parent: AnyObject, core: FutureCore, deliverHook: @escaping (FutureConduit, Bool) -> Void) {
        self.core = core
        self.parent = parent
        self.deliverHook = deliverHook
    }

    /// Joins the future's waiting subscriptions unless the result is already known.
    @inlinable
    final func attach() {
        let header = core.lock()
        if case .pending = header.pointee.phase { header.pointee.waiting.append(self) }
        core.unlock(header)
    }

    /// Records, under the lock, that the subscriber has its subscription (`ready`) or has asked
    /// for values (`demand`), then delivers the result if it is known and may now go out. Called
    /// with neither when the result has just arrived and this subscription was waiting for it.
    @inlinable
    final func deliverIfDue(ready: Bool, demand: Bool) {
        let header = core.lock()
        if ready { flags.ready = true }
        if demand { flags.hasDemand = true }
        let claimed = flags.claim(header.pointee.phase)
        core.unlock(header)
        if claimed { deliver() }
    }

    @usableFromInline
    final func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("Future subscription request(_:)")
        deliverIfDue(ready: false, demand: true)
    }

    /// Hands the result to the subscriber this call claimed, then lets go of the future. (Apple
    /// keeps the future after a delivery that a request set off: a leak, not copied.)
    @inlinable
    final func deliver() {
        deliverHook(self, true)
        let header = core.lock()
        let parent = self.parent.take()
        core.unlock(header)
        withExtendedLifetime(parent) {}
    }

    @usableFromInline
    final func cancel() {
        let header = core.lock()
        let claimed = flags.live
        flags.live = false
        let parent = self.parent.take()
        if parent != nil, case .pending = header.pointee.phase,
           let index = header.pointee.waiting.firstIndex(where: { $0 === self }) {
            _ = header.pointee.waiting.remove(at: index)
        }
        core.unlock(header)
        if claimed { deliverHook(self, false) }
        withExtendedLifetime(parent) {}
    }

    /// The subscriber, for the mirror; read under the lock while it is still held.
    var heldSubscriber: Any? { nil }

    /// `parent` as the mirror shows it: an optional of the future's own type.
    func mirrorParent(_ parent: AnyObject?) -> Any { parent as Any }

    @usableFromInline
    final var description: String { "Future" }

    /// Apple's shape: `parent` and `downstream` are `nil` once the result has gone out or the
    /// subscription was cancelled; while the result is being delivered, `parent` is still
    /// the future and `downstream` is already `nil`.
    @usableFromInline
    final var mirrorChildren: KeyValuePairs<String, Any> {
        let header = core.lock()
        let (parent, downstream, hasDemand) = (self.parent, flags.live ? heldSubscriber : nil, flags.hasDemand)
        core.unlock(header)
        let shown = mirrorParent(parent)
        return ["parent": shown, "downstream": downstream as Any, "hasAnyDemand": hasDemand, "subject": shown]
    }
}

extension Future {
    /// A ``FutureConduit`` holding a subscriber of type `Downstream`. `Slot` is always
    /// `Downstream?`, a type parameter for the reason `OneValueSubscription` gives: the
    /// unspecialised deinit would otherwise look up the metadata of `Optional<Downstream>`.
    @usableFromInline
    final class SubscriberConduit<Downstream: Subscriber, Slot>: FutureConduit
    where Downstream.Input == Output, Downstream.Failure == Failure {
        /// Touched only by whoever claimed the subscriber (``FutureConduitFlags/live``), and by
        /// the mirror under the lock before that; hence `@exclusivity(unchecked)`.
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: Slot

        @inlinable
        init(parent: Future, downstream: Downstream) where Slot == Downstream? {
            self.downstream = downstream
            super.init(parent: parent, core: parent.storage) { conduit, deliver in
                // An unchecked cast through `Unmanaged`: the hook is only ever stored in a
                // `SubscriberConduit` of these types. `unsafeDowncast` checks the type, which in a
                // debug build looks up the class's metadata at run time.
                let conduit = Unmanaged<SubscriberConduit>
                    .fromOpaque(Unmanaged.passUnretained(conduit).toOpaque()).takeUnretainedValue()
                if deliver {
                    conduit.deliverResult()
                } else {
                    conduit.letGo()
                }
            }
        }

        /// Hands the future's result to the subscriber.
        @inlinable
        func deliverResult() where Slot == Downstream? {
            guard let downstream = downstream.take() else { return }
            // The storage of this subscription's future, of its own type (an unchecked cast, as
            // above).
            let storage = Unmanaged<FutureStorage<Result<Output, Failure>>>
                .fromOpaque(Unmanaged.passUnretained(core).toOpaque()).takeUnretainedValue()
            switch storage.result.pointee {
            case .success(let value):
                _ = downstream.receive(value)
                downstream.receive(completion: .finished)
            case .failure(let error):
                downstream.receive(completion: .failure(error))
            }
        }

        /// Lets go of the subscriber, which a cancel has claimed. (A method of its own: assigning the
        /// field in the hook looked up the metadata of `Optional<Downstream>` at every call of the
        /// hook in a debug build.)
        @inlinable
        func letGo() where Slot == Downstream? {
            downstream = nil
        }

        /// The subscriber itself, not wrapped in `Slot`'s optional, so that the mirror shows one
        /// `Optional` around it, as Apple's does.
        override var heldSubscriber: Any? { (downstream as Any) as? Downstream }

        override func mirrorParent(_ parent: AnyObject?) -> Any {
            parent.map { unsafeDowncast($0, to: Future.self) } as Any
        }
    }
}

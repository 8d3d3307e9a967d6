import Synchronization
import TributaryLocks

/// The process-wide set of enabled ``_Introspection`` handlers.
///
/// The set lives under the package's lock; `enabledCount` mirrors its size so that
/// ``Publisher/subscribe(_:)-4u8kn`` can decide with one relaxed load whether anything is watching.
/// Relaxed is enough: a `subscribe` racing with `enable()` on another thread has no order with it
/// either way, and once the count is non-zero the handlers themselves are read under the lock.
@usableFromInline
enum IntrospectionRegistry {
    /// How many handlers are enabled; written only under `handlers`' lock.
    @usableFromInline
    static let enabledCount = Atomic<Int>(0)

    /// The enabled handlers, each once (by identity), in the order they were enabled.
    static let handlers = LockedState<[any _Introspection]>([])

    /// Whether any handler is enabled: the single check `subscribe` makes.
    @inlinable
    static var isActive: Bool {
        enabledCount.load(ordering: .relaxed) != 0
    }

    /// The handlers to tell about the next event, read under the lock and called outside it.
    static var current: [any _Introspection] {
        guard isActive else { return [] }
        return handlers.snapshot
    }

    static func enable(_ handler: any _Introspection) {
        handlers.withLock { list in
            guard !list.contains(where: { $0 === handler }) else { return }
            list.append(handler)
            enabledCount.store(list.count, ordering: .relaxed)
        }
    }

    static func disable(_ handler: any _Introspection) {
        handlers.withLock { list in
            list.removeAll { $0 === handler }
            enabledCount.store(list.count, ordering: .relaxed)
        }
    }

    static func contains(_ handler: any _Introspection) -> Bool {
        handlers.withLock { list in list.contains { $0 === handler } }
    }
}

extension Publisher {
    /// The slow path of ``subscribe(_:)-4u8kn`` while a handler is enabled: reports the attach
    /// around `receive(subscriber:)` and hands the publisher a watched subscriber.
    @usableFromInline
    func subscribeIntrospected<S: Subscriber>(_ subscriber: S) where Failure == S.Failure, Output == S.Input {
        let handlers = IntrospectionRegistry.current
        if handlers.isEmpty {
            receive(subscriber: subscriber)
            return
        }
        // A subscriber already watched (passed on by a publisher that was given it, as `Deferred`
        // passes its subscriber to the publisher it makes) is not watched twice. Apple reports
        // that attach with an `AnySubscriber`, which describes itself as the subscriber.
        if subscriber is any IntrospectionWatched {
            let reported = AnySubscriber(subscriber)
            for handler in handlers { handler.willReceive(publisher: self, subscriber: reported) }
            receive(subscriber: subscriber)
            for handler in handlers { handler.didReceive(publisher: self, subscriber: reported) }
            return
        }
        for handler in handlers { handler.willReceive(publisher: self, subscriber: subscriber) }
        receive(subscriber: IntrospectedSubscriber(subscriber))
        for handler in handlers { handler.didReceive(publisher: self, subscriber: subscriber) }
    }
}

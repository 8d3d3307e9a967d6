/// A stage that watches a second publisher for its first value: `drop(untilOutputFrom:)` opens
/// its gate then, `prefix(untilOutputFrom:)` finishes.
@usableFromInline
protocol OutputSignalWatcher: AnyObject, CustomCombineIdentifierConvertible {
    associatedtype SignalFailure: Error

    /// The watched publisher's subscription arrived.
    func signalSubscribed(_ subscription: any Subscription)
    /// The watched publisher published a value.
    func signalFired()
    /// The watched publisher completed.
    func signalCompleted(_ completion: Subscribers.Completion<SignalFailure>)
}

/// Subscribes to the watched publisher on behalf of an ``OutputSignalWatcher`` and shares its
/// identity; every event goes straight to the watcher, and no further values are asked for.
@usableFromInline
struct OutputSignalSubscriber<Watcher: OutputSignalWatcher, Signal: Publisher>: Subscriber
where Signal.Failure == Watcher.SignalFailure {
    @usableFromInline typealias Input = Signal.Output
    @usableFromInline typealias Failure = Signal.Failure

    @usableFromInline let watcher: Watcher
    @usableFromInline var combineIdentifier: CombineIdentifier { watcher.combineIdentifier }

    @inlinable init(watcher: Watcher) { self.watcher = watcher }

    @inlinable
    func receive(subscription: any Subscription) { watcher.signalSubscribed(subscription) }

    @inlinable
    func receive(_ input: Signal.Output) -> Subscribers.Demand {
        watcher.signalFired()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Signal.Failure>) { watcher.signalCompleted(completion) }
}

/// Apple's `drop(untilOutputFrom:)` shows the subscriber it attaches to the other publisher as it
/// shows its subscription (`"DropUntilOutput"`, no mirror children, spec §28); the watchers that
/// show themselves that way lend it their shape. (`prefix(untilOutputFrom:)`'s has none.)
extension OutputSignalSubscriber: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    ReflectsAsOperator
where Watcher: ReflectsAsOperator {
    @usableFromInline var description: String { watcher.description }
}

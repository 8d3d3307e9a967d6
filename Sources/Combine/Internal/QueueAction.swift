/// A scheduled action that is an object: a stage that hands the same action to a queue again and
/// again (`receive(on:)`, one per event) subclasses it, so the closure given to the queue
/// captures the stage alone and needs no context of its own.
///
/// `perform` is made by the subclass's specialised initialiser: the queue's closure calls it
/// through this non-generic class, and it runs the subclass's specialised code (an overridden
/// method of a generic class would run unspecialised from the vtable).
@usableFromInline
class QueueAction {
    @usableFromInline let perform: (QueueAction) -> Void

    @inlinable
    init(perform: @escaping (QueueAction) -> Void) {
        self.perform = perform
    }
}

#if canImport(Dispatch)
import Dispatch

extension DispatchQueue {
    /// Runs `action` on this queue, as `schedule(options: nil, _:)` would run a closure that
    /// calls it: one work item, submitted asynchronously. The work item's closure captures the
    /// action alone, so Swift uses the action as its context and allocates nothing for it, where
    /// `schedule(options:_:)` must wrap the caller's plain closure in a `@Sendable` one (one
    /// allocation per call).
    @usableFromInline
    func async(_ action: QueueAction) {
        // Not `Sendable`, as the closures `schedule(options:_:)` takes are not: running an
        // action on the queue it was handed to is what a scheduler is for.
        nonisolated(unsafe) let action = action
        async { action.perform(action) }
    }
}
#endif

import Combine
import TributaryLocks

/// A publisher that reads an `AsyncSequence`: the way from Swift concurrency back into a Combine
/// pipeline.
///
/// Each subscription iterates the sequence in a task of its own, and pulls an element only when the
/// subscriber has demand for it: with `.max(3)` exactly three elements are read, and the fourth
/// pull waits for more demand. Because nothing is read ahead, the end of the sequence is
/// discovered (and `finished` delivered) on the pull after the last element, which happens only
/// while there is demand. Cancelling the subscription cancels the task; the sequence's own
/// iterator decides how quickly it notices (`AsyncStream` stops at once).
///
/// ```swift
/// let cancellable = AsyncSequencePublisher(notifications)
///     .map(\.name)
///     .sink { print($0) }
/// ```
///
/// ## Naming
///
/// The type is top-level in the `Tributary` module, not in Apple's `Publishers` namespace, and there
/// is deliberately no `asyncSequence.publisher` property. If Apple ever adds such a property to
/// `AsyncSequence`, a second member of the same name in another module would make every call site
/// ambiguous, and members cannot be disambiguated by module. A type name can:
/// `Tributary.AsyncSequencePublisher` stays reachable whatever Apple adds.
///
/// `Base` must be `Sendable` because each subscription iterates its copy of the sequence in
/// another task. The elements are handed to the subscriber from that task, on whatever thread it
/// runs; use `receive(on:)` to choose.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
    /// The sequence's elements.
    public typealias Output = Base.Element

    /// The sequence's error type: `Never` for sequences that cannot throw.
    public typealias Failure = Base.Failure

    /// The sequence each subscription iterates.
    public let base: Base

    /// The priority of the tasks that iterate the sequence; `nil` inherits nothing and lets the
    /// runtime choose.
    public let priority: TaskPriority?

    /// Publishes the elements of `base`, iterated with the given task priority.
    public init(_ base: Base, priority: TaskPriority? = nil) {
        self.base = base
        self.priority = priority
    }

    /// Starts a subscription: the sequence is iterated (from its beginning, with a new iterator)
    /// once the subscriber requests something.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let inner = Inner(
            base: base, priority: priority,
            downstream: Downstream(
                receive: { subscriber.receive($0) },
                complete: { subscriber.receive(completion: $0) }))
        subscriber.receive(subscription: inner)
        inner.downstreamReady()
    }
}

/// Shareable between tasks: it holds only the `Sendable` sequence and a priority.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension AsyncSequencePublisher: Sendable {}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension AsyncSequencePublisher {
    /// The subscriber, as the two calls the iterating task makes into it.
    ///
    /// `@unchecked Sendable`: a Combine subscriber may be called from any thread as long as the
    /// calls do not overlap; only the iterating task calls these closures, one at a time, after
    /// `receive(subscription:)` has returned.
    struct Downstream: @unchecked Sendable {
        let receive: (Base.Element) -> Subscribers.Demand
        let complete: (Subscribers.Completion<Base.Failure>) -> Void
    }

    /// The subscription: holds the demand, starts the iterating task, and parks it while there is
    /// no demand.
    ///
    /// It is not generic over the subscriber's type (the subscriber is reached through
    /// `Downstream`'s closures) so that the iterating task does not capture a non-`Sendable`
    /// metatype.
    ///
    /// `@unchecked Sendable`: all mutable state is in `state`, guarded by its lock; `base` and
    /// `priority` are immutable. Values cross from the iterating task to the downstream without a
    /// `Sendable` requirement, which is what every Combine stage does.
    final class Inner: Subscription, CustomStringConvertible, @unchecked Sendable {
        struct State {
            var downstream: Downstream?
            var demand = Subscribers.Demand.none
            /// `receive(subscription:)` has returned, so values may be delivered.
            var ready = false
            var started = false
            var terminal = false
            var task: Task<Void, Never>?
            /// The iterating task, parked until demand arrives; resumed with `false` on cancel.
            var parked: UnsafeContinuation<Bool, Never>?
        }

        /// What the iterating task does next.
        enum Step { case pull, park, stop }

        let base: Base
        let priority: TaskPriority?
        let state: LockedState<State>

        init(base: Base, priority: TaskPriority?, downstream: Downstream) {
            self.base = base
            self.priority = priority
            state = LockedState(State(downstream: downstream))
        }

        var description: String { "AsyncSequencePublisher" }

        func request(_ demand: Subscribers.Demand) {
            if demand == .none {
                fatalError("Combine API misuse: AsyncSequencePublisher's Subscription.request(_:) was called with .none; a subscriber must request at least one value.")
            }
            let (start, parked) = state.withLock { state -> (Bool, UnsafeContinuation<Bool, Never>?) in
                guard !state.terminal else { return (false, nil) }
                state.demand += demand
                let parked = state.parked
                state.parked = nil
                return (state.ready && !state.started ? Self.markStarted(&state) : false, parked)
            }
            parked?.resume(returning: true)
            if start { startTask() }
        }

        func cancel() {
            let (task, parked) = state.withLock { state -> (Task<Void, Never>?, UnsafeContinuation<Bool, Never>?) in
                guard !state.terminal else { return (nil, nil) }
                state.terminal = true
                state.downstream = nil
                defer { state.task = nil; state.parked = nil }
                return (state.task, state.parked)
            }
            task?.cancel()
            parked?.resume(returning: false)
        }

        /// Called once `receive(subscription:)` has returned: demand requested during it starts
        /// the task now, so no value can overtake the subscription.
        func downstreamReady() {
            let start = state.withLock { state in
                state.ready = true
                return !state.terminal && state.demand > 0 && !state.started ? Self.markStarted(&state) : false
            }
            if start { startTask() }
        }

        private static func markStarted(_ state: inout State) -> Bool {
            state.started = true
            return true
        }

        private func startTask() {
            let task = Task(priority: priority) { await self.run() }
            let cancelled = state.withLock { state in
                if state.terminal { return true }
                state.task = task
                return false
            }
            if cancelled { task.cancel() }
        }

        /// The iterating task's body.
        private func run() async {
            var iterator = base.makeAsyncIterator()
            while await reserveOne() {
                let element: Base.Element?
                do throws(Base.Failure) {
                    element = try await iterator.next(isolation: nil)
                } catch {
                    finish(.failure(error))
                    return
                }
                guard let element else {
                    finish(.finished)
                    return
                }
                guard let downstream = state.withLock({ $0.terminal ? nil : $0.downstream }) else { return }
                let more = downstream.receive(element)
                if more != .none {
                    state.withLock { state in
                        if !state.terminal { state.demand += more }
                    }
                }
            }
        }

        /// Takes one unit of demand, parking the task until there is some; `false` once cancelled.
        private func reserveOne() async -> Bool {
            while true {
                switch state.withLock({ Self.step(&$0) }) {
                case .pull: return true
                case .stop: return false
                case .park:
                    let resumed = await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                        let immediately: Bool? = state.withLock { state in
                            if state.terminal { return false }
                            if state.demand > 0 { return true }
                            state.parked = continuation
                            return nil
                        }
                        if let immediately { continuation.resume(returning: immediately) }
                    }
                    if !resumed { return false }
                }
            }
        }

        private static func step(_ state: inout State) -> Step {
            if state.terminal { return .stop }
            if state.demand > 0 {
                state.demand -= 1
                return .pull
            }
            return .park
        }

        private func finish(_ completion: Subscribers.Completion<Base.Failure>) {
            let downstream = state.withLock { state -> Downstream? in
                guard !state.terminal else { return nil }
                state.terminal = true
                state.task = nil
                defer { state.downstream = nil }
                return state.downstream
            }
            downstream?.complete(completion)
        }
    }
}

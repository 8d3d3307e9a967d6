// Code written the way it is written against Apple's Combine, whose types are not `Sendable`: the
// file imports Combine with `@preconcurrency`, then captures `any Cancellable`, `any Subscription`,
// `AnySubscriber` and `Publishers.Multicast` in `@Sendable` closures and in a task. Against Apple's
// Combine the compiler says nothing about those captures; it must say nothing against ours either.
// The package compiles this file twice with every warning as an error: in the Swift 6 language
// mode (target `PreconcurrencyClient`) and in the Swift 5 mode with complete concurrency checking
// (target `PreconcurrencyClientSwift5`, whose copy is a link to this file), so
// `Scripts/integration-tests` fails as soon as one of these captures draws a diagnostic again.
@preconcurrency import Combine

/// Streams the values of `publisher` into an `AsyncStream`; ending the stream cancels the
/// subscription from the `@Sendable` `onTermination` handler, which captures the
/// `any Cancellable` (the shape of combine-schedulers' `Scheduler.timer(interval:)`).
public func valueStream<Upstream: Publisher>(
    of publisher: Upstream
) -> AsyncStream<Upstream.Output> where Upstream.Failure == Never, Upstream.Output: Sendable {
    AsyncStream { continuation in
        let cancellable: any Cancellable = publisher.sink(
            receiveCompletion: { _ in continuation.finish() },
            receiveValue: { continuation.yield($0) }
        )
        continuation.onTermination = { _ in cancellable.cancel() }
    }
}

/// Returns an action that cancels `subscription`, for handing to code that runs it on another
/// thread (the action is `@Sendable`, the subscription is not).
public func cancelAction(for subscription: any Subscription) -> @Sendable () -> Void {
    { subscription.cancel() }
}

/// Asks `subscription` for one more value from a detached task, which captures it.
public func requestOneLater(from subscription: any Subscription) {
    Task.detached { subscription.request(.max(1)) }
}

/// Returns an action that sends `value` and then finishes `subscriber`, for another thread.
public func deliverAction(
    _ value: Int,
    to subscriber: AnySubscriber<Int, Never>
) -> @Sendable () -> Void {
    {
        _ = subscriber.receive(value)
        subscriber.receive(completion: .finished)
    }
}

/// The subject type of ``connectAction(_:keep:)``.
public typealias Subject = PassthroughSubject<Int, Never>

/// Returns an action that connects `multicast`, for another thread; the returned cancellable is
/// handed to `keep`.
public func connectAction(
    _ multicast: Publishers.Multicast<Subject, Subject>,
    keep: @escaping @Sendable (any Cancellable) -> Void
) -> @Sendable () -> Void {
    { keep(multicast.connect()) }
}

import Combine

// Naming: these initializers take the label `performing:` rather than an unlabelled closure or
// `operation:` (the label `Task` uses, and so the one Apple would most likely pick if it ever
// added an async initializer to `Future`). A call that spells the label can never become
// ambiguous with a future Apple API; a trailing-closure call (`Future { try await … }`) also works
// today and would only clash with an Apple initializer of exactly the same shape.

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Future where Failure == Never {
    /// A future fulfilled by an `async` function: the function starts at once in a new task (a
    /// future is eager), and its result is delivered to every subscriber, present and future.
    ///
    /// Like every `Future`, the work runs once, whether or not anyone subscribes, and is not
    /// cancelled when subscribers cancel (other subscribers may still want the result). To run
    /// the work per subscriber, and only on subscription, wrap it: `Deferred { Future { … } }`.
    /// To stop the work when the subscriber cancels, publish it with `AsyncSequencePublisher`
    /// instead, whose task is cancelled with the subscription.
    ///
    /// ```swift
    /// let greeting = Future { await server.greeting() }
    /// let same = Future(performing: server.greeting)
    /// ```
    ///
    /// The `performing:` label is chosen so that the spelled-out form can never collide with an
    /// initializer Apple might add to `Future` (which would most likely follow `Task` and use
    /// `operation:`).
    ///
    /// - Parameters:
    ///   - priority: the priority of the task that runs `operation`.
    ///   - operation: the work; its return value fulfils the future.
    public convenience init(
        priority: TaskPriority? = nil,
        performing operation: @escaping @Sendable () async -> Output
    ) {
        self.init { promise in
            let fulfil = FuturePromiseTransfer(promise)
            Task(priority: priority) {
                fulfil.promise(.success(await operation()))
            }
        }
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Future where Failure == any Error {
    /// A future fulfilled by a throwing `async` function: the function starts at once in a new
    /// task, and its result or thrown error is delivered to every subscriber, present and future.
    ///
    /// The work runs once, whether or not anyone subscribes, and is not cancelled when
    /// subscribers cancel. Wrap it in `Deferred { … }` to run it per subscriber, on subscription.
    ///
    /// ```swift
    /// let profile = Future { try await api.profile(id: id) }
    /// profile.sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    ///
    /// Spell the label (`Future(performing: load)`) where the code must stay unambiguous even if
    /// Apple adds an async initializer of its own.
    ///
    /// - Parameters:
    ///   - priority: the priority of the task that runs `operation`.
    ///   - operation: the work; its return value fulfils the future, its error fails it.
    public convenience init(
        priority: TaskPriority? = nil,
        performing operation: @escaping @Sendable () async throws -> Output
    ) {
        self.init { promise in
            let fulfil = FuturePromiseTransfer(promise)
            Task(priority: priority) {
                do {
                    fulfil.promise(.success(try await operation()))
                } catch {
                    fulfil.promise(.failure(error))
                }
            }
        }
    }
}

/// Carries a future's promise into the task that fulfils it.
///
/// `@unchecked Sendable`: `Future` accepts its promise being called from any thread (it guards its
/// state with a lock), and the task calls it once; Apple's `Promise` type is simply not marked
/// `@Sendable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
struct FuturePromiseTransfer<Output, Failure: Error>: @unchecked Sendable {
    let promise: Future<Output, Failure>.Promise

    init(_ promise: @escaping Future<Output, Failure>.Promise) {
        self.promise = promise
    }
}

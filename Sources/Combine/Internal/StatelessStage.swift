/// A stage that holds no state of its own between events and hands its upstream's subscription
/// straight to its downstream: `map`, `filter`, `compactMap`, `scan`, the key-path `map`s,
/// `mapError`, `setFailureType`, `ignoreOutput`, `assertNoFailure` and `breakpoint`.
///
/// Each of those stages writes only what it changes (usually its `receive(_:)` and its
/// `description`); the rest forwards to the downstream through the defaults below, and its
/// `Input` and `Failure` follow from what it writes (a stage that leaves values alone takes its
/// downstream's `Input`, one that leaves completions alone its downstream's `Failure`). The
/// defaults are `@inlinable`, so in a user's specialised pipeline they compile to the same direct
/// calls a stage would write out itself. A stage that is a struct keeps a stored
/// `combineIdentifier` of its own (a default cannot store one), made once when the stage is made,
/// as Apple's are.
@usableFromInline
protocol StatelessStage: Subscriber, ReflectsAsOperator {
    /// The subscriber the stage feeds.
    associatedtype Downstream: Subscriber

    var downstream: Downstream { get }
}

extension StatelessStage {
    /// The upstream's subscription goes down unchanged: demand and cancellation need nothing from
    /// the stage.
    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }
}

extension StatelessStage where Input == Downstream.Input {
    /// A stage that leaves values alone passes each one on with the downstream's demand.
    @inlinable @inline(__always)
    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(input)
    }
}

extension StatelessStage where Failure == Downstream.Failure {
    /// A stage that leaves the failure type alone passes the completion on as it came.
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}

import Synchronization

/// The subscription of the publishers that deliver one stored value and finish (`Just` for any
/// subscriber but a `Sink`, `Optional.Publisher`, `Result.Publisher`): value and `.finished` on
/// the first request, nothing after cancel. `name` is what `print()` shows.
///
/// `Slot` is always `Downstream?`, the type of the field that holds the subscriber until it is
/// served or cancelled, and `Output` is `Downstream.Input`. They are type parameters rather than
/// written out because the deinit of a generic class runs unspecialised: to destroy a field of
/// type `Downstream?` it would look up the metadata of `Optional<Downstream>` at run time, about
/// 300 instructions per subscription (`flatMap { Just($0) }` spent 15 % of its time there), and
/// one of type `Downstream.Input` the associated type, where the metadata of a type parameter is
/// read from the class's own.
@usableFromInline
final class OneValueSubscription<Output, Downstream: Subscriber, Slot> where Downstream.Input == Output {
    /// Reaches ``requestNow(_:)``, specialised: made in the specialised `init`, where a
    /// subscriber's `request(_:)` through the `Subscription` existential would reach the
    /// generic code and hand the value, and everything the subscriber does with it, to
    /// unspecialised code (`switchToLatest` over `Just`s: about 30,000 instructions per value).
    @usableFromInline let requestHook: (OneValueSubscription, Subscribers.Demand) -> Void

    @usableFromInline
    let value: Output

    /// The subscriber until it is served or cancelled. Written only by the one caller that wins
    /// `claimed` (delivery or cancel), never read concurrently (hence `@exclusivity(unchecked)`).
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Slot

    /// Set by the first `request` or `cancel`; whoever sets it owns the subscriber.
    @usableFromInline
    let claimed = Atomic<Bool>(false)

    @usableFromInline
    let name: StaticString

    @inlinable
    init(name: StaticString, value: Output, downstream: Downstream) where Slot == Downstream? {
        self.name = name
        self.value = value
        self.downstream = downstream
        requestHook = { subscription, demand in subscription.requestNow(demand) }
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) where Slot == Downstream? {
        demand.assertNonZero("\(name) subscription request(_:)")
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing), let downstream = downstream.take()
        else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }
}

extension OneValueSubscription: Cancellable, CustomCombineIdentifierConvertible, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, ReflectsAsOperator
where Slot == Downstream? {
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        requestHook(self, demand)
    }

    @inlinable
    func cancel() {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        downstream = nil
    }

    @usableFromInline
    var description: String { "\(name)" }

    /// Apple's shape: the value as one unlabelled child.
    @usableFromInline
    var customMirror: Mirror { Mirror(self, unlabeledChildren: [value]) }
}

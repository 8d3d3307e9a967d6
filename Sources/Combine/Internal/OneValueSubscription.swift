/// The subscription of the publishers that deliver one stored value and finish
/// (`Optional.Publisher`, `Result.Publisher`): value and `.finished` on the first request, nothing
/// after cancel. `name` is what `print()` shows.
@usableFromInline
final class OneValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    /// Present until delivered or cancelled; whoever takes it out under the lock delivers.
    @usableFromInline
    let pending: LockedState<(value: Downstream.Input, downstream: Downstream)?>

    @usableFromInline
    let name: StaticString

    @inlinable
    init(name: StaticString, value: Downstream.Input, downstream: Downstream) {
        self.name = name
        pending = LockedState((value, downstream))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero("\(name) subscription request(_:)")
        guard let (value, downstream) = pending.withLock({ state in
            defer { state = nil }
            return state
        }) else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        _ = pending.withLock { state in
            defer { state = nil }
            return state
        }
    }

    @usableFromInline
    var description: String { "\(name)" }

    @usableFromInline
    var customMirror: Mirror {
        let value: Any = pending.withLock { $0?.value } as Any
        return Mirror(self, children: ["value": value])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

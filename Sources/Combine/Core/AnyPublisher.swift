/// A publisher whose concrete type is hidden.
///
/// Return `AnyPublisher` from APIs so callers depend on the output and failure types only, not on
/// the chain of operators that produces them. Erasing is cheap and never stacks: erasing an
/// `AnyPublisher` again gives back the same value.
///
/// The forwarding closure is created in `@inlinable` code, so it is compiled for the concrete
/// upstream at the place of erasure. The upstream chain then talks to an `AnySubscriber`, whose own
/// closures are compiled for the concrete downstream where it subscribes: each value crosses the
/// erasure with one closure call and no allocation.
///
/// A pipeline built step by step often erases after every `map` that keeps the value type
/// (`chain = chain.map { … }.eraseToAnyPublisher()`). Such maps are fused across the erasures: a
/// subscriber gets one stage that runs all of their transforms in a row, instead of one erased
/// layer per map. What the subscriber and the upstream see is the same (maps hand the upstream's
/// subscription straight through), only the cost per value drops.
@frozen
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
    @usableFromInline
    internal let subscribeErased: (AnySubscriber<Output, Failure>) -> Void

    /// Set when this publisher erases a `map` from `Output` to `Output` over another
    /// `AnyPublisher`: that map, so later erasures can see through it.
    @usableFromInline
    internal let sameTypeMap: SameTypeMap?

    /// Wraps `publisher`. An `AnyPublisher` is taken as is, not wrapped a second time.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
            return
        }
        // Decided at compile time where `P` is known (the cast folds away).
        if let map = publisher as? Publishers.Map<AnyPublisher<Output, Failure>, Output> {
            let link = SameTypeMap(map)
            sameTypeMap = link
            subscribeErased = { AnyPublisher.subscribeFused(last: link, $0) }
            return
        }
        sameTypeMap = nil
        subscribeErased = { publisher.receive(subscriber: $0) }
    }

    /// `"AnyPublisher"`, as Apple prints it.
    public var description: String { "AnyPublisher" }

    /// The same as ``description``.
    public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
    /// Attaches `subscriber` to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        subscribeErased(AnySubscriber(subscriber))
    }
}

extension Publisher {
    /// Hides this publisher's type behind ``AnyPublisher``, so an API can change its operator chain
    /// without changing its signature.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

extension AnyPublisher {
    /// Already erased: returns `self` rather than wrapping it again.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        self
    }
}

extension AnyPublisher {
    /// An erased `map` that keeps the value type (see the type's documentation).
    @usableFromInline
    final class SameTypeMap {
        @usableFromInline
        let map: Publishers.Map<AnyPublisher<Output, Failure>, Output>

        @inlinable
        init(_ map: Publishers.Map<AnyPublisher<Output, Failure>, Output>) {
            self.map = map
        }
    }

    /// Subscribes `downstream` to the first publisher below the run of erased same-type maps
    /// ending with `last`, through one stage applying all of them.
    @inlinable
    static func subscribeFused(last: SameTypeMap, _ downstream: AnySubscriber<Output, Failure>) {
        // Walking up from the last map gives the transforms in reverse order.
        var transforms: ContiguousArray<(Output) -> Output> = [last.map.transform]
        var upstream = last.map.upstream
        while let link = upstream.sameTypeMap {
            transforms.append(link.map.transform)
            upstream = link.map.upstream
        }
        transforms.reverse()
        upstream.subscribeErased(AnySubscriber(FusedMaps(transforms: transforms, downstream: downstream)))
    }

    /// The subscriber standing for a run of maps: like a single `map`, it passes the subscription
    /// and the completion straight through, and transforms each value on its way down.
    @usableFromInline
    struct FusedMaps: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline typealias Input = Output

        /// The maps' transforms, in the order the values go through them.
        @usableFromInline let transforms: ContiguousArray<(Output) -> Output>
        @usableFromInline let downstream: AnySubscriber<Output, Failure>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(transforms: ContiguousArray<(Output) -> Output>, downstream: AnySubscriber<Output, Failure>) {
            self.transforms = transforms
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            var value = input
            var index = 0
            while index < transforms.count {
                value = transforms[index](value)
                index += 1
            }
            return downstream.receive(value)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Map" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

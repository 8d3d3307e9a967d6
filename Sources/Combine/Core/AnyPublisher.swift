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
@frozen
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
    @usableFromInline
    internal let subscribeErased: (AnySubscriber<Output, Failure>) -> Void

    /// Wraps `publisher`. An `AnyPublisher` is taken as is, not wrapped a second time.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
            return
        }
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
